"""Many independent searches over several GPUs and machines, on Dask distributed (`mols multistart`): the cluster
(cluster.py), what a worker runs (task.py), the client's side (driver.py) and the run's log (logs.py);
docs/internals.md says how."""

from mols.lazy import lazy_exports

# Lazy: the command's module takes cluster.CONNECT_TIMEOUT when `mols --help` runs, which must not load the driver's
# numerical libraries.
__getattr__, __dir__ = lazy_exports(__name__, {"MULTISTART": "mols.multistart.driver",
                                               "Multistart": "mols.multistart.driver"})
__all__ = ["MULTISTART", "Multistart"]
