"""The TSP and the bi-objective TSP: TSPLIB reader, model, swap and 2-opt kernels (Numba and CUDA)."""
