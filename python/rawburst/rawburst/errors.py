"""rawburst's exceptions: one per rawburst_status error code, each carrying the code as `.status`."""

from __future__ import annotations

from typing import Callable, Dict, Type


class Error(Exception):
    """Base of every rawburst error; `.status` is the C library's rawburst_status (negative)."""

    def __init__(self, message: str, status: int = -99) -> None:
        super().__init__(message)
        self.status = status


class ArgumentError(Error, ValueError):
    """A bad value: a wrong dtype or shape, levels out of range, an unknown CFA or name. Nothing was written."""


class ExistsError(Error, FileExistsError):
    """The output exists and `overwrite` was not set. Nothing was written."""


class ReadError(Error, OSError):
    """The input cannot be read: missing, unreadable, truncated, damaged or not a raw file."""


class WriteError(Error, OSError):
    """The output cannot be written: a missing folder, permissions, a full disk. Nothing is left under its name."""


class SourceError(Error):
    """The capture source failed: no such camera, a camera that went away, a stream that ended mid-frame."""


class ABIError(Error):
    """The library speaks another version of the C interface than these bindings."""


ARGUMENT = -1
EXISTS = -2
READ = -3
WRITE = -4
SOURCE = -5
ABI = -6

_BY_STATUS: Dict[int, Type[Error]] = {
    ARGUMENT: ArgumentError,
    EXISTS: ExistsError,
    READ: ReadError,
    WRITE: WriteError,
    SOURCE: SourceError,
    ABI: ABIError,
}


def error_for(status: int, message: str) -> Error:
    """The exception for a negative rawburst_status (Error itself for RAWBURST_E_INTERNAL and unknown codes)."""
    return _BY_STATUS.get(status, Error)(message or f"rawburst failed with status {status}", status=status)


def check(status: int, message: Callable[[], str]) -> int:
    """Returns a successful status (RAWBURST_OK, RAWBURST_END); raises the matching error for a negative one.

    `message` is called only on a failure, right away, so it reads the failing call's rawburst_last_error().
    """
    if status < 0:
        raise error_for(status, message())
    return status


def argument_error(message: str) -> ArgumentError:
    """An ArgumentError found in Python, before calling the library."""
    return ArgumentError(message, status=ARGUMENT)
