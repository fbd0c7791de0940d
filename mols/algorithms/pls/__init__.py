"""Pareto local search (PLS-1): its host loop, the start archives it explores, and its iterations on the device."""
