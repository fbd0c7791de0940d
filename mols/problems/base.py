"""What a problem gives mols: its solution kind, a reference evaluation and the pieces its kernels need."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, ClassVar, NamedTuple

import numpy as np

from mols.encodings import Encoding
from mols.errors import MolsError, OptionError
from mols.neighborhoods import Neighborhood, get_neighborhood

Layout = list[tuple[tuple[int, ...], np.dtype]]


class WalkKernel(NamedTuple):
    """A problem's kernel of a whole tabu step (Problem.walk_kernel): its name, its blocks per lane (None: the fused
    selection kernel's), and the bytes of memory it keeps per lane from one step to the next (the walk's own, told
    through `last` when a walk starts)."""

    name: str
    blocks: int | None
    memory: int = 0
INT32_MAX, INT64_MAX = int(np.iinfo(np.int32).max), int(np.iinfo(np.int64).max)
# Bytes of instance data a block stages in shared memory at most (--memory shared): under the 48 KB of static
# shared memory, with room for select.cu's reduction arrays.
SHARED_STAGING = 40 * 1024


def staging_refused(what: str, size: int) -> str | None:
    """Why `what` (of `size` bytes) is not staged in shared memory (Problem.shared_memory_refused), or None."""
    if size > SHARED_STAGING:
        return f"{what} take {size:,} bytes, more than the {SHARED_STAGING:,} a block stages in shared memory"
    return None


def integer_dtype(bound: int, what: str) -> np.dtype:
    """The objective dtype for values proved to stay within +-bound (a Python int, computed from the
    data): int32 where it fits, else int64; MolsError naming `what` where even int64 could overflow."""
    if bound > INT64_MAX:
        raise MolsError(f"{what}: objective values could reach {bound:.3g}, beyond the 64-bit integers mols "
                        f"computes with ({INT64_MAX:.3g}); scale the data down")
    return np.dtype(np.int32 if bound <= INT32_MAX else np.int64)


class Problem(ABC):
    """A problem whose neighborhoods the backends evaluate whole. Subclass it to bring your own.

    What a subclass sets: `name`, `objectives` (all minimised), `n` (the size the neighborhoods see),
    `dtype` (of the objective values: int32, int64 or float64), `encoding` (its solution kind), and
    `instance` (anything with a `.name`, which results folders show as the instance's name).

    What it implements:
    - `_evaluate(X)`: the reference evaluation of a batch X (B, encoding.size) -> F (B, n_obj), plain
      and obviously right (NumPy); kernels are tested against it;
    - `data()`: constant arrays, uploaded once per run; `state_layout()` and `fill_state(x, state)`:
      the per-solution arrays the kernels read, and how to fill them for solution x (the arrays hold the
      previous call's values, zeros before the first: a problem may update them from there);
    - `cpu_kernel(nbh)`: a Numba function evaluating the whole neighborhood;
    - for the GPU, `cuda_source(nbh)` (the CUDA source, by default the file `cuda_file`), `cuda_kernel`
      (the kernel's name, or `kernel_name(nbh)`) and `cuda_defines()` (compile-time constants);
    - to optimise a subset of its objectives (--objectives, `with_objectives`), `_project(columns)`.
    - optionally `population_kernel`: a kernel of the same source that evaluates whole solutions, one
      thread each, taking `*population_data(), X (pop, size), F (pop, n_obj), pop`: the GPU twin of
      `evaluate` for genetic algorithms (backends/population.py; without it the GPU backend uses `evaluate`).

    Kernels all take the same arguments: `*data(), *state, F` (Numba) or `*data(), *state, F, n_moves`
    (CUDA), F (n_neighbors, n_obj) receiving the objective vectors; state ends with the draw key (2,)
    uint64 when the neighborhood is sampled (Neighborhood.sampled). A problem whose kernels take an id
    offset sets `chunkable` (then `(..., F, first)` in Numba, `(..., F, n_moves, first)` in CUDA). A
    problem whose CUDA kernels take their lane's state and rows of F (backends/lane.cuh: blockIdx.y is the
    search) sets `lane_kernels`: then many searches share each launch (GpuEvaluator's lanes).
    """

    name: str
    instance: Any  # the parsed instance; it has a .name
    objectives: tuple[str, ...]
    n: int
    dtype: np.dtype
    encoding: Encoding
    cuda_file: Path | None = None
    cuda_kernel: str = ""
    neighborhoods: tuple[str, ...] | None = None  # the neighborhoods its kernels support; None: every one
    chunkable: bool = False  # kernels take an id offset (see the class docstring)
    lane_kernels: bool = False  # its CUDA kernels serve several searches in one launch (backends/lane.cuh)
    threads_per_move: int = 1  # CUDA threads that share a move in the evaluation kernels; grids hold that many per move
    target: float | None = None  # one objective: a value that ends a search when reached (PPP: 0, a solution)
    objective_aliases: ClassVar[dict[str, str]] = {}  # other names --objectives takes for objectives: alias -> name
    _full: Problem | None = None  # set by with_objectives: the problem with all its objectives
    population_kernel: str | None = None  # CUDA: whole solutions evaluated, one thread each (see the docstring)

    def evaluate(self, X) -> np.ndarray:
        """Reference evaluation: one solution (size,) -> (n_obj,), or a batch (B, size) -> (B, n_obj), as dtype."""
        X = np.asarray(X)
        batch = X[None] if X.ndim == 1 else X
        if batch.ndim != 2 or batch.shape[1] != self.encoding.size:
            raise MolsError(f"{self.name}: expected solutions of {self.encoding.size} values, got an array of shape "
                            f"{X.shape}")
        F = np.asarray(self._evaluate(batch)).astype(self.dtype)
        return F[0] if X.ndim == 1 else F

    @abstractmethod
    def _evaluate(self, X: np.ndarray) -> np.ndarray:
        """The reference evaluation of a batch X (B, size) -> F (B, n_obj)."""

    def evaluate_one(self, x: np.ndarray) -> np.ndarray:
        """The objective vector (n_obj,) of one solution, as the searches need it; a problem may
        override this with a faster path, tested against `evaluate`."""
        return self.evaluate(x)

    @property
    def full(self) -> Problem:
        """This problem with all its objectives (itself, unless with_objectives made it): results folders
        evaluate the archive's solutions with it, so that front.csv lists every objective."""
        return self._full or self

    def with_objectives(self, names: Sequence[str] | None) -> Problem:
        """The problem that optimises `names` (objectives of `full`, or their aliases), in that order: its
        `objectives` are those names and every evaluation gives their columns, kernels included. None: this
        problem as it is; all the objectives in their order: `full`. OptionError naming the objectives for an unknown
        or repeated name."""
        if names is None:
            return self
        full = self.full
        valid = ", ".join(full.objectives)
        if not names:
            raise OptionError("objectives", f": give one or more of {valid}")
        chosen = [full.objective_aliases.get(name, name) for name in names]
        for name, canonical in zip(names, chosen):
            if canonical not in full.objectives:
                raise OptionError("objectives", f": the {full.name} problem has no objective {name!r}; choose among "
                                  f"{valid}")
            if chosen.count(canonical) > 1:
                raise OptionError("objectives", f": {canonical} is given more than once; choose each once among "
                                  f"{valid}")
        columns = tuple(full.objectives.index(name) for name in chosen)
        if columns == tuple(range(full.n_obj)):
            return full
        projected = full._project(columns)
        projected.objectives, projected._full = tuple(chosen), full
        return projected

    def _project(self, columns: tuple[int, ...]) -> Problem:
        """A problem whose evaluations (reference and kernels) give the columns `columns` of this one's, in
        that order (with_objectives then names its objectives). By default: none (OptionError)."""
        raise OptionError("objectives", f": the {self.name} problem optimises all its objectives "
                          f"({', '.join(self.objectives)}) only")

    def neighborhood(self, name: str) -> Neighborhood:
        """The neighborhood called `name` on this problem. A problem whose moves depend on its instance (the
        change of a variable to another of its k values) makes it here."""
        return get_neighborhood(name)

    def tabu_tenure(self, nbh: Neighborhood) -> int | None:
        """The tenure tabu search and ITS take on this problem when none is given (its literature's, e.g. the
        Q3AP's quarter of the neighborhood); None: the searches' own defaults (n; ITS n / 2)."""
        return None

    def perturbation(self) -> tuple[int, int] | None:
        """ITS without --strength: each perturbation makes a number of random changes drawn uniformly in this
        range [low, high] (the Q3AP's [2, n]); None: ITS's fixed default (n / 5, at least 2)."""
        return None

    def random_solution(self, rng: np.random.Generator) -> np.ndarray:
        return self.encoding.random(rng)

    @property
    def n_obj(self) -> int:
        return len(self.objectives)

    @property
    def instance_name(self) -> str:
        """The instance's name, as results folders and reports show it."""
        return self.instance.name

    @abstractmethod
    def data(self) -> tuple[np.ndarray, ...]:
        """Constant arrays, uploaded once per run."""

    @abstractmethod
    def state_layout(self) -> Layout:
        """Shapes and dtypes of the per-solution arrays the kernels read."""

    @abstractmethod
    def fill_state(self, x: np.ndarray, state: tuple[np.ndarray, ...]) -> None:
        """Write the per-solution arrays for solution x into `state` (which holds the previous call's, or
        zeros: the evaluators allocate it zeroed)."""

    @abstractmethod
    def cpu_kernel(self, nbh: Neighborhood, incremental: bool = True) -> Callable:
        """A Numba function evaluating the whole neighborhood: (*data, *state, F) -> None. `incremental`:
        use the problem's update from the previous solution where it has one (QAP: Taillard's)."""

    def cuda_source(self, nbh: Neighborhood) -> str:
        """The CUDA source of the kernels for `nbh` (compiled after the neighborhood's header)."""
        if self.cuda_file is None:
            raise MolsError(f"the {self.name} problem has no CUDA kernel; use the cpu backend")
        return self.cuda_file.read_text()

    def population_data(self) -> tuple[np.ndarray, ...]:
        """The constant arrays the population kernel reads before X (by default those of data())."""
        return self.data()

    def cuda_defines(self) -> dict[str, int | str]:
        """Compile-time constants of the CUDA kernels, prepended as #define lines."""
        return {}

    def kernel_name(self, nbh: Neighborhood, lanes: int = 1) -> str:
        """The CUDA kernel that evaluates `nbh` for `lanes` searches sharing each launch."""
        return self.cuda_kernel

    def selection_kernel(self, nbh: Neighborhood) -> str | None:
        """A kernel, compiled after algorithms/tabu/select.cu, that evaluates `nbh` and does select_partial's
        work in one pass without writing F: arguments (*data, *state, n_moves, first, then
        select_partial's from c on). None: the kernel writes F, then select_partial reads it."""
        return None

    def move_threads(self, nbh: Neighborhood) -> int:
        """CUDA threads that share a move in the kernels of `nbh` (by default threads_per_move)."""
        return self.threads_per_move

    def shared_memory_refused(self, nbh: Neighborhood) -> str | None:
        """Why its kernels for `nbh` cannot stage the instance data in shared memory (--memory shared, the
        MEMORY 2 of backends/techniques.cuh), or None where they do. By default they have no such variant."""
        return f"the {self.name} problem's kernels have no shared-memory staging of its data"

    def prepare_kernel(self, nbh: Neighborhood) -> tuple[str, int] | None:
        """A kernel that derives arrays from the state on the device before the kernels of `nbh` read it
        (PPP: bit-packed columns in the rows' sorted order, written into one of its data arrays), and its
        threads: arguments (*data, *state). The GPU evaluator runs it after each upload of a state and after
        each move applied on the device. None: the kernels read the state as it comes."""
        return None

    def load_kernel(self, nbh: Neighborhood) -> str | None:
        """A kernel that makes the state of a solution on the device (algorithms/pls/device.py): arguments (*data,
        *state, the solution, an int flag: where it is 0, no solution, and the kernel may mark the state so that the
        evaluation kernel skips it); one block of algorithms.pls.device.LOAD_BLOCK threads
        (its launch bound). With it, and the resident
        archive, Pareto local search runs its iterations on the device; None: the host drives each."""
        return None

    def apply_kernel(self, nbh: Neighborhood) -> str | None:
        """A kernel that moves the state on the device to the neighbor chosen by the selection
        (algorithms/tabu/gpu_walk.py): arguments (*data, *state, move id, its objective vector), the last two on
        the device's result of the selection; one block (per lane, with lane_kernels: its move is move[lane],
        and -1 means that the lane's walk has ended). With it a tabu walk runs on the device; None: the host applies each move."""
        return None

    def walk_kernel(self, nbh: Neighborhood, block: int) -> WalkKernel | None:
        """A kernel that takes a whole step of tabu walks in one launch, in blocks of `block` threads, where the
        neighborhood is one chunk and the selection fused (algorithms/tabu/gpu_walk.py; qap.cu's qap_walk_step, compiled
        after walk.cu with WALK_STEP): each block's part of the selection, then the last block of each lane does
        walk_step's and the apply kernel's work. Its last two arguments are the lanes' walk memory and `last`
        (an int64 per lane, -1 when a walk starts; the kernel keeps what it likes there). None: a step is the
        selection's kernels, walk_step and the apply kernel."""
        return None
