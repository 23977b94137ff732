"""A failed ``evallab`` command as a Python exception.

The binary's exit code says the kind of error (docs/reference/exit-codes.md);
each kind has its class, all subclasses of :class:`EvallabError`, which
carries the code, the kind's name, the command line and the binary's error
message (its ``evallab: error: …`` line, or clap's usage text):

>>> from evallab.errors import error_for
>>> e = error_for(6, ["evallab", "balance", "nowhere"], "evallab: error: nowhere: not a dataset")
>>> type(e).__name__, e.exit_code, e.exit_kind, str(e)
('DatasetError', 6, 'dataset', 'nowhere: not a dataset')
"""

from __future__ import annotations

import errno
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


def error_for(code: int, command: Sequence[str], stderr: str) -> EvallabError:
    """The exception of a command that exited with ``code`` and wrote ``stderr``."""
    lines = stderr.splitlines()
    errors = [line[len(ERROR_PREFIX) :] for line in lines if line.startswith(ERROR_PREFIX)]
    if errors:
        message = "\n".join(errors)
    elif code < 0:
        message = f"evallab was killed by signal {-code}"
    else:
        message = stderr.strip() or f"evallab exited with code {code}"
    cls = _BY_CODE.get(code, EvallabError)
    return cls(message, command, stderr)
