// Writes every move of the neighborhood (prepended header) as NBH_ARITY indices, to test the mapping.
extern "C" __global__ void decode_all(int n, long long n_moves, int* __restrict__ out) {
    long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n_moves) return;
    Move mv = nbh_decode(t, n);
    for (int q = 0; q < NBH_ARITY; ++q) out[NBH_ARITY * t + q] = nbh_index(mv, q);
}

// Writes the inverse (the tabu attribute) of every move, to test nbh_inverse against Neighborhood.inverse.
extern "C" __global__ void inverse_all(int n, long long n_moves, long long* __restrict__ out) {
    long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n_moves) return;
    out[t] = nbh_inverse(t, n);
}
