"""A Pareto local search start's archive, wherever it is kept (HostStart, MirroredStart, resident.py's
ResidentArchive), behind one protocol; docs/internals.md lists it."""

from __future__ import annotations

import numpy as np

from mols.archive.host import Archive, dominates, nondominated, weakly_dominated
from mols.neighborhoods.draws import uniform


def pick_rank(seed: int, counter: int, unvisited: int) -> int:
    """Which unvisited member iteration `counter` explores: floor(u * unvisited), u the counter-based draw of
    (seed, counter) (draws.py; resident.cu's draw_member draws the same on the device)."""
    return int(uniform(np.array([seed, counter], dtype=np.uint64), 0, 0) * unvisited)


class HostStart:
    device_iterations = None

    def __init__(self, evaluator, nbh, problem, capacity: int = 1024):
        self.ev, self.nbh = evaluator, nbh
        self.archive = self.new_archive(problem, capacity)

    def new_archive(self, problem, capacity: int) -> Archive:
        return Archive(problem.n_obj, problem.encoding.size, problem.dtype, problem.encoding.dtype)

    def __len__(self) -> int:
        return len(self.archive)

    @property
    def unvisited(self) -> int:
        return int((~self.archive.visited).sum())

    def start(self, X: np.ndarray, F: np.ndarray) -> None:
        self.archive.clear()
        self.archive.add(F, X)

    def pick(self, r: int) -> tuple[np.ndarray, np.ndarray]:
        member = int(self.archive.unvisited_ids()[r])
        self.archive.visited[member] = True
        return self.archive.solution(member), self.archive.F[member].copy()

    def explore(self, x: np.ndarray, f: np.ndarray | None, key, profiler) -> None:
        with profiler.section("evaluation"):
            F = self.ev.evaluate(x, key)  # (n_neighbors, n_obj), the evaluator's buffer
        with profiler.section("archiving"):
            ids = np.flatnonzero(nondominated(F)) if f is None else np.flatnonzero(dominates(F, f))
            if f is not None:
                ids = ids[nondominated(F[ids])]
            self.archive.add(F[ids], self.nbh.apply_many(x, ids, key))  # few survive: only they become solutions

    def members(self) -> tuple[np.ndarray, np.ndarray]:
        return self.archive.members()

    def vectors(self) -> np.ndarray:
        """The members' vectors (A, k)."""
        return self.archive.F

    def held(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The members' vectors, solutions and visited flags, in order, on the host (a checkpoint's)."""
        return self.archive.F.copy(), self.archive.X, self.archive.visited.copy()

    def hold(self, F: np.ndarray, X: np.ndarray, visited: np.ndarray) -> None:
        """Exactly the members held() gave, visited where they were (a start restored from a checkpoint)."""
        self.archive.hold(F, X, visited)

    def holds(self, point: np.ndarray) -> bool:
        return weakly_dominated(self.archive.F, point)


class MirroredStart(HostStart):
    """The members on the host, their vectors mirrored on the device (mirrored.py)."""

    def __init__(self, evaluator, nbh, problem, capacity: int = 1024):
        super().__init__(evaluator, nbh, problem, capacity)
        self._graph, self._graph_buffer = None, None  # the graph, and the device buffer it was captured for

    def new_archive(self, problem, capacity: int) -> Archive:
        from mols.archive.mirrored import MirroredArchive

        return MirroredArchive(problem.n_obj, problem.encoding.size, problem.dtype, problem.encoding.dtype,
                               self.ev, capacity)

    def explore(self, x: np.ndarray, f: np.ndarray | None, key, profiler) -> None:
        if self.ev.chunk < self.ev.n_neighbors:
            self._explore_chunks(x, f, key, profiler)
            return
        with profiler.section("evaluation"):
            result = self.filter_neighbors(x, f, key)
        with profiler.section("archiving"):
            self.archive.commit(result, self.nbh.apply_many(x, result.ids, key))

    def _explore_chunks(self, x: np.ndarray, f: np.ndarray | None, key, profiler) -> None:
        """A neighborhood evaluated in chunks (too many neighbors for F at once): each chunk is filtered
        against the members as the chunks before left them. That keeps what one filter of the whole would
        keep, in the same order: a candidate that an earlier chunk's would have beaten meets that one, or
        the member that beat it, in the archive."""
        ev, device = self.ev, self.archive.device
        ev.stage(x, key)
        ev.enqueue_upload()
        for first in ev.firsts:
            with profiler.section("evaluation"):
                F = ev.F[:ev.enqueue_launch(first)]
                device.gpu_filter.set_params(device.size, f)
                device.enqueue_offer(F, ev)
                result = device.settle(device.gpu_filter.collect(F, device.size, ev), ev)
            with profiler.section("archiving"):
                self.archive.commit(result, self.nbh.apply_many(x, result.ids + first, key))

    def filter_neighbors(self, x: np.ndarray, f: np.ndarray | None = None, key=None):
        """One CUDA graph, captured once and replayed: x's state up, the evaluation, the filter against the
        members and their update on the device, the result down; then the result (Filtered)."""
        ev, device = self.ev, self.archive.device
        ev.stage(x, key)
        device.gpu_filter.set_params(device.size, f)
        if self._graph_buffer is not device.buffer:  # a buffer that grew gets a new graph
            self._graph = device.capture(ev, lambda: (ev.enqueue_evaluation(), device.enqueue_offer(ev.F, ev)))
            self._graph_buffer = device.buffer
        ev.replay(self._graph)
        return device.settle(device.gpu_filter.collect(ev.F, device.size, ev), ev)


def start_archive(evaluator, nbh, problem):
    """The start archive the evaluator's spec asks for: on the host, or on the device (resident where the
    device can make the neighbors' solutions and the neighborhood is evaluated whole, with its iterations on
    the device where the problem can load a member there; mirrored otherwise)."""
    if evaluator.spec.archive == "cpu":  # (BackendSpec refuses archive gpu on the cpu device)
        return HostStart(evaluator, nbh, problem)
    whole = evaluator.chunk >= evaluator.n_neighbors  # the resident archive needs the whole F at once
    if whole and nbh.cuda_segments and problem.encoding.name == "permutation":
        from mols.algorithms.pls.device import DeviceIterations
        from mols.archive.resident import ResidentArchive

        archive = ResidentArchive(evaluator, nbh)
        if evaluator.spec.device_walk and problem.kernels.load_kernels.get(nbh.name):
            archive.device_iterations = DeviceIterations(archive)
        return archive
    return MirroredStart(evaluator, nbh, problem)
