"""The package's one exception: a negative rvt_status with the library's words."""
from ._lib import lib, text


class RvtError(Exception):
    """An rvtrace library call failed: ``status`` is its rvt_status (< 0)."""

    def __init__(self, message, status=0):
        super().__init__(message)
        self.status = status


def check(status, what):
    """Raise RvtError for a negative status, else return it."""
    if status < 0:
        raise RvtError(f"{what}: {text(lib.rvt_status_str(status))}", status)
    return status
