// Decodes the given move ids (prepended header) as NBH_ARITY indices each, to test the mapping.
extern "C" __global__ void decode_all(int n, const long long* __restrict__ ids, long long count,
                                      int* __restrict__ out) {
    long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= count) return;
    Move mv = nbh_decode(ids[t], n);
    for (int q = 0; q < NBH_ARITY; ++q) out[NBH_ARITY * t + q] = nbh_index(mv, q);
}

// The inverse (the tabu attribute) of each given move, to test nbh_inverse against Neighborhood.inverse.
extern "C" __global__ void inverse_all(int n, const long long* __restrict__ ids, long long count,
                                       long long* __restrict__ out) {
    long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= count) return;
    out[t] = nbh_inverse(ids[t], n);
}
