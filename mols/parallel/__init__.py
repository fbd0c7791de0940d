"""Many searches: one driver (driver.py) over processes, GPUs and machines on an executor (executors.py: Dask, or a
pool of local processes), the results layout and merged front (record.py), and `solve_many` (many.py); searches
that share each kernel launch stay the device's batch (together.py, algorithms/tabu/batch.py)."""

from mols.lazy import lazy_exports

# Lazy: the commands' modules take cluster.CONNECT_TIMEOUT when `mols --help` runs, which must not load the driver's
# numerical libraries.
__getattr__, __dir__ = lazy_exports(__name__, {"Driver": "mols.parallel.driver", "ManyResult": "mols.parallel.many",
                                               "solve_many": "mols.parallel.many"})
__all__ = ["Driver", "ManyResult", "solve_many"]
