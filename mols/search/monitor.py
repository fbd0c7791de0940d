"""Monitors: what a runner (search/loop.py) tells of a run as it goes; light, for the command's progress."""

from __future__ import annotations


class Monitor:
    """What a run tells: override the events to hear. on_step: after each step (search.iterations counts the
    neighborhood evaluations so far); on_archive: the run's archive changed; on_best: the run's best value of an
    objective improved (its ideal point moved); on_stop: a stop (a signal) ends the run after this
    step, before its loop closes (a last checkpoint); on_end: the run ended, with its result. The run's archive is the
    search's own: work in progress (a PLS start, the runs of several weight vectors) reaches it later; a run with
    none (a batch in one launch, an ILS-3opt population) tells no archive events."""

    def on_step(self, search) -> None: ...

    def on_archive(self, search) -> None: ...

    def on_best(self, search) -> None: ...

    def on_stop(self, search) -> None: ...

    def on_end(self, search, result) -> None: ...


class EachIteration(Monitor):
    """An `on_iteration(done, archive_size)` callback as a monitor: after each step, the neighborhood evaluations so
    far and the archive size the step reported (Search.reported_size)."""

    def __init__(self, on_iteration):
        self.on_iteration = on_iteration

    def on_step(self, search) -> None:
        self.on_iteration(search.iterations, search.reported_size())


def hears(monitors, event: str) -> list:
    """The monitors' handlers of `event`, of those that override it (the runner calls no empty handler)."""
    return [getattr(m, event) for m in monitors if getattr(type(m), event, None) not in (None, getattr(Monitor, event))]
