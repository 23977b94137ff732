"""evallab from Python: a dataset's tables as polars LazyFrames, its statistics
as polars DataFrames, and the long jobs (ingest, analyze, policy, match) as
calls with a progress bar.

Every statistic runs the ``evallab`` binary installed with this package (the
wheel holds it; ``EVALLAB_BIN`` overrides it) with ``--format parquet`` into a
temporary folder, and reads the result with polars: a method returns exactly
the frame of its command (tests/python/test_api.py checks each). Options are
the command's long options as keyword arguments, ``-`` written ``_``
(``moves_out=`` for ``--moves-out``); ``True`` passes a flag, a list repeats the
option, ``None`` leaves the command's default. docs/guide/python.md says why
the binary rather than native bindings (per-call overhead, build time, wheel
size, measured).

>>> import evallab
>>> ds = evallab.Dataset("demo-dataset")                      # doctest: +SKIP
>>> ds.balance(by="engine").select("engine", "games", "wins", "balance", "reason")  # doctest: +SKIP
shape: (4, 5)
┌────────────────┬───────┬──────┬─────────┬─────────────────────────────────┐
│ engine         ┆ games ┆ wins ┆ balance ┆ reason                          │
│ ---            ┆ ---   ┆ ---  ┆ ---     ┆ ---                             │
│ str            ┆ u32   ┆ u32  ┆ f64     ┆ str                             │
╞════════════════╪═══════╪══════╪═════════╪═════════════════════════════════╡
│ Stockfish Full ┆ 132   ┆ 119  ┆ null    ┆ fewer non-won games with an ow… │
│ Stockfish L5   ┆ 132   ┆ 2    ┆ 2.17    ┆ null                            │
│ Stockfish L10  ┆ 132   ┆ 52   ┆ 0.26    ┆ null                            │
│ Stockfish L15  ┆ 132   ┆ 59   ┆ -0.01   ┆ null                            │
└────────────────┴───────┴──────┴─────────┴─────────────────────────────────┘

A failed command raises an :class:`evallab.errors.EvallabError` subclass
named after its exit code's kind, with the binary's error message.
"""

from __future__ import annotations

import functools
import json
import os
import queue
import re
import warnings
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Callable, Protocol, TypeVar, Union

from evallab.errors import CLAP_PREFIX, ERROR_PREFIX, error_for
from evallab.manifest import engine_runs, files
from evallab.manifest import tables as manifest_tables
from evallab.manifest import manifest as _manifest

if TYPE_CHECKING:
    # Imported where used: `import evallab` (and `evallab-dask`) stays quick.
    import polars as pl

PathLike = Union[str, "os.PathLike[str]"]
Scalar = Union[str, int, float, bool, "os.PathLike[str]"]
#: An option's value: a scalar, a list (the option repeated), or None (left out).
Option = Union[Scalar, Sequence[Scalar], None]

# The output options the API sets itself.
_RESERVED = {"format", "output", "explain", "stats"}

#: Renamed keywords, per command: old → (new, whether a percentage became a
#: fraction). The binary's renames (`evallab __commands`, "renamed"); a test
#: keeps the two equal. The old keyword still works for one release, with a
#: DeprecationWarning.
_RENAMED: dict[str, dict[str, tuple[str, bool]]] = {
    "analyze": {"engine": ("uci", False), "engine_option": ("uci_option", False)},
    "policy": {"engine": ("uci", False), "engine_option": ("uci_option", False)},
    "match": {"engine": ("uci", False), "engine_option": ("uci_option", False), "out_dir": ("output", False)},
    "ratings": {"simulations": ("bootstrap", False), "confidence": ("level", True)},
    "difficulty": {"resamples": ("bootstrap", False)},
    "relevance": {"x05_from": ("x05", False)},
    "report": {"games": ("trajectories", False), "x05_from": ("x05", False)},
    "annotate": {"x05_from": ("x05", False)},
}

_F = TypeVar("_F", bound=Callable[..., Any])


def _renamed(command: str) -> Callable[[_F], _F]:
    """Reads the ``command``'s old keywords as the new ones, with a warning."""

    def wrap(method: _F) -> _F:
        @functools.wraps(method)
        def call(*args: Any, **kwargs: Any) -> Any:
            for old, (new, percent) in _RENAMED[command].items():
                if old in kwargs:
                    value = kwargs.pop(old)
                    if percent and value is not None:
                        value = value / 100
                    warnings.warn(f"{command}({old}=) is deprecated: use {new}=", DeprecationWarning, stacklevel=2)
                    kwargs.setdefault(new, value)
            return method(*args, **kwargs)

        return call  # type: ignore[return-value]

    return wrap


def binary() -> str:
    """The ``evallab`` binary the API runs: ``$EVALLAB_BIN``, else the one the
    wheel installed beside this Python (the environment's scripts folder), else
    the first on PATH."""
    env = os.environ.get("EVALLAB_BIN")
    if env:
        return env
    exe = "evallab.exe" if os.name == "nt" else "evallab"
    for scheme in (None, f"{os.name}_user"):
        scripts = sysconfig.get_path("scripts") if scheme is None else sysconfig.get_path("scripts", scheme)
        if scripts and (Path(scripts) / exe).is_file():
            return str(Path(scripts) / exe)
    found = shutil.which("evallab")
    if found is None:
        raise FileNotFoundError("no evallab binary: install the evallab wheel (pip install .) or set EVALLAB_BIN")
    return found


def argv(options: Mapping[str, Option], reserved: frozenset[str] | set[str] = _RESERVED) -> list[str]:
    """Command-line options from keyword arguments.

    A valued option is one word, ``--flag=value``, so that a value starting with
    ``-`` (``white=-10``) is read as the value, never as another option:

    >>> argv({"by": "engine", "family": ["^Stockfish=Stockfish", "^Lc0=Lc0"], "moves_out": None, "per_game": True})
    ['--by=engine', '--family=^Stockfish=Stockfish', '--family=^Lc0=Lc0', '--per-game']
    >>> argv({"white": -10, "sprt": "-3,1"})
    ['--white=-10', '--sprt=-3,1']
    """
    out: list[str] = []
    for key, value in options.items():
        if key in reserved:
            raise TypeError(f"{key}=: the API sets the output options itself")
        flag = "--" + key.replace("_", "-")
        if value is None or value is False:
            continue
        if value is True:
            out.append(flag)
        elif isinstance(value, (str, int, float, os.PathLike)):
            out.append(f"{flag}={_text(value)}")
        else:
            out += [f"{flag}={_text(v)}" for v in value]
    return out


def _text(value: Scalar) -> str:
    return os.fspath(value) if isinstance(value, os.PathLike) else str(value)


class _Bar(Protocol):
    def update(self, done: int, total: int, unit: str, message: str) -> None: ...

    def close(self) -> None: ...


class _TqdmBar:
    """The progress of a job as a tqdm bar (tqdm.auto: a widget in Jupyter)."""

    def __init__(self, desc: str) -> None:
        from tqdm.auto import tqdm

        self._bar = tqdm(desc=desc, total=0, unit_scale=True)

    def update(self, done: int, total: int, unit: str, message: str) -> None:
        self._bar.unit = " " + unit
        self._bar.total = total
        self._bar.n = done
        self._bar.set_postfix_str(message, refresh=False)
        self._bar.refresh()

    def close(self) -> None:
        self._bar.close()


class _TextBar:
    """The progress of a job as one line rewritten on stderr (without tqdm)."""

    def __init__(self, desc: str, stream: IO[str]) -> None:
        self._desc = desc
        self._stream = stream
        self._drawn = False

    def update(self, done: int, total: int, unit: str, message: str) -> None:
        pct = 100.0 * done / total if total else 0.0
        self._stream.write(f"\r{self._desc}: {pct:5.1f}% ({done}/{total} {unit}) {message}")
        self._stream.flush()
        self._drawn = True

    def close(self) -> None:
        if self._drawn:
            self._stream.write("\n")
            self._stream.flush()


def _bar(desc: str) -> _Bar:
    try:
        return _TqdmBar(desc)
    except ImportError:
        return _TextBar(desc, sys.stderr)


def run(args: Sequence[str], *, progress: str | None = None, live: bool = False, keywords: bool = False) -> str:
    """Runs ``evallab ARGS`` and returns its stdout, or raises the
    :class:`~evallab.errors.EvallabError` of its exit code, whose message is
    the binary's error (with ``keywords``, each option it names followed by
    its Python keyword: the API's methods).

    The binary's other stderr lines go to ``sys.stderr`` (where a notebook
    shows them): as they come when ``live`` (the long jobs), else once the
    command has succeeded (a failure's lines are the exception's). Its progress
    lines (``EVALLAB_PROGRESS=json``) draw a bar titled ``progress`` (tqdm if
    installed, else a text line); without ``progress`` they are dropped.

    An interrupt (Jupyter's, Ctrl-C: ``KeyboardInterrupt``) or any other
    exception while the binary runs stops it (SIGTERM, then SIGKILL after
    ``STOP_GRACE`` seconds) before it propagates: the binary never runs on,
    holding the dataset's lock and its engines.
    """
    stdout, unshown = _run(args, progress=progress, live=live, keywords=keywords)
    sys.stderr.write(unshown)
    return stdout


def _run(args: Sequence[str], *, progress: str | None, live: bool, keywords: bool) -> tuple[str, str]:
    """``run`` less its last step: returns the stdout and the stderr lines not
    shown yet (all of them unless ``live``), for the caller to show."""
    command = [binary(), *args]
    env = {**os.environ, "EVALLAB_PROGRESS": "json"}
    with tempfile.TemporaryFile("w+") as out:
        # `with` on the process closes its stderr pipe (else a ResourceWarning).
        with subprocess.Popen(command, stdout=out, stderr=subprocess.PIPE, text=True, env=env) as proc:
            assert proc.stderr is not None
            lines = _Lines(proc.stderr)
            try:
                kept, unshown = _relay(lines, progress, live)
                code = proc.wait()
            except BaseException:
                # Popen's exit only waits (a quarter second on an interrupt),
                # it never stops the process.
                _stop(proc)
                if not lines.finish(STOP_GRACE):
                    # Something the binary started still holds the pipe:
                    # closing it now would wait for the reader; it closes it.
                    proc.stderr = None
                raise
        out.seek(0)
        stdout = out.read()
    if code != 0:
        raise error_for(code, command, kept, keywords=keywords)
    return stdout, unshown


#: Seconds an interrupted binary has to exit on SIGTERM before it is killed.
STOP_GRACE = 5.0


def _stop(proc: subprocess.Popen[str]) -> None:
    """Stops the binary: SIGTERM, then SIGKILL if it has not exited within
    ``STOP_GRACE`` seconds (or if a second interrupt comes meanwhile)."""
    try:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=STOP_GRACE)
            except subprocess.TimeoutExpired:
                pass
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


class _Lines:
    """The lines of the binary's stderr, read by a thread and waited for with
    a timeout, so that an interrupt is raised at once even while the binary
    prints nothing. (A blocking read in the main thread takes a SIGINT only
    at the binary's next line once polars is imported: its SIGINT handler
    makes the read resume after the signal.) The reader closes the stream
    at its end."""

    def __init__(self, stream: IO[str]) -> None:
        self._queue: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._read, args=(stream,), name="evallab-stderr", daemon=True)
        self._thread.start()

    def _read(self, stream: IO[str]) -> None:
        try:
            for line in stream:
                self._queue.put(line)
        except (OSError, ValueError):
            pass
        finally:
            try:
                stream.close()
            finally:
                self._queue.put(None)

    def __iter__(self) -> Iterator[str]:
        while True:
            try:
                line = self._queue.get(timeout=0.1)
            except queue.Empty:
                continue
            if line is None:
                return
            yield line

    def finish(self, timeout: float) -> bool:
        """Whether the reader reached the end of the stream within ``timeout``."""
        self._thread.join(timeout)
        return not self._thread.is_alive()


def _relay(stderr: Iterable[str], progress: str | None, live: bool) -> tuple[str, str]:
    """Draws the binary's progress and returns its other stderr lines, and
    those of them it has not shown: when ``live`` it shows them as they come,
    but for an error's, which are the exception's message (not shown twice).
    """
    kept: list[str] = []
    unshown: list[str] = []
    bar: _Bar | None = None
    usage = False
    try:
        for line in stderr:
            if line.startswith('{"progress":'):
                if progress is not None:
                    p = json.loads(line)["progress"]
                    bar = bar or _bar(progress)
                    bar.update(p["done"], p["total"], p["unit"], p["message"])
                continue
            kept.append(line)
            if bar is not None:
                # What follows goes below the finished bar.
                bar.close()
                bar = None
            # A usage error of clap is its last lines (its usage text follows).
            usage = usage or line.startswith(CLAP_PREFIX)
            if live and not usage and not line.startswith(ERROR_PREFIX):
                sys.stderr.write(line)
            elif not line.startswith(ERROR_PREFIX):
                unshown.append(line)
    finally:
        if bar is not None:
            bar.close()
    return "".join(kept), "".join(unshown)


@contextmanager
def _scratch() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="evallab-") as tmp:
        yield Path(tmp)


def _frames(folder: Path, main: str) -> dict[str, pl.DataFrame]:
    """The main output ``out.parquet`` and the tables written beside it
    (``out.SUFFIX.parquet``), read into memory."""
    import polars as pl

    frames = {main: pl.read_parquet(folder / "out.parquet")}
    for f in sorted(folder.glob("out.*.parquet")):
        frames[f.name[len("out.") : -len(".parquet")]] = pl.read_parquet(f)
    return frames


def _as_frames(text: str, folder: Path, command: str, frames: Mapping[str, object]) -> str:
    """The binary's lines with the output files they name in ``folder`` (a
    temporary folder, gone when the call returns) named as the frames
    ``statistic_tables`` returns.

    >>> _as_frames("details in /t/out.*.parquet; main: /t/out.parquet", Path("/t"), "adjudicate",
    ...            dict(adjudicate=1, causes=2, eras=3))
    'details in the frames "causes", "eras" of ds.statistic_tables("adjudicate", ...); main: the returned frame'
    >>> _as_frames("eras in /t/out.eras.parquet", Path("/t"), "adjudicate", {})
    'eras in ds.statistic_tables("adjudicate", ...)["eras"]'
    """
    call = f'ds.statistic_tables("{command}", ...)'

    def name(m: re.Match[str]) -> str:
        suffix = m.group(1)
        if suffix is None:
            return "the returned frame"
        if suffix == "*":
            return "the frames " + ", ".join(f'"{n}"' for n in frames if n != command) + f" of {call}"
        return f'{call}["{suffix}"]'

    return re.sub(re.escape(str(folder)) + r"[/\\]out(?:\.([^\s/\\]+?))?\.parquet", name, text)


class Dataset:
    """An evallab dataset folder (written by ``evallab ingest``).

    >>> ds = Dataset("demo-dataset")                 # doctest: +SKIP
    >>> ds.tables                                    # doctest: +SKIP
    ['games', 'moves', 'rejects', 'analysis', 'analysis_failures', 'match']
    >>> ds.labels                                    # doctest: +SKIP
    ['sf-1k', 'sf-match']
    >>> ds.scan("games").select(pl.len()).collect().item()  # doctest: +SKIP
    264
    """

    def __init__(self, path: PathLike) -> None:
        """Opens the dataset folder ``path`` (written by ``evallab ingest`` or
        :func:`evallab.ingest`); nothing is read but its ``manifest.json``.

        Raises :class:`~evallab.errors.NotADatasetError` (a ``DatasetError``,
        also a ``FileNotFoundError``) when ``path`` is no dataset: missing, or
        without ``manifest.json``.
        """
        self.path = Path(path)
        # Fails early, naming the folder, when it is no dataset.
        _manifest(self.path)

    def __repr__(self) -> str:
        return f"Dataset({str(self.path)!r})"

    @property
    def manifest(self) -> dict[str, Any]:
        """The dataset's ``manifest.json`` (read afresh: jobs add to it)."""
        m: dict[str, Any] = _manifest(self.path)
        return m

    @property
    def runs(self) -> list[dict[str, Any]]:
        """The ingest runs: their inputs (path, size, sha256, counts) and files."""
        runs: list[dict[str, Any]] = self.manifest["runs"]
        return runs

    @property
    def engine_runs(self) -> list[dict[str, Any]]:
        """The engine runs (``analyze``, ``policy``, ``match``), each with its
        label, settings and committed chunks."""
        return list(engine_runs(self.manifest))

    @property
    def labels(self) -> list[str]:
        """The engine runs' labels (``analysis=``, ``policy=`` of the statistics)."""
        return [r["label"] for r in self.engine_runs]

    @property
    def tables(self) -> list[str]:
        """The tables with committed files, in the order they first appear."""
        return manifest_tables(self.manifest)

    def parts(self, table: str) -> list[str]:
        """The committed Parquet files of ``table`` (the manifest's, never a glob)."""
        return [str(self.path / f) for f in files(self.manifest, table)]

    def scan(self, table: str) -> pl.LazyFrame:
        """A LazyFrame over the committed files of ``table``.

        >>> ds.scan("moves").filter(pl.col("ply") == 1).collect().height  # doctest: +SKIP
        264
        """
        parts = self.parts(table)
        if not parts:
            raise KeyError(f"{self.path}: no committed files of table {table!r} (tables: {', '.join(self.tables)})")
        import polars as pl

        return pl.scan_parquet(parts)

    def inspect(self, *, verify: bool = False) -> dict[str, pl.DataFrame]:
        """What the dataset holds, as ``evallab inspect`` shows it, a frame per
        section: ``events`` (games, plies, evals and rejects per event),
        ``tables`` (rows per table), ``dialects``, ``variants``, ``rejects``
        (each rejected game with its reason), ``repeated`` (the games held
        more than once, with where each copy was read), ``inputs`` (each
        ingested file: path, sha256, counts) and ``analyses``.

        With ``verify=True``, every part is hashed again and compared with
        the manifest's record of its commit: ``{"parts": frame}``, one row per
        part; a part that differs raises :class:`~evallab.errors.DatasetError`
        naming it.

        >>> ds.inspect()["repeated"].height          # doctest: +SKIP
        0
        >>> ds.inspect(verify=True)["parts"]["status"].unique().to_list()  # doctest: +SKIP
        ['as committed']
        """
        frames = self.statistic_tables("inspect", verify=verify)
        main = frames.pop("inspect")
        return {"parts": main} if verify else {"events": main, **frames}

    def remove(self, inputs: PathLike | Sequence[PathLike], *, dry_run: bool = False, quiet: bool = False) -> Dataset:
        """Takes ingested inputs out of the dataset, their games, moves and
        rejects: ``evallab remove``. An input is named by its path as
        ingested (or one resolving to it; a folder: the inputs under it) or
        by a sha256 prefix of 8 hex digits or more (``inspect()["inputs"]``
        lists them). All or nothing; with ``dry_run=True`` nothing changes.
        Returns the dataset.

        >>> ds.remove("archive/TCEC_Season_1.pgn")     # doctest: +SKIP
        removing archive/TCEC_Season_1.pgn (sha256 1f0c…): 48 games, 0 rejects, 6012 plies
        removed 1 input from demo-dataset: 48 games, 6012 moves, 0 rejects (parts 1 → 3)
        Dataset('demo-dataset')
        """
        names = [inputs] if isinstance(inputs, (str, os.PathLike)) else list(inputs)
        run(
            ["remove", str(self.path), *(os.fspath(n) for n in names), *argv(dict(dry_run=dry_run, quiet=quiet))],
            keywords=True,
        )  # fmt: skip
        return self

    # -- statistics: one method per command, each a call of `statistic`.

    def statistic_tables(self, command: str, **options: Option) -> dict[str, pl.DataFrame]:
        """Runs the statistic ``command`` and returns its frames: the main one
        under ``command``, the tables it writes beside it under their suffix
        (``ratings``: ``summary``; ``adjudicate(check_clocks=True)``: ``eras``, …).

        >>> ds.statistic_tables("ratings").keys()    # doctest: +SKIP
        dict_keys(['ratings', 'summary'])
        """
        with _scratch() as tmp:
            _, shown = _run(
                [command, str(self.path), *argv(options), "--format", "parquet", "-o", str(tmp / "out.parquet")],
                progress=command, live=False, keywords=True,
            )
            frames = _frames(tmp, command)
        sys.stderr.write(_as_frames(shown, tmp, command, frames))
        return frames

    def statistic(self, command: str, **options: Option) -> pl.DataFrame:
        """The main frame of the statistic ``command`` (any command with
        ``--format``; the options are its own, as keywords): what its method
        returns, and the way to a command that has no method yet.

        >>> ds.statistic("standings", by="engine").select("engine", "points").row(0)  # doctest: +SKIP
        ('Stockfish Full', 125.0)
        """
        return self.statistic_tables(command, **options)[command]

    def balance(
        self,
        *,
        by: str | None = None,
        engine: str | None = None,
        event: str | None = None,
        family: Sequence[str] = (),
        facts: PathLike | None = None,
    ) -> pl.DataFrame:
        """Win-draw balance x_0_5 per engine (and event): ``evallab balance``.

        ``by``: ``engine``, ``event,engine`` (default) or ``season,engine``.

        >>> ds.balance(by="engine").select("engine", "wins", "balance").row(2)  # doctest: +SKIP
        ('Stockfish L10', 52, 0.26)
        """
        return self.statistic("balance", by=by, engine=engine, event=event, family=family, facts=facts)

    def calibrate(
        self,
        *,
        by: str | None = None,
        engine: str | None = None,
        event: str | None = None,
        family: Sequence[str] = (),
        bootstrap: int | None = None,
        seed: int | None = None,
        level: float | None = None,
        toml: PathLike | None = None,
        plot: PathLike | None = None,
        facts: PathLike | None = None,
    ) -> pl.DataFrame:
        """x_0_5 estimated three ways per engine, with intervals: ``evallab calibrate``
        (``level``: the pooled intervals' level, a fraction: 0.95).

        >>> ds.calibrate(bootstrap=200, seed=1).columns[:3]  # doctest: +SKIP
        ['engine', 'games', 'positions']
        """
        return self.statistic(
            "calibrate", by=by, engine=engine, event=event, family=family, bootstrap=bootstrap,
            seed=seed, level=level, toml=toml, plot=plot, facts=facts,
        )  # fmt: skip

    def wdl(
        self,
        *,
        by: str | None = None,
        engine: str | None = None,
        event: str | None = None,
        family: Sequence[str] = (),
        fitting: str | None = None,
        solver: str | None = None,
        mom_target: int | None = None,
        material_min: int | None = None,
        material_max: int | None = None,
        move_min: int | None = None,
        move_max: int | None = None,
        eval_max: int | None = None,
        win_min: int | None = None,
        bin_width: int | None = None,
        min_positions: int | None = None,
        prior_positions: int | None = None,
        bootstrap: int | None = None,
        seed: int | None = None,
        level: float | None = None,
        counts_json: PathLike | None = None,
        save_model: PathLike | None = None,
        plot: PathLike | None = None,
        validate: bool = False,
        train: str | None = None,
        test: str | None = None,
        split: str | None = None,
        min_engine_positions: int | None = None,
    ) -> pl.DataFrame:
        """Stockfish's WDL model fitted per group: ``evallab wdl``. One row per
        group with the coefficients ``as0..as3``, ``bs0..bs3`` (WDL_model's
        order), a and b at ``mom_target`` and x05 = a/100 in pawns
        (``level``: the bootstrap intervals' level, a fraction: 0.95). With
        ``by``, each group's fit counts the pooled selection as
        ``prior_positions`` positions beside its own (0: each group alone).

        ``validate=True`` (with ``train`` and ``test`` event regexes, or
        ``train`` and ``split="games"``: half the games of those events each)
        returns the out-of-sample validation table instead; its reliability table is
        ``ds.statistic_tables("wdl", validate=True, ...)["reliability"]``.

        >>> ds.wdl(by="engine", bootstrap=100).select("engine", "a_target", "a_lo", "a_hi")  # doctest: +SKIP
        """
        return self.statistic(
            "wdl", by=by, engine=engine, event=event, family=family, fitting=fitting, solver=solver,
            mom_target=mom_target,
            material_min=material_min, material_max=material_max, move_min=move_min, move_max=move_max,
            eval_max=eval_max, win_min=win_min, bin_width=bin_width, min_positions=min_positions,
            prior_positions=prior_positions, bootstrap=bootstrap, seed=seed, level=level, counts_json=counts_json, save_model=save_model, plot=plot,
            validate=validate,
            train=train, test=test, split=split, min_engine_positions=min_engine_positions,
        )  # fmt: skip

    @_renamed("relevance")
    def relevance(
        self,
        *,
        x05: float | PathLike | None = None,
        by: str | None = None,
        engine: str | None = None,
        event: str | None = None,
        family: Sequence[str] = (),
        analysis: str | None = None,
        moves_out: PathLike | None = None,
    ) -> pl.DataFrame:
        """Relevance-weighted move quality per engine: ``evallab relevance``
        (also writes the per-move table, to ``moves_out`` or the dataset's
        ``derived/``)."""
        return self.statistic(
            "relevance", x05=x05, by=by, engine=engine, event=event,
            family=family, analysis=analysis, moves_out=moves_out,
        )  # fmt: skip

    def eas(
        self,
        *,
        rules: str | None = None,
        hard_avg: int | None = None,
        by: str | None = None,
        engine: str | None = None,
        event: str | None = None,
        family: Sequence[str] = (),
        games: str | None = None,
        pgn: PathLike | None = None,
        relabel: bool = False,
        facts: PathLike | None = None,
    ) -> pl.DataFrame:
        """The EAS score and its components per engine: ``evallab eas``
        (``by="event,engine"``: each event its own population; ``games=``
        lists the games behind a number instead)."""
        return self.statistic(
            "eas", rules=rules, hard_avg=hard_avg, by=by, engine=engine, event=event,
            family=family, games=games, pgn=pgn, relabel=relabel, facts=facts,
        )  # fmt: skip

    def ease(
        self,
        *,
        analysis: str,
        policy: str | None = None,
        policy_file: PathLike | None = None,
        top: int | None = None,
        form: str | None = None,
        cut: float | None = None,
        positions: bool = False,
        per_game: bool = False,
        bands: Sequence[float] = (),
        by: str | None = None,
        engine: str | None = None,
        event: str | None = None,
        family: Sequence[str] = (),
        rating_model: PathLike | None = None,
    ) -> pl.DataFrame:
        """How easy each position was to play, per engine: ``evallab ease``
        (needs an analysis and a policy run, or ``policy_file``; with
        ``positions=True``, ``rating_model=`` adds each position's expected
        Lichess puzzle rating)."""
        return self.statistic(
            "ease", analysis=analysis, policy=policy, policy_file=policy_file, top=top, form=form,
            cut=cut, positions=positions, per_game=per_game, bands=bands, by=by, engine=engine,
            event=event, family=family, rating_model=rating_model,
        )  # fmt: skip

    @_renamed("difficulty")
    def difficulty(
        self,
        *,
        analysis: str,
        policy: str,
        top: int | None = None,
        puzzles: bool = False,
        models: bool = False,
        themes: bool = False,
        save_model: PathLike | None = None,
        predict: PathLike | None = None,
        breakdown: str | None = None,
        bootstrap: int | None = None,
        seed: int | None = None,
        min_theme: int | None = None,
        folds: int | None = None,
        inner_folds: int | None = None,
    ) -> pl.DataFrame:
        """Puzzle difficulty from the whole solution line: ``evallab
        difficulty`` (a dataset of ingested puzzles with an analysis and a
        policy run of their positions). By default each line feature's
        Spearman and Kendall correlation with the rating, with bootstrap
        intervals, overall and per theme; ``puzzles=True`` the features per
        puzzle; ``models=True`` the model families' nested cross-validation
        (``save_model=`` writes the chosen one for ``predict=`` and
        ``ease(rating_model=...)``); ``predict=MODEL`` a saved model's
        expected ratings; ``breakdown="band"`` or ``"theme"`` those
        predictions against the ratings per group."""
        return self.statistic(
            "difficulty", analysis=analysis, policy=policy, top=top, puzzles=puzzles, models=models,
            themes=themes, save_model=save_model, predict=predict, breakdown=breakdown,
            bootstrap=bootstrap, seed=seed, min_theme=min_theme, folds=folds,
            inner_folds=inner_folds,
        )  # fmt: skip

    def agreement(
        self,
        *,
        analysis: str | None = None,
        by: str | None = None,
        engine: str | None = None,
        event: str | None = None,
        family: Sequence[str] = (),
        moves_out: PathLike | None = None,
    ) -> pl.DataFrame:
        """How often each engine played the reference engine's move:
        ``evallab agreement`` (needs an analysis run)."""
        return self.statistic(
            "agreement", analysis=analysis, by=by, engine=engine, event=event, family=family,
            moves_out=moves_out,
        )  # fmt: skip

    def adjudicate(
        self,
        *,
        rules: str,
        set: Sequence[str] = (),
        by: str | None = None,
        engine: str | None = None,
        event: str | None = None,
        family: Sequence[str] = (),
        games: str | None = None,
        pgn: PathLike | None = None,
        sweep: Sequence[str] = (),
        plot: PathLike | None = None,
        check_clocks: bool = False,
        syzygy: PathLike | None = None,
    ) -> pl.DataFrame:
        """Replays adjudication rules on the games: ``evallab adjudicate``
        (``set=["draw.score=20"]`` overrides a rule key; ``sweep=`` a grid)."""
        return self.statistic(
            "adjudicate", rules=rules, set=set, by=by, engine=engine, event=event, family=family,
            games=games, pgn=pgn, sweep=sweep, plot=plot, check_clocks=check_clocks, syzygy=syzygy,
        )  # fmt: skip

    @_renamed("ratings")
    def ratings(
        self,
        *,
        engine: str | None = None,
        event: str | None = None,
        family: Sequence[str] = (),
        average: float | None = None,
        anchor: str | None = None,
        white: str | float | None = None,
        draw_rate: str | float | None = None,
        scale: float | None = None,
        bootstrap: int | None = None,
        seed: int | None = None,
        redraws: int | None = None,
        level: float | None = None,
        los_matrix: PathLike | None = None,
        groups: bool = False,
        each_group: bool = False,
        solver: str | None = None,
    ) -> pl.DataFrame:
        """Ordo ratings with errors: ``evallab ratings`` (its summary:
        ``ds.statistic_tables("ratings")["summary"]``).

        Units, as the command's: ``average``, ``scale`` and ``white`` in Elo
        (``white="auto"``, the default, fits White's advantage);
        ``draw_rate`` in **percent** (``draw_rate=35`` is 35 %; ``"auto"``
        fits it), but ``level`` a **fraction** (``level=0.9`` for 90 %
        intervals; the deprecated ``confidence=`` was a percentage).

        >>> ds.ratings().select("engine", "rating").row(0)  # doctest: +SKIP
        ('Stockfish Full', 2783.4875308983937)
        """
        return self.statistic(
            "ratings", engine=engine, event=event, family=family, average=average, anchor=anchor,
            white=white, draw_rate=draw_rate, scale=scale, bootstrap=bootstrap, seed=seed,
            redraws=redraws, level=level, los_matrix=los_matrix, groups=groups,
            each_group=each_group, solver=solver,
        )  # fmt: skip

    def standings(
        self,
        *,
        by: str | None = None,
        terminations: bool = False,
        engine: str | None = None,
        event: str | None = None,
        family: Sequence[str] = (),
    ) -> pl.DataFrame:
        """Points, wins, draws and losses per engine: ``evallab standings``."""
        return self.statistic(
            "standings", by=by, terminations=terminations, engine=engine, event=event, family=family
        )

    def crosstable(
        self,
        *,
        by: str | None = None,
        wide: bool = False,
        engine: str | None = None,
        event: str | None = None,
        family: Sequence[str] = (),
    ) -> pl.DataFrame:
        """Each pairing's score: ``evallab crosstable``."""
        return self.statistic("crosstable", by=by, wide=wide, engine=engine, event=event, family=family)

    def pairs(
        self,
        *,
        by: str | None = None,
        engine: str | None = None,
        event: str | None = None,
        family: Sequence[str] = (),
        sprt: str | None = None,
        sprt_model: str | None = None,
        openings: bool = False,
        unpaired: bool = False,
        book: PathLike | None = None,
        book_plies: int | None = None,
    ) -> pl.DataFrame:
        """Game pairs (an opening played with both colours): ``evallab pairs``.
        ``book``: the PGN book a runner's minimal PGN (no ``{book}`` marks)
        was played from; ``book_plies``: its lines cut as the runner's
        ``-openings plies=N`` cut them."""
        return self.statistic(
            "pairs", by=by, engine=engine, event=event, family=family, sprt=sprt,
            sprt_model=sprt_model, openings=openings, unpaired=unpaired, book=book,
            book_plies=book_plies,
        )  # fmt: skip

    def opening_stats(
        self,
        *,
        by: str | None = None,
        source: str | None = None,
        engine: str | None = None,
        event: str | None = None,
        family: Sequence[str] = (),
        book: PathLike | None = None,
        book_plies: int | None = None,
    ) -> pl.DataFrame:
        """Results per opening: ``evallab opening-stats`` (``book`` and
        ``book_plies`` as in :meth:`pairs`)."""
        return self.statistic(
            "opening-stats", by=by, source=source, engine=engine, event=event, family=family,
            book=book, book_plies=book_plies,
        )  # fmt: skip

    def openings(self, *, table: PathLike | None = None) -> pl.DataFrame:
        """Each game's opening by position (the table README's rule: the last
        named position the game reaches; a Chess960 game by its start
        position), stored as the derived table ``openings`` and returned:
        ``evallab openings``. ``table``: a folder of the Lichess
        chess-openings TSVs (default ``../shared/openings``)."""
        import polars as pl

        with _scratch() as tmp:
            run(["openings", str(self.path), *argv(dict(table=table)), "-o", str(tmp / "counts.csv")],
                progress="openings", keywords=True)  # fmt: skip
        return pl.read_parquet(self.path / "derived" / "openings.parquet")

    def engine_stats(
        self,
        *,
        by: str | None = None,
        engine: str | None = None,
        event: str | None = None,
        family: Sequence[str] = (),
        phase: bool = False,
        bands: int | None = None,
        time_usage: bool = False,
    ) -> pl.DataFrame:
        """Search statistics (depth, speed, time) per engine: ``evallab engine-stats``."""
        return self.statistic(
            "engine-stats", by=by, engine=engine, event=event, family=family, phase=phase,
            bands=bands, time_usage=time_usage,
        )  # fmt: skip

    # -- engine jobs: they add a run to the dataset, with a progress bar.

    @_renamed("analyze")
    def analyze(
        self,
        *,
        uci: PathLike,
        uci_option: Sequence[str] = (),
        jobs: int | None = None,
        threads: int | None = None,
        commit_every: float | None = None,
        quiet: bool = False,
        hash: int | None = None,
        depth: int | None = None,
        nodes: int | None = None,
        movetime: int | None = None,
        multipv: int | None = None,
        all_depths: bool = False,
        event: str | None = None,
        player: str | None = None,
        plies: str | None = None,
        skip_book: bool = False,
        max_games: int | None = None,
        slice: str | None = None,
        shard: str | None = None,
        label: str | None = None,
        reuse: bool = False,
        timeout: float | None = None,
    ) -> None:
        """Re-analyses the positions with a UCI engine: ``evallab analyze``
        (one of ``depth``, ``nodes``, ``movetime``).

        >>> ds.analyze(uci="/usr/games/stockfish", depth=6, max_games=10, label="sf")  # doctest: +SKIP
        analyze: 100.0% (1028/1028 positions) 10/10 games, 0 failures, 0 restarts
        analysed 10 games (0 already done), 1028 positions, 1028 lines, 0 failures, 0 restarts in 2.1s (...) with Stockfish 15.1 as `sf`
        """
        run(
            ["analyze", str(self.path), *argv(dict(
                uci=uci, uci_option=uci_option, jobs=jobs, threads=threads,
                commit_every=commit_every, quiet=quiet, hash=hash, depth=depth, nodes=nodes,
                movetime=movetime, multipv=multipv, all_depths=all_depths, event=event,
                player=player, plies=plies, skip_book=skip_book, max_games=max_games, slice=slice,
                shard=shard, label=label, reuse=reuse, timeout=timeout,
            ))],
            progress="analyze", live=True, keywords=True,
        )  # fmt: skip

    @_renamed("policy")
    def policy(
        self,
        *,
        uci: PathLike,
        weights: PathLike,
        uci_option: Sequence[str] = (),
        jobs: int | None = None,
        threads: int | None = None,
        commit_every: float | None = None,
        quiet: bool = False,
        nodes: int | None = None,
        event: str | None = None,
        player: str | None = None,
        plies: str | None = None,
        skip_book: bool = False,
        max_games: int | None = None,
        slice: str | None = None,
        shard: str | None = None,
        label: str | None = None,
        timeout: float | None = None,
    ) -> None:
        """The policy priors of a network engine (lc0) for each position:
        ``evallab policy``."""
        run(
            ["policy", str(self.path), *argv(dict(
                uci=uci, weights=weights, uci_option=uci_option, jobs=jobs,
                threads=threads, commit_every=commit_every, quiet=quiet, nodes=nodes, event=event,
                player=player, plies=plies, skip_book=skip_book, max_games=max_games, slice=slice,
                shard=shard, label=label, timeout=timeout,
            ))],
            progress="policy", live=True, keywords=True,
        )  # fmt: skip

    @_renamed("match")
    def match(
        self,
        *,
        uci: PathLike,
        player: str,
        uci_option: Sequence[str] = (),
        jobs: int | None = None,
        threads: int | None = None,
        commit_every: float | None = None,
        quiet: bool = False,
        hash: int | None = None,
        mlm_depth: int | None = None,
        slm_depths: str | None = None,
        final_depth: int | None = None,
        multipv: int | None = None,
        moves: str | None = None,
        skip_book: bool = False,
        event: str | None = None,
        max_games: int | None = None,
        slice: str | None = None,
        shard: str | None = None,
        label: str | None = None,
        timeout: float | None = None,
        output: PathLike | None = None,
        by: str | None = None,
        bootstrap: int | None = None,
        seed: int | None = None,
    ) -> pl.DataFrame:
        """Move matching (MM/SLM) of the players against an engine:
        ``evallab match``; returns its statistics frame."""
        with _scratch() as tmp:
            run(
                ["match", str(self.path), *argv(dict(
                    player=player, uci=uci, uci_option=uci_option, jobs=jobs,
                    threads=threads, commit_every=commit_every, quiet=quiet, hash=hash,
                    mlm_depth=mlm_depth, slm_depths=slm_depths, final_depth=final_depth,
                    multipv=multipv, moves=moves, skip_book=skip_book, event=event,
                    max_games=max_games, slice=slice, shard=shard, label=label, timeout=timeout,
                    output=output, by=by, bootstrap=bootstrap, seed=seed,
                ), reserved={"format", "stats"}), "--format", "parquet", "--stats", str(tmp / "out.parquet")],
                progress="match", live=True, keywords=True,
            )  # fmt: skip
            return _frames(tmp, "match")["match"]

    # -- output: files for people, each method returning the file it wrote.

    @_renamed("report")
    def report(
        self,
        *,
        output: PathLike,
        event: str | None = None,
        trajectories: int | None = None,
        x05: float | PathLike | None = None,
        family: Sequence[str] = (),
        rating_model: PathLike | None = None,
        solver: str | None = None,
        wdl_test: str | None = None,
        wdl_train: str | None = None,
        book: PathLike | None = None,
        book_plies: int | None = None,
    ) -> Path:
        """The HTML report, ``output``/index.html: ``evallab report``, with a
        progress bar (half a minute for the whole TCEC archive). In Jupyter,
        ``IPython.display.IFrame(str(path), width="100%", height=600)`` shows it.

        >>> ds.report(output="report", event="Superfinal")  # doctest: +SKIP
        PosixPath('report/index.html')
        """
        run(
            ["report", str(self.path), *argv(dict(
                output=output, event=event, trajectories=trajectories, x05=x05, family=family,
                rating_model=rating_model, solver=solver, wdl_test=wdl_test, wdl_train=wdl_train,
                book=book, book_plies=book_plies,
            ), reserved=_RESERVED - {"output"})],
            progress="report", keywords=True,
        )  # fmt: skip
        return Path(output) / "index.html"

    @_renamed("annotate")
    def annotate(
        self,
        *,
        output: PathLike,
        game: Sequence[int] = (),
        event: str | None = None,
        x05: float | PathLike | None = None,
        position_scheme: str | None = None,
        move_scheme: str | None = None,
        analysis: str | None = None,
    ) -> Path:
        """The games as PGN with computed NAGs and P(White) comments:
        ``evallab annotate``; returns ``output``.

        >>> ds.annotate(output="sufi.pgn", event="Superfinal", move_scheme="gen12")  # doctest: +SKIP
        PosixPath('sufi.pgn')
        """
        run(
            ["annotate", str(self.path), *argv(dict(
                output=output, game=game, event=event, x05=x05, position_scheme=position_scheme,
                move_scheme=move_scheme, analysis=analysis,
            ), reserved=_RESERVED - {"output"})],
            keywords=True,
        )  # fmt: skip
        return Path(output)


def ingest(
    inputs: PathLike | Sequence[PathLike],
    output: PathLike,
    *,
    shard: str | None = None,
    jobs: int | None = None,
    no_pv: bool = False,
    strict: bool = False,
    overwrite: bool = False,
    replace: bool = False,
    batch_mib: int | None = None,
    quiet: bool = False,
) -> Dataset:
    """Reads PGN files, folders or globs into the dataset ``output`` (created,
    or added to): ``evallab ingest``; returns the dataset.

    >>> ds = evallab.ingest("data/demo", "demo-dataset")  # doctest: +SKIP
    ingest: 100.0% (460793/460793 bytes) 2/2 files, 264 games, 0 rejects, 27090 plies
    ingested 2 files: 264 games, 0 rejects, 27090 plies, 0 unparsed comments in 0.11s (...) into demo-dataset
    """
    paths = [inputs] if isinstance(inputs, (str, os.PathLike)) else list(inputs)
    run(
        ["ingest", *(os.fspath(p) for p in paths), "-o", os.fspath(output), *argv(dict(
            shard=shard, jobs=jobs, no_pv=no_pv, strict=strict, overwrite=overwrite,
            replace=replace, batch_mib=batch_mib, quiet=quiet,
        ))],
        progress="ingest", live=True, keywords=True,
    )  # fmt: skip
    return Dataset(output)

