"""The backend spec: every choice about where and how a neighborhood is evaluated, made once. The CLI, `RunConfig`,
the benchmarks and the reports build one `BackendSpec`, resolve it, hand it to `prepare` and show its label."""

from __future__ import annotations

from dataclasses import dataclass, replace

from mols.errors import OptionError

DEVICES = ("auto", "cpu", "gpu")
ARCHIVES = ("cpu", "gpu")
GENERATIONS = ("device", "host")  # gpu: moves decoded from the thread id, or built on the host and copied each time
SELECTIONS = ("device", "copy")  # gpu: the best neighbor reduced on the device, or F copied back and chosen on the host
# gpu: how the kernels read the instance data (backends/techniques.cuh): default (each kernel's own way), plain
# global loads, the read-only cache, shared-memory staging (where the problem has it)
MEMORIES = ("default", "plain", "readonly", "shared")
WARP = 32
MAX_BLOCK = 1024  # threads per block on every CUDA device so far


@dataclass(frozen=True)
class BackendSpec:
    device: str = "auto"  # cpu (Numba), gpu (CuPy), or auto: gpu where CuPy finds a device
    threads: int | None = None  # cpu: the number of cores; None: all, or one where that is faster (threads.py)
    archive: str | None = None  # where Pareto local search archives: gpu (on the device) or cpu; None: the device's
    fused: bool = True  # gpu: evaluation and selection in one kernel where the problem has one
    device_walk: bool = True  # gpu: tabu steps run on the device where the problem can apply a move there
    lanes: bool = True  # gpu: a search's independent tabu walks share each launch where the problem has lane kernels
    walk_batch: int = 64  # gpu: tabu steps per CUDA graph of a device walk (and per trail brought back)
    incremental: bool = True  # the problem's update from the previous solution where it has one (QAP: Taillard's)
    chunk_rows: int | None = None  # moves per kernel call at most (problems whose kernels take an id offset)
    generation: str = "device"  # gpu: where the moves are made (GENERATIONS)
    selection: str = "device"  # gpu: where the best neighbor is chosen (SELECTIONS)
    memory: str = "default"  # gpu: how the kernels read the instance data (MEMORIES)
    block: int | None = None  # gpu: threads per block of the evaluation kernels; None: tuned where `tune`, else the default
    tune: bool = False  # gpu: without `block`, the launch configuration tuned once per device (backends/tuning.py)
    gpus: int = 1  # gpu: devices that share each neighborhood, a contiguous share of its ids each (backends/split.py)

    def __post_init__(self):
        if self.device not in DEVICES:
            raise OptionError("backend", f": unknown backend {self.device!r}; choose one of {', '.join(DEVICES)}")
        if self.archive is not None and self.archive not in ARCHIVES:
            raise OptionError("archive", f"{self.archive}: choose cpu, or gpu with the gpu backend")
        if self.archive == "gpu" and self.device == "cpu":
            raise OptionError("archive", "gpu: choose cpu, or gpu with the gpu backend")
        if self.threads is not None and self.threads < 1:
            raise OptionError("threads", f"must be at least 1, got {self.threads}")
        for option, value, choices in (("generation", self.generation, GENERATIONS),
                                       ("selection", self.selection, SELECTIONS), ("memory", self.memory, MEMORIES)):
            if value not in choices:
                raise OptionError(option, f"{value}: choose one of {', '.join(choices)}")
        if self.gpus < 1:
            raise OptionError("gpus", f"must be at least 1, got {self.gpus}")
        if self.gpus > 1 and self.device == "cpu":
            raise OptionError("gpus", f"{self.gpus} splits the gpu backend's neighborhoods; this run is on the cpu")
        if self.block is not None and not (self.block > 0 and self.block % WARP == 0):
            raise OptionError("block", f"must be a positive multiple of the warp size ({WARP}), got {self.block}")

    def resolved(self) -> BackendSpec:
        """The same spec with `auto` made `gpu` exactly where CuPy finds a device, and the archive's place
        made explicit. Asking for `gpu` where there is none is an error when the evaluator is made."""
        from mols.backends.cuda import gpu_available  # CuPy is imported only where a spec is resolved

        device = ("gpu" if gpu_available() else "cpu") if self.device == "auto" else self.device
        return replace(self, device=device, archive=self.archive or ("gpu" if device == "gpu" else "cpu"))

    @property
    def label(self) -> str:
        """How tables name this backend: cpu, cpu x1 (a fixed number of cores), gpu, and what differs
        from the defaults (gpu x2: two devices, gpu+host archive, gpu host walk, unfused, gpu host moves copy, gpu
        block 256, cpu x1 plain)."""
        count = self.gpus if self.gpus > 1 else self.threads
        parts = [self.device + (f" x{count}" if count else "")]
        if self.device == "gpu":
            parts += [s for s, on in (("+host archive", self.archive == "cpu"), (" host walk", not self.device_walk),
                                      (" one lane", not self.lanes),
                                      (" unfused", not self.fused), (" host moves", self.generation == "host"),
                                      (" copy", self.selection == "copy"),
                                      (f" {self.memory} memory", self.memory != "default"),
                                      (f" block {self.block}", self.block is not None),
                                      (" tuned", self.block is None and self.tune)) if on]
        if not self.incremental:
            parts.append(" plain")
        return "".join(parts)
