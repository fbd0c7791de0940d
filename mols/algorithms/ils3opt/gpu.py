"""The ILS-3opt population on the GPU (ils3opt.cu): source, compilation and the strategies' launches, fi-block's
shape chosen from the population and the multiprocessors (docs/internals.md; figures: reports/ils3opt/)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np

from mols.algorithms.ils3opt.merge import empty_spans
from mols.algorithms.ils3opt.population import positions
from mols.algorithms.ils3opt.three_opt import candidate_table
from mols.backends.cuda import DeviceQueue, compile_kernel, device_array, import_cupy, kernel_source
from mols.neighborhoods.draws import DRAWS_CUH
from mols.problems.tsp.kernels import DISTANCE_CUH

ILS3OPT_CU = Path(__file__).with_name("ils3opt.cu")
KERNELS = {"fi-thread": "ils_fi_thread", "fi-block": "ils_fi_block", "fi-block-shared": "ils_fi_block_shared"}
BLOCK_THREADS = 32  # fi-block, fi-block-shared by candidate: a warp over the candidates t3 (fi_block_shape)
WIDE_THREADS = 64  # ... or two, where a multiprocessor is to hold at most WIDE_BLOCKS of them
WIDE_BLOCKS = 10  # 64 threads x 10 blocks leave each thread 102 registers of a multiprocessor's 65,536
MIN_REGISTERS = 64  # fi-block: the fewest registers a thread is left (a few hundred bytes spilled, from 158)
REGISTERS_MAX = 255  # a thread's most
PAIR_THREADS = 128  # fi-block, fi-block-shared over a direction's (t3, t4, t5) triples: a multiple of 32
PAIRS_PER_SM = 4  # blocks per multiprocessor at most for the triples
THREAD_BLOCK_MAX = 64  # fi-thread: at most this many threads (solutions) per block
RKBI_THREADS = 128  # ils3opt.cu's
RKBI_PER_THREAD = 8  # rkbi: samples per thread and step, which sets the blocks per solution
RKBI_CHECK = 8  # rkbi: LS steps launched between two looks at whether any solution is still descending
BLOCK_RESERVE = 1024 + 256  # shared memory a block takes besides its dynamic share: the system's, then Scratch
MERGE_THREADS = 256  # merged rounds' copies
SHARED_LIMIT = 227 * 1024  # bytes of shared memory a block may take on compute capability 9.0 (opt-in above 48 KiB)


def ils3opt_source(n: int, k: int, seg: int, att: bool, pairs: bool = True, merged: bool = False,
                   bounds: tuple[int, int] | None = None, oropt: bool = False) -> str:
    """The kernels' source with its #defines and headers (what the GPU compiles; tests compile it with nvcc).
    bounds: the fi kernels' (threads a block, blocks a multiprocessor) for __launch_bounds__ (None: none); oropt:
    the local search makes Or-opt moves too (or3opt)."""

    defines = {"N_CITIES": n, "K": k, "SEG": seg, "ATT": int(att), "PAIRS": int(pairs), "MERGED": int(merged),
               "OROPT": int(oropt),
               "FI_BOUNDS": "" if bounds is None else "__launch_bounds__({}, {})".format(*bounds)}
    return kernel_source(defines, DRAWS_CUH.read_text(), DISTANCE_CUH.read_text(), ILS3OPT_CU.read_text())


def shared_bytes(n: int) -> int:
    """ils_fi_block_shared's dynamic shared memory: tour, positions, queue (int32) and flags (bytes)."""
    return 12 * n + n


def fi_block_shape(P: int, pairs: bool, shared: int, props: dict) -> tuple[int, int]:
    """fi-block's threads a block and the blocks a multiprocessor is to hold (its __launch_bounds__), for P solutions
    (a block each) and a device of cudaDeviceProp fields `props`. The blocks run in the fewest waves that the
    device's block limit, the blocks' shared memory and MIN_REGISTERS a thread allow, each multiprocessor holding as
    few as that takes (the most registers). Over the triples: PAIR_THREADS, at most PAIRS_PER_SM blocks. By
    candidate: a warp a block, or two (a t3 each of the 40 candidates at once) where that takes as few waves and at
    most WIDE_BLOCKS blocks. Capped registers cost less than another wave of blocks, and the dependent loads of a
    block's search hide behind the other blocks' (docs/internals.md; figures: reports/ils3opt/)."""
    sms = props["multiProcessorCount"]

    def shape(threads: int, most: int) -> tuple[int, int, int]:
        most = min(most, props["regsPerMultiprocessor"] // (threads * MIN_REGISTERS))
        if shared:
            most = min(most, props["sharedMemPerMultiprocessor"] // (shared + BLOCK_RESERVE))
        waves = -(-P // (sms * max(1, most)))
        return threads, -(-P // (sms * waves)), waves

    if pairs:
        return shape(PAIR_THREADS, PAIRS_PER_SM)[:2]
    narrow, wide = (shape(threads, props["maxBlocksPerMultiProcessor"]) for threads in (BLOCK_THREADS, WIDE_THREADS))
    return wide[:2] if wide[2] == narrow[2] and wide[1] <= WIDE_BLOCKS else narrow[:2]


def launch_bounds(threads: int, blocks: int, props: dict) -> tuple[int, int] | None:
    """The __launch_bounds__ of a shape, where they cap the registers below a thread's most (else none: the
    kernel stays as compiled without them)."""
    return (threads, blocks) if threads * blocks * REGISTERS_MAX > props["regsPerMultiprocessor"] else None


@cache
def device_props(device: int) -> dict:
    """cudaDeviceProp's fields of a device (asked once: a millisecond each time)."""

    return import_cupy().cuda.runtime.getDeviceProperties(device)


class GpuPopulation:
    """The population's arrays on the device; run(it_from, it_to) launches one strategy's kernel over them (oropt:
    its local search with Or-opt moves, or3opt's)."""

    def __init__(self, strategy: str, xy: np.ndarray, cand: np.ndarray, seed: int, tours: np.ndarray,
                 lengths: np.ndarray, seg: int, att: bool, launch_for: int | None = None, merged: bool = False,
                 oropt: bool = False):

        cp = self.cupy = import_cupy()
        P, n = tours.shape
        self.strategy, self.P, self.n, self.seed = strategy, P, n, seed
        props = device_props(cp.cuda.Device().id)
        sms = props["multiProcessorCount"]
        team = launch_for or P  # launch_for: make (compile) another population's kernel
        pairs = team <= PAIRS_PER_SM * sms
        self.shared = shared_bytes(n) if strategy == "fi-block-shared" else 0
        if self.shared > SHARED_LIMIT:
            from mols.errors import OptionError

            raise OptionError("strategy", f"fi-block-shared: {n} cities need {self.shared:,} bytes of shared "
                              f"memory per block, more than the {SHARED_LIMIT:,} a block may take; use fi-block")
        bounds = None
        if strategy in ("fi-block", "fi-block-shared"):
            self.threads, blocks = fi_block_shape(team, pairs, self.shared, props)
            bounds = launch_bounds(self.threads, blocks, props)
        else:  # fi-thread: as many blocks as the solutions allow, spread over the multiprocessors (the paper's)
            self.threads = max(1, min(THREAD_BLOCK_MAX, -(-P // sms)))
        self.source = ils3opt_source(n, cand.shape[1], seg, att, pairs, merged, bounds, oropt)
        self.kernel = compile_kernel(self.source, KERNELS[strategy]) if strategy in KERNELS else None
        if self.shared > 48 * 1024:
            self.kernel.max_dynamic_shared_size_bytes = self.shared
        what = f"ILS-3opt population of {P} tours of {n} cities"
        self.xy = cp.asarray(np.ascontiguousarray(xy, np.float64))
        self.cand = cp.asarray(candidate_table(xy, cand, att))
        self.tours = cp.asarray(tours)
        self.pos, self.bests, self.best_pos, self.queues = (device_array((P, n), np.int32, what) for _ in range(4))
        self.queued = device_array((P, n), np.uint8, what, fill=0)
        self.lengths = cp.asarray(np.ascontiguousarray(lengths, np.int64).reshape(P))
        self.spans = cp.asarray(empty_spans(P, n).astype(np.int32))
        self.merge_kernels = [compile_kernel(self.source, f"ils_merge_{k}") for k in ("apply", "broadcast")] \
            if merged else None
        self.incumbents = self.next = None  # merged rounds: (islands, n) each, made at the first merge

    def run(self, it_from: int, it_to: int, window: int = 0) -> None:
        """Iterations it_from .. it_to - 1 of every solution (ils3opt.ils_population's), synchronised."""
        threads = self.threads
        blocks = -(-self.P // threads) if self.strategy == "fi-thread" else self.P
        args = (self.xy, self.cand, np.uint64(self.seed), np.int32(self.P), self.tours, self.pos, self.bests,
                self.best_pos, self.queues, self.queued, self.lengths, np.int32(it_from), np.int32(it_to),
                np.int32(window), self.spans)
        self.kernel((blocks,), (threads,), args, shared_mem=self.shared)
        DeviceQueue.current().synchronize()

    def best_lengths(self) -> np.ndarray:
        return self.lengths.get()

    def best_tour(self, s: int) -> np.ndarray:
        return self.bests[s].get()

    def round_state(self) -> tuple[np.ndarray, np.ndarray]:
        return self.lengths.get(), self.spans.get().astype(np.int64)

    def merge(self, selected: np.ndarray, offset: int, island_lengths: np.ndarray, island: int,
              whole: bool = False) -> None:
        """ils_merge's apply_spans and broadcast on the device."""

        cp, islands = self.cupy, self.P // island
        if self.incumbents is None:
            self.incumbents, self.next = (device_array((islands, self.n), np.int32, "merged rounds' tours")
                                          for _ in range(2))
        apply, broadcast = self.merge_kernels
        picked = cp.asarray(selected.astype(np.int64))
        if whole:
            self.spans[picked] = cp.asarray(np.array([0, self.n - 1], np.int32))
        if len(selected):
            apply((len(selected),), (MERGE_THREADS,), (self.bests, picked, self.spans, self.incumbents,
                                                       np.int32(island)))
        broadcast((self.P + islands,), (MERGE_THREADS,),
                  (self.incumbents, np.int32(offset), np.int32(self.P), np.int32(island), self.tours, self.pos,
                   self.bests, self.best_pos, self.lengths, cp.asarray(island_lengths.astype(np.int64)), self.spans,
                   self.next))
        self.incumbents, self.next = self.next, self.incumbents

    def state(self) -> dict:
        """CpuPopulation.state's arrays, copied from the device (a checkpoint resumes on either backend)."""
        return {"tours": self.tours.get(), "bests": self.bests.get(), "lengths": self.lengths.get(),
                "spans": self.spans.get().astype(np.int64),
                "incumbents": None if self.incumbents is None else self.incumbents.get()}

    def load(self, state: dict) -> None:
        """Go on from state()'s `state` (CpuPopulation.load's): its arrays copied to the device."""
        queue, incumbents = DeviceQueue.current(), state["incumbents"]
        tours, bests = (np.ascontiguousarray(state[name], np.int32) for name in ("tours", "bests"))
        if incumbents is not None:
            self.incumbents, self.next = (device_array(incumbents.shape, np.int32, "merged rounds' tours")
                                          for _ in range(2))
        for array, host in ((self.tours, tours), (self.bests, bests), (self.pos, positions(tours)),
                            (self.best_pos, positions(bests)), (self.lengths, state["lengths"]),
                            (self.spans, state["spans"]), (self.incumbents, incumbents)):
            if host is not None:
                queue.set(array, np.ascontiguousarray(host, array.dtype))
        queue.zero(self.queued)
        queue.synchronize()  # the host arrays may go once copied


class GpuRkbiPopulation(GpuPopulation):
    """ILS-RKBI-blocks: each LS step of every solution as two launches (ils3opt.cu), repeated until no solution
    finds an improving sample; the double bridge and the acceptance as one launch each."""

    def __init__(self, xy: np.ndarray, cand: np.ndarray, seed: int, tours: np.ndarray, lengths: np.ndarray, seg: int,
                 att: bool, samples: int, blocks: int | None = None):
        """blocks: per solution (the paper's Table 2), None: from the samples; ties go to the first sample whatever
        the blocks, so they change the time only."""
        super().__init__("rkbi", xy, cand, seed, tours, lengths, seg, att)
        cp = self.cupy
        self.samples = samples
        self.blocks = blocks or max(1, min(120, -(-samples // (RKBI_THREADS * RKBI_PER_THREAD))))
        self.kernels = {name: compile_kernel(self.source, f"ils_rkbi_{name}")
                        for name in ("prepare", "sample", "apply", "accept")}
        self.current = cp.empty(self.P, cp.int64)
        self.active = cp.zeros(self.P, cp.int32)
        self.part_delta = cp.empty((self.P, self.blocks), cp.int64)
        self.part_code = cp.empty((self.P, self.blocks), cp.int32)

    def run(self, it_from: int, it_to: int) -> None:
        k, P, seed = self.kernels, (self.P,), np.uint64(self.seed)
        threads = (RKBI_THREADS,)
        for it in range(it_from, it_to):
            k["prepare"](P, threads, (self.xy, seed, self.tours, self.pos, self.lengths, self.current, self.active,
                                      np.int32(it)))
            step = 0
            while True:
                for _ in range(RKBI_CHECK):
                    k["sample"]((self.P, self.blocks), threads, (self.xy, seed, self.tours, self.active, np.int32(it),
                                                                  np.int32(step), np.int32(self.samples),
                                                                  self.part_delta, self.part_code))
                    k["apply"](P, threads, (seed, self.tours, self.pos, self.active, self.current, np.int32(it),
                                            np.int32(step), self.part_delta, self.part_code, np.int32(self.blocks)))
                    step += 1
                if not int(self.active.max()):
                    break
            k["accept"](P, threads, (self.tours, self.pos, self.bests, self.best_pos, self.lengths, self.current))
        DeviceQueue.current().synchronize()
