"""Many independent searches over several GPUs and machines, on Dask distributed (`mols multistart`).

K searches of one configuration (any that `mols run` runs), seeds S .. S + K - 1, are split into tasks; each task
runs on one Dask worker, pinned to one GPU (or on a CPU worker, one core). A task that fails or whose worker dies
is tried once more, then reported. Each search's results folder is written as its task returns (OUT/seed-S); at the
end OUT/merged_front.csv (the non-dominated union of the fronts; with one objective, the best) and
OUT/multistart.json (the tasks: worker, GPU, seeds, attempts, times) are rebuilt from the folders, so a rerun into
the same folder runs only what is missing.

- cluster.py: the embedded LocalCluster (one worker per GPU, or per core) or an existing scheduler;
- task.py: what a worker runs;
- driver.py: the client's side (`Multistart`);
- command.py: the CLI command's work.
"""

from mols.multistart.driver import MULTISTART, Multistart

__all__ = ["MULTISTART", "Multistart"]
