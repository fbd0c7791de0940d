"""The runner: it owns a search's loop, advancing it a step at a time (Search.steps: one iteration, or one device
batch), checking its budgets and the stop after each, and telling its monitors; docs/design.md says why steps are
generators."""

from __future__ import annotations

import traceback

from mols.errors import MolsError
from mols.search.budget import UNLIMITED, Budgets
from mols.search.monitor import hears
from mols.search.profiler import Profiler
from mols.search.trace import trace_of


class Runner:
    """Runs `search` (Search, or an object with its members warm_up, profiler, steps, budgets, monitors, natural_end
    and result) to its end: run(), or start() then step() until it returns False, then `result`. `budgets` compose
    with the search's own; `monitors` come after the search's (its on_iteration); `stop` (mols.signals.StopSignals,
    or anything with `requested` and `name`) ends it after the step in progress; `resume` (Search.snapshot's state)
    makes it go on from a checkpoint."""

    def __init__(self, search, budgets=(), monitors=(), stop=None, resume: dict | None = None):
        self.search, self.stop, self.resume = search, stop, resume
        self.budgets = Budgets(search.budgets).plus(budgets)
        # checked after each step in their order, the caps the loops end at as one number (cheaper than a call)
        caps = [b for b in self.budgets if b.in_loop]
        self.cap = min((b.cap for b in caps), default=UNLIMITED)
        first = self.budgets.index(caps[0]) if caps else len(self.budgets)
        self.first = [b for b in self.budgets[:first] if not b.in_loop]
        self.then = [b for b in self.budgets[first:] if not b.in_loop]
        self.trace = trace_of(search, resume)  # every run's (search/trace.py); a batch's searches have theirs
        monitors = [*search.monitors, *monitors, *([self.trace] if self.trace is not None else [])]
        self.on_step, self.on_end = hears(monitors, "on_step"), hears(monitors, "on_end")
        self.on_stop = hears(monitors, "on_stop")
        archived = [] if getattr(search, "archive", None) is None else monitors  # a batch, an ILS-3opt population: none
        self.on_archive, self.on_best = hears(archived, "on_archive"), hears(archived, "on_best")
        self.told = bool(self.on_step or self.on_archive or self.on_best)
        self.steps = None
        self.status = None  # completed, interrupted or failed, once the run has ended
        self.result = None
        self.exception = None  # what failed the run, if something did
        self._F, self._best = None, None  # the archive's vectors and best values at the last step (archive events)

    def run(self):
        """The search from its warm-up to its end; its result."""
        self.start()
        while self.step():
            pass
        return self.result

    def start(self) -> None:
        """Compile what the search calls, then start its clock (from a checkpoint's state, where resumed); a stop already requested ends it here. A MolsError
        in the warm-up (an array that does not fit) reaches the caller: nothing has been searched yet."""
        search = self.search
        search.warm_up()
        search.profiler = Profiler()
        self.steps = search.steps()
        if self.resume is not None:
            search.restore(self.resume)
            # a checkpoint of the step that spent a budget (monitors hear a step before its budgets are checked)
            if self._spent(self.first + self.then):
                return
        if self.stop is not None and self.stop.requested:
            self._end("interrupted")

    def step(self) -> bool:
        """One step of the search; whether it goes on. Ctrl-C is "interrupted"; a MolsError, or any other exception
        (a bug, a device fault: its traceback), is "failed"; the archive keeps what was found until then."""
        if self.status is not None:
            return False
        search = self.search
        try:  # one block, and no call, no loop where nothing is to check: a step of a fast loop is a microsecond
            try:
                next(self.steps)
            except StopIteration:  # the search's own end: its natural end, or a cap its loops met
                ended_by = "natural end" if search.natural_end else self.budgets.cap_reached(search)
                self._end("completed", ended_by=ended_by)
                return False
            if self.told:
                self._tell()
            if self.stop is not None and self.stop.requested:
                for on_stop in self.on_stop:
                    on_stop(search)
                self._end("interrupted")
                return False
            if self.first and self._spent(self.first):
                return False
            if search.iterations >= self.cap:
                self._at_cap()
                return False
            return not (self.then and self._spent(self.then))
        except KeyboardInterrupt:
            self._end("interrupted")
        except MolsError as err:
            self.exception = err
            self._end("failed", str(err))
        except Exception as err:  # noqa: BLE001 - a bug or a device fault: keep the archive, report the traceback
            self.exception = err
            self._end("failed", traceback.format_exc())
        return False

    def _spent(self, budgets: list) -> bool:
        """Whether one of `budgets` is spent: the first ends the run."""
        for budget in budgets:
            if budget.spent(self.search):
                self._end("completed", ended_by=budget.name)
                return True
        return False

    def _at_cap(self) -> None:
        """The run ended by a cap the loops end at: what follows them runs first (a last merge, PLS's natural end)."""
        for _ in self.steps:
            pass
        search = self.search
        self._end("completed", ended_by="natural end" if search.natural_end else self.budgets.cap_reached(search))

    def _tell(self) -> None:
        search = self.search
        for on_step in self.on_step:
            on_step(search)
        if self.on_archive or self.on_best:
            self._archive_events()

    def _archive_events(self) -> None:
        F = self.search.archive.F
        if F is self._F:  # an archive that changes replaces its F
            return
        self._F = F
        for on_archive in self.on_archive:
            on_archive(self.search)
        best = F.min(axis=0) if len(F) else None
        if best is not None and (self._best is None or (best < self._best).any()):
            self._best = best
            for on_best in self.on_best:
                on_best(self.search)

    def _end(self, status: str, error: str | None = None, ended_by: str | None = None) -> None:
        """The search's loop closed (its cleanups run: the archives get the work in progress), its clock stopped,
        its result made and told."""
        try:
            self.steps.close()
        except Exception:  # noqa: BLE001 - a cleanup that failed: the run failed
            status, error, ended_by = "failed", traceback.format_exc(), None
        search, stop = self.search, self.stop
        search.profiler.stop()
        self.status = status
        signal = stop.name if stop is not None and status == "interrupted" else None
        self.result = search.result(status, error, ended_by if status == "completed" else None, signal)
        if self.on_archive or self.on_best:  # what the loop's end handed to the archive (a last merge)
            self._archive_events()
        for on_end in self.on_end:
            on_end(search, self.result)
