"""Tabu search's selection, made once per evaluator (selection_for): the best admissible neighbor by weighted score
and the tabu memory, on the host (the CPU's chunks, or F copied back: --selection copy) or on the device."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from mols.algorithms.tabu.gpu_select import DeviceSelection
from mols.algorithms.tabu.select import TABU_DTYPE, best_pairs_parallel, choose_on_host, still_tabu
from mols.algorithms.tabu.split_select import SplitSelection
from mols.memory import host_array


class HostSelection:
    """The tabu memory in host memory, and the choice made on the host (select.py): over the whole F that the
    evaluator gives back, or, where `chunked` (the CPU on problems whose kernels take an id offset), chunk by chunk
    over its public chunked evaluation, which makes the same choice without the whole F."""

    def __init__(self, ev, chunked: bool):
        self.ev, self.chunked = ev, chunked
        # (n_neighbors,) TABU_DTYPE: the step from which each neighbor is admissible again
        self.forbidden_until = host_array((ev.n_neighbors,), TABU_DTYPE, f"the tabu memory of {ev.what}", fill=0)

    def __call__(self, x: np.ndarray, c: np.ndarray, step: int, threshold: float, key: np.ndarray | None = None):
        """Evaluate the neighborhood of x; (id, score, F[id]) of its best admissible neighbor by score c . F (rule
        in select.py: a forbidden id is admissible from step forbidden_until[id] on, or when its score is below
        threshold)."""
        if not self.chunked:
            return choose_on_host(self.ev.evaluate(x, key), c, self.forbidden_until, step, threshold)
        return self._best_by_chunks(x, np.asarray(c, dtype=np.float64), step, threshold, key)

    def _best_by_chunks(self, x: np.ndarray, c: np.ndarray, step: int, threshold: float, key: np.ndarray | None):
        """The same choice as best_admissible over the whole F: in each chunk the best admissible and
        the best move; strictly better ones replace earlier chunks' (ties go to the lowest id)."""
        ev = self.ev
        ev.stage(x, key)
        best, fallback = (np.inf, -1, None), (np.inf, -1, None)  # (score, id, F row)
        for first in ev.firsts:
            with ev.cores:
                F = ev.evaluate_chunk(first)
                b, bs, a, as_ = best_pairs_parallel(F, c, self.forbidden_until[first:first + len(F)], step, threshold)
            if b >= 0 and bs < best[0]:
                best = (bs, first + b, F[b].copy())
            if as_ < fallback[0]:
                fallback = (as_, first + a, F[a].copy())
        score, idx, f = best if best[1] >= 0 else fallback
        return int(idx), float(score), f

    def forbid(self, idx: int, until: int) -> None:
        """Make neighbor id idx inadmissible until step `until`."""
        self.forbidden_until[idx] = until

    def allow_all(self) -> None:
        """Make every neighbor admissible again."""
        self.forbidden_until[:] = 0

    def tabu_after(self, step: int) -> np.ndarray:
        """The tabu memory at `step` (steps.Position.tabu): the ids still tabu there, and for how many steps more."""
        return still_tabu(self.forbidden_until, step)

    @property
    def graph(self):
        """The GPU's graph that a call replays (F's round trip, --selection copy), once one has run."""
        return self.ev.evaluation_graph


def selection_for(ev) -> HostSelection | DeviceSelection | SplitSelection:
    """The evaluator's selection, made on first use and kept with it (the searches that share an evaluator share
    it: each walk starts with allow_all): on the device where the GPU selects there (gpu_select.py; on each device
    of a split neighborhood, split_select.py), else on the host."""
    return ev.companion("tabu selection", lambda: new_selection(ev))


def new_selection(ev) -> HostSelection | DeviceSelection | SplitSelection:
    if ev.spec.device == "cpu":
        return HostSelection(ev, chunked=ev.problem.kernels.chunkable)
    if ev.spec.selection == "copy":
        return HostSelection(ev, chunked=False)
    return SplitSelection(ev) if ev.spec.gpus > 1 else DeviceSelection(ev)


def tuned_iteration(ev, x: np.ndarray, key: np.ndarray | None) -> Callable[[], object]:
    """Tabu search's iteration for backends/tuning.py's Iteration (the probe of a remembered or --block launch, and
    Table 7's device times): one call of the GPU evaluator's selection on x (equal weights, every move admissible),
    giving back the CUDA graph that it replays."""
    selection, c = selection_for(ev), np.ones(ev.problem.n_obj)

    def iteration():
        selection(x, c, 0, -np.inf, key)
        return selection.graph

    return iteration
