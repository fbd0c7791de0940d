"""The log of many searches (OUTPUT/batch.log, OUTPUT/multistart.log): Dask's warnings and errors and each failed
attempt's traceback go there, from this process and a local cluster's workers, instead of the terminal."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

DASK_ROOTS = ("distributed", "tornado", "bokeh")  # the loggers Dask's logging setup gives a stderr handler
log = logging.getLogger("mols.parallel")


def log_file(folder: Path, record: str) -> Path:
    """The log beside a record file: OUT/batch.log for OUT/batch.json."""
    return folder / Path(record).with_suffix(".log").name


class FolderLog(logging.FileHandler):
    """A log file opened, its folder made, at its first record: a run with nothing to say leaves no file. Warnings
    and errors only: Dask's INFO (workers starting and stopping) would fill it on every run."""

    def __init__(self, path: Path):
        super().__init__(path, delay=True, encoding="utf-8")
        self.setLevel(logging.WARNING)
        self.setFormatter(logging.Formatter("%(asctime)s %(process)d %(name)s %(levelname)s: %(message)s"))

    def _open(self):
        Path(self.baseFilename).parent.mkdir(parents=True, exist_ok=True)
        return super()._open()

    def handleError(self, record) -> None:
        """Nothing: a log that cannot be written (its folder a file, a full disk) must not print a traceback
        on the terminal; the results' own writes report such a folder."""


def _routed(handler: logging.Handler) -> list[tuple[logging.Logger, list[logging.Handler], bool]]:
    """mols.parallel's and Dask's loggers (each with handlers of its own and no propagation) all sent to
    `handler` alone; what they had before."""
    loggers = [log] + [logger for name, logger in logging.root.manager.loggerDict.copy().items()
                       if isinstance(logger, logging.Logger) and logger.handlers and name.split(".")[0] in DASK_ROOTS]
    before = [(logger, logger.handlers[:], logger.propagate) for logger in loggers]
    for logger in loggers:
        logger.handlers, logger.propagate = [handler], False
    return before


@contextmanager
def logged_to(path: Path) -> Iterator[None]:
    """This process's Dask messages and mols.parallel's into `path` for the block, as before after it."""
    handler = FolderLog(path)
    before = _routed(handler)
    try:
        yield
    finally:
        for logger, handlers, propagate in before:
            logger.handlers, logger.propagate = handlers, propagate
        handler.close()


def log_to(path: Path) -> None:
    """This process's Dask messages into `path` from now on (a local cluster's worker, for its life)."""
    _routed(FolderLog(path))
