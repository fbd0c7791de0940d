"""What every search shares, below the algorithms: the `Search` base and its result, the runner that owns its loop,
budgets, monitors and the profiler."""
