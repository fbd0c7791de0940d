// Writes every move of the neighborhood (prepended header) as (i, j) pairs, to test the mapping.
extern "C" __global__ void decode_all(int n, long long n_moves, int* __restrict__ out) {
    long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n_moves) return;
    Move mv = nbh_decode(t, n);
    out[2 * t] = mv.i;
    out[2 * t + 1] = mv.j;
}
