// The change of one variable to another of its NBH_K values (NBH_ARITY = 2 and NBH_K defined before):
// the CUDA twin of change.py, the same ids. Move id = i (NBH_K - 1) + r sets position i to
// (x[i] + 1 + r) mod NBH_K; its inverse, the opposite shift, is r' = NBH_K - 2 - r.
struct Move { int v[2]; };
__device__ __forceinline__ int nbh_index(Move mv, int q) { return mv.v[q]; }

__device__ __forceinline__ Move nbh_decode(long long idx, int n) {
    Move mv;
    mv.v[0] = (int)(idx / (NBH_K - 1));
    mv.v[1] = (int)(idx % (NBH_K - 1));
    return mv;
}

// The value move rank r gives a position holding a.
__device__ __forceinline__ int nbh_new_value(int a, int r) { return (a + 1 + r) % NBH_K; }

__device__ __forceinline__ long long nbh_inverse(long long idx, int n) {
    const long long r = idx % (NBH_K - 1);
    return idx - r + (NBH_K - 2 - r);
}
