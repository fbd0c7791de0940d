// Hamming-k moves (NBH_ARITY = k, 1..3, defined before): the CUDA twin of hamming.py, the same ids
// (combinatorial number system, bits v[0] < v[1] < v[2]; subsets.cuh, prepended by hamming.py, decodes them).
struct Move { int v[NBH_ARITY]; };
__device__ __forceinline__ int nbh_index(Move mv, int q) { return mv.v[q]; }

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
