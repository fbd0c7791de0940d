"""What the elite search's loop keeps from round to round (Walks), and its checkpoint at a round's end: the walks,
their Ro-TS tables and the elite (docs/internals.md)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mols.algorithms.elite.memory import Elite


def shares(total: int, parts: int) -> np.ndarray:
    """`total` split into `parts` shares as even as can be, the larger first: a round's steps among the walks."""
    return total // parts + (np.arange(parts) < total % parts)


def run_bests(runs: list) -> list[tuple]:
    """Each walk's best after its round's run: (score, x, f)."""
    return [(run.best, *run.best_xf) for run in runs]


@dataclass
class Walks:
    """The walks between rounds: where each stands (x), its best (score, x, f), its tabu memory (memories: the
    moves memory's WalkMemory, else None) and tabu moves to start with (tabu), its tenure for the next round, and
    the steps of the budget `left`; `between`: a round walked whose end (elite, restarts, forced swaps) is to make."""

    x: list
    bests: list
    memories: list
    tabu: list
    tenures: np.ndarray | None
    left: int
    between: bool = False

    def walked(self, runs: list, steps: int, x: list) -> None:
        """The round of `runs` walked, `steps` in all: the walks' bests and where they stand (x) taken."""
        self.left -= steps
        self.bests = run_bests(runs)
        self.x, self.between = x, True


def walks_state(walks: Walks, runs: list, steps: int, rots, elite: Elite) -> dict:
    """The checkpoint of walks with Ro-TS's memory (rots) whose round of `runs` (`steps` in all) is walked, as
    Walks.walked would leave them: the steps left, each walk's best, its table and where it stands; the elite."""
    scores, best_x, best_f = zip(*run_bests(runs))
    members = np.stack(elite.members) if elite.members else np.empty((0, rots.x.shape[1]), dtype=rots.x.dtype)
    return {"left": walks.left - steps, "scores": np.array(scores, dtype=np.float64), "best_x": np.stack(best_x),
            "best_f": np.stack(best_f), "x": rots.x.copy(), "tables": rots.left.copy(),
            "elite_scores": np.array(elite.scores, dtype=np.float64), "elite_members": members}


def restored_walks(state: dict, rots, elite: Elite) -> Walks:
    """walks_state's walks again, their tables and positions into `rots`, the elite's members into `elite`: the
    round's end is still to make."""
    rots.x[:], rots.left[:] = state["x"], state["tables"]
    elite.scores = [float(score) for score in state["elite_scores"]]
    elite.members = [member.copy() for member in state["elite_members"]]
    bests = [(float(score), bx.copy(), bf.copy())
             for score, bx, bf in zip(state["scores"], state["best_x"], state["best_f"])]
    walkers = len(bests)
    return Walks(list(rots.x.copy()), bests, [None] * walkers, [None] * walkers, None, int(state["left"]),
                 between=True)
