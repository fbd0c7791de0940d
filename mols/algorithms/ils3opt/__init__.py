"""ILS-3opt for the TSP (Delévacq et al.): the Numba reference, the GPU strategies and merged rounds."""
