"""Stopping a run cleanly on SIGINT, SIGTERM and SIGHUP: while setting up a signal interrupts at once, in the search
it stops at the next iteration, while writing it is only noted; the exit code is 128 + the first signal's number."""

from __future__ import annotations

import os
import signal
import threading
from typing import Self

SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))
PHASES = ("setup", "search", "write")


class Stop:
    """What a search reads of a stop: `signum`, the first signal (None: none yet), and what follows from it; the
    run's `phase` (PHASES)."""

    phase: str = "setup"
    signum: int | None = None

    @property
    def requested(self) -> bool:
        return self.signum is not None

    @property
    def name(self) -> str | None:
        return signal.Signals(self.signum).name if self.signum is not None else None

    @property
    def exit_code(self) -> int:
        return 128 + self.signum if self.signum is not None else 0


class StopSignals(Stop):
    """`ignore_after`: on exit, ignore these signals from then on instead of restoring the handlers, for a
    process that ends right after (the `mols` command): a late second signal must not kill it while it
    exits. (Python resets handlers to the default action as it finalizes, but leaves ignored signals
    ignored.)"""

    def __init__(self, phase: str = "setup", signals=SIGNALS, ignore_after: bool = False):
        self.phase, self.signals, self.ignore_after = phase, signals, ignore_after
        self.signum: int | None = None  # the first signal received
        self.undo: list = []  # what a signal in the setup phase of a whole process undoes before it leaves
        self._previous = {}

    def __enter__(self) -> Self:
        if threading.current_thread() is threading.main_thread():  # handlers can only be set there
            for signum in self.signals:
                self._previous[signum] = signal.signal(signum, self._handle)
        return self

    def __exit__(self, *exc) -> None:
        for signum, handler in self._previous.items():
            signal.signal(signum, signal.SIG_IGN if self.ignore_after else handler)
        self._previous = {}

    def _handle(self, signum: int, frame) -> None:
        first = self.signum is None
        if first:
            self.signum = signum
        if first and self.phase == "setup":
            if self.ignore_after:  # the whole process: leave at once, not by an exception that may land in C code
                for undo in reversed(self.undo):
                    undo()
                leave(signum, "interrupted by {} before the search started: nothing written")
            raise KeyboardInterrupt


def leave(signum: int, message: str = "mols: stopped by {}") -> None:
    """End the process now: one line on stderr, exit code 128 + signum."""
    os.write(2, (message.format(signal.Signals(signum).name) + "\n").encode())
    os._exit(128 + signum)


def exit_on_signals() -> None:
    """From a command's first line until a StopSignals takes over (and wherever none does): SIGINT, SIGTERM and
    SIGHUP end the process at once with one line and 128 + the signal's number, not a traceback. Nothing a run
    writes is open then: a run's own handlers (StopSignals) cover its folder from the moment it is taken."""

    for signum in SIGNALS:
        signal.signal(signum, lambda number, frame: leave(number))
