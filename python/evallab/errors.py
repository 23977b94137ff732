"""A failed ``evallab`` command as a Python exception.

The binary's exit code says the kind of error (docs/reference/exit-codes.md);
each kind has its class, all subclasses of :class:`EvallabError`, which
carries the code, the kind's name, the command line and the binary's error
message (its ``evallab: error: …`` line, or clap's usage error without the
usage text):

>>> from evallab.errors import error_for
>>> e = error_for(6, ["evallab", "balance", "nowhere"], "evallab: error: nowhere: not a dataset")
>>> type(e).__name__, e.exit_code, e.exit_kind, str(e)
('DatasetError', 6, 'dataset', 'nowhere: not a dataset')
"""

from __future__ import annotations

import errno
import re
from collections.abc import Sequence


class EvallabError(Exception):
    """An ``evallab`` command failed (exit code 1: an error of no other kind)."""

    exit_code = 1
    exit_kind = "error"

    def __init__(self, message: str, command: Sequence[str] = (), stderr: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.command = list(command)
        self.stderr = stderr


class UsageError(EvallabError):
    """A bad option, value or combination (exit 2); nothing was written."""

    exit_code = 2
    exit_kind = "usage"


class RejectedGamesError(EvallabError):
    """``ingest(strict=True)`` rejected games (exit 3); everything was still written."""

    exit_code = 3
    exit_kind = "rejects"


class InputDataError(EvallabError):
    """An input, or a file named by an option, cannot be used (exit 4)."""

    exit_code = 4
    exit_kind = "input"


class FileError(EvallabError):
    """Reading or writing a named file failed (exit 5)."""

    exit_code = 5
    exit_kind = "io"


class DatasetError(EvallabError):
    """The dataset is missing, inconsistent, locked or unreadable (exit 6)."""

    exit_code = 6
    exit_kind = "dataset"


class NotADatasetError(DatasetError, FileNotFoundError):
    """The folder is no dataset (missing, or without ``manifest.json``),
    found by the package before any command runs (``Dataset(PATH)``,
    ``manifest(PATH)``). A :class:`DatasetError`, and a
    ``FileNotFoundError`` as it was before it was one."""

    def __init__(self, message: str, path: str) -> None:
        super().__init__(message)
        self.errno = errno.ENOENT
        #: The folder that is no dataset.
        self.path = path


class RenderError(EvallabError):
    """A plot or report could not be drawn (exit 7)."""

    exit_code = 7
    exit_kind = "render"


class EngineError(EvallabError):
    """A UCI engine could not be started or set up (exit 8)."""

    exit_code = 8
    exit_kind = "engine"


class TruncatedInputError(EvallabError):
    """``ingest``: an input ended early (exit 9); the dataset holds every game
    before the damage, and ``rejects`` names the cut one."""

    exit_code = 9
    exit_kind = "truncated"


_BY_CODE: dict[int, type[EvallabError]] = {
    c.exit_code: c
    for c in (
        EvallabError,
        UsageError,
        RejectedGamesError,
        InputDataError,
        FileError,
        DatasetError,
        RenderError,
        EngineError,
        TruncatedInputError,
    )
}

#: How the binary starts its error message on stderr.
ERROR_PREFIX = "evallab: error: "

#: How clap (the binary's option parser) starts a usage error.
CLAP_PREFIX = "error: "


def error_for(code: int, command: Sequence[str], stderr: str, *, keywords: bool = False) -> EvallabError:
    """The exception of a command that exited with ``code`` and wrote ``stderr``.

    Its message is the binary's error lines; of a usage error of clap, its
    ``error:`` line and the lines that explain it (values, ``tip:``,
    ``note:``), without the command's usage text. With ``keywords`` (the
    command line was written from a Python call), each option the message
    names is followed by its keyword (``--by`` → ``by=``).

    >>> clap = '''error: invalid value 'nope' for '--by <BY>'
    ...   [possible values: engine, event,engine, season,engine]
    ...
    ... Usage: evallab balance --format <FORMAT> --output <FILE> <DATASET>
    ...
    ... For more information, try '--help'.
    ... '''
    >>> print(error_for(2, ["evallab", "balance"], clap, keywords=True))
    invalid value 'nope' for '--by <BY>' (Python: by=)
      [possible values: engine, event,engine, season,engine]
    """
    lines = stderr.splitlines()
    errors = [line[len(ERROR_PREFIX) :] for line in lines if line.startswith(ERROR_PREFIX)]
    if errors:
        message = "\n".join(errors)
    elif code < 0:
        message = f"evallab was killed by signal {-code}"
    elif any(line.startswith(CLAP_PREFIX) for line in lines):
        message = clap_error(stderr)
    else:
        message = stderr.strip() or f"evallab exited with code {code}"
    if keywords:
        message = python_keywords(message)
    cls = _BY_CODE.get(code, EvallabError)
    return cls(message, command, stderr)


def clap_error(stderr: str) -> str:
    """A clap usage error without its usage text: the lines from its
    ``error:`` line on, less the ``Usage:`` block (to the next blank line) and
    the ``For more information, try '--help'.`` line, and less the ``error:``
    prefix (the exception says it is an error).

    >>> print(clap_error('''error: unexpected argument '--byy' found
    ...
    ...   tip: a similar argument exists: '--by'
    ...
    ... Usage: evallab balance --by <BY> <DATASET>
    ...
    ... For more information, try '--help'.
    ... '''))
    unexpected argument '--byy' found
    <BLANKLINE>
      tip: a similar argument exists: '--by'
    """
    lines = stderr.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(CLAP_PREFIX))
    kept: list[str] = []
    usage = False
    for line in lines[start:]:
        if line.startswith("Usage:"):
            usage = True
        elif usage and not line.strip():
            usage = False
        elif not usage and not line.startswith("For more information, try"):
            kept.append(line)
    kept[0] = kept[0][len(CLAP_PREFIX) :]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(kept).strip())


#: An option in a message: `--name`, not inside a word or a path.
_OPTION = re.compile(r"(?<![\w/.-])--([a-z][a-z0-9]*(?:-[a-z0-9]+)*)(?![\w/.])")
#: A command line quoted in a message: its options are not the call's.
_COMMAND_LINE = re.compile(r"`evallab [^`]*`")
#: Options without a keyword: the API sets them itself.
_NO_KEYWORD = {"help", "format", "explain", "stats"}


def python_keywords(message: str) -> str:
    """``message`` with each line that names options followed by their
    keywords, as a Python call writes them (not those of a quoted command
    line, `` `evallab ingest --overwrite` ``).

    >>> print(python_keywords("--event: `(` is no regex"))
    --event: `(` is no regex (Python: event=)
    >>> python_keywords("'--moves-out <FILE>' cannot be used with '--by' (nor --by=event)")
    "'--moves-out <FILE>' cannot be used with '--by' (nor --by=event) (Python: moves_out=, by=)"
    >>> python_keywords("`--groups` lists them; or run `evallab ingest --overwrite`")
    '`--groups` lists them; or run `evallab ingest --overwrite` (Python: groups=)'
    """
    out = []
    for line in message.split("\n"):
        options = _OPTION.findall(_COMMAND_LINE.sub("", line))
        names = dict.fromkeys(m.replace("-", "_") for m in options if m not in _NO_KEYWORD)
        out.append(f"{line} (Python: {', '.join(f'{n}=' for n in names)})" if names else line)
    return "\n".join(out)
