"""The workers of this machine: one per visible GPU (worker gpu-I sees GPU I alone) or one per core, each pinned to
cores of its own; Dask's local cluster and the process pool both start them so (docs/internals.md)."""

from __future__ import annotations

import os

from mols.errors import MolsError

# A local worker is a new process that imports the caller's script: the usual cause of workers that do not start.
MAIN_GUARD = 'a Python script that runs searches on local workers must call mols under `if __name__ == "__main__":`'


def visible_gpus() -> list[str]:
    """The GPUs this process may use, as CUDA_VISIBLE_DEVICES names them (its list where it is set)."""
    from mols.backends.cuda import gpu_available, import_cupy

    if not gpu_available():
        return []
    listed = os.environ.get("CUDA_VISIBLE_DEVICES")
    if listed is not None:
        return [name.strip() for name in listed.split(",") if name.strip()]
    return [str(i) for i in range(import_cupy().cuda.runtime.getDeviceCount())]


def local_workers(device: str, workers: int | None) -> dict[str, dict[str, str]]:
    """Each local worker's name and the environment it adds: gpu-I seeing GPU I alone (device "gpu": `workers`
    of the visible GPUs, default all), or 0, 1, ... (`workers` of them, default one per core)."""
    if device != "gpu":
        return {str(i): {} for i in range(workers or os.cpu_count() or 1)}
    gpus = visible_gpus()
    if not gpus:
        raise MolsError("the gpu backend was asked for, but CuPy finds no GPU on this machine")
    if workers is not None and workers > len(gpus):
        raise MolsError(f"--workers {workers}: this machine shows {len(gpus)} GPU(s); one worker per GPU")
    return {f"gpu-{gpu}": {"CUDA_VISIBLE_DEVICES": gpu} for gpu in gpus[:workers]}


def core_shares(names: list[str]) -> dict[str, list[int]]:
    """Each named worker's cores, from this process's: an even share each, in order (one core each, in turn,
    where there are more workers than cores); none where the system does not say."""
    cores = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    if not cores:
        return {}
    if len(names) >= len(cores):
        return {name: [cores[i % len(cores)]] for i, name in enumerate(names)}
    per = len(cores) // len(names)
    return {name: cores[i * per:(i + 1) * per] for i, name in enumerate(names)}


def pin(cores: list[int] | None) -> None:
    """Every thread of this process on these cores (the later ones inherit from them); nothing where None."""
    if cores:
        for thread in os.listdir("/proc/self/task"):
            os.sched_setaffinity(int(thread), cores)
