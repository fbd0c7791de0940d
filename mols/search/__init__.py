"""What every search shares, below the algorithms: the `Search` base and its result, budgets and the profiler."""
