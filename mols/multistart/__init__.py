"""Many independent searches over several GPUs and machines, on Dask distributed (`mols multistart`): the cluster
(cluster.py), what a worker runs (task.py) and the client's side (driver.py); docs/internals.md says how."""

from mols.multistart.driver import MULTISTART, Multistart

__all__ = ["MULTISTART", "Multistart"]
