// Hamming-k moves (NBH_ARITY = k, 1..3, defined before): the CUDA twin of hamming.py, the same ids
// (combinatorial number system, bits v[0] < v[1] < v[2]).
struct Move { int v[NBH_ARITY]; };
__device__ __forceinline__ int nbh_index(Move mv, int q) { return mv.v[q]; }

__device__ __forceinline__ long long nbh_binomial(long long c, int q) {
    if (c < q) return 0;
    if (q == 1) return c;
    if (q == 2) return c * (c - 1) / 2;
    return c * (c - 1) * (c - 2) / 6;
}

// The largest c with C(c, q) <= rest: a root as the estimate, corrected in integers.
__device__ __forceinline__ long long nbh_largest(long long rest, int q) {
    if (q == 1) return rest;
    long long c = q == 2 ? (long long)((1.0 + sqrt(1.0 + 8.0 * (double)rest)) / 2.0)
                         : (long long)pow(6.0 * (double)rest, 1.0 / 3.0) + 1;
    c = max(c, (long long)(q - 1));
    while (nbh_binomial(c, q) > rest) --c;
    while (nbh_binomial(c + 1, q) <= rest) ++c;
    return c;
}

__device__ __forceinline__ Move nbh_decode(long long idx, int n) {
    Move mv;
    long long rest = idx;
#pragma unroll
    for (int q = NBH_ARITY; q >= 1; --q) {
        const long long c = nbh_largest(rest, q);
        mv.v[q - 1] = (int)c;
        rest -= nbh_binomial(c, q);
    }
    return mv;
}

// A flip undoes itself (Neighborhood.inverse).
__device__ __forceinline__ long long nbh_inverse(long long idx, int n) { return idx; }
