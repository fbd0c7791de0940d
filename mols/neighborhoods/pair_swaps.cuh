// Swaps on a pair of permutations (p, q): the CUDA twin of pair_swaps.py, the same ids. Prepended:
// pairs.cuh (nbh_pair) and #define NBH_ADVANCED (0: basic, a swap in p or in q; 1: advanced, one in each).
// nbh_swaps gives every move as the positions (k, l) swapped in p and (r, s) in q, -1 for no swap.
#if NBH_ADVANCED
#define NBH_ARITY 4
struct Move { int v[4]; };  // k, l, r, s
#else
#define NBH_ARITY 3
struct Move { int v[3]; };  // part (0: p, 1: q), i, j
#endif
__device__ __forceinline__ int nbh_index(Move mv, int q) { return mv.v[q]; }

__device__ __forceinline__ Move nbh_decode(long long idx, int n) {
    const long long m = (long long)n * (n - 1) / 2;
    const long long a = idx / m;
    Move mv;
#if NBH_ADVANCED
    nbh_pair(a, n, mv.v[0], mv.v[1]);
    nbh_pair(idx - a * m, n, mv.v[2], mv.v[3]);
#else
    mv.v[0] = (int)a;
    nbh_pair(idx - a * m, n, mv.v[1], mv.v[2]);
#endif
    return mv;
}

struct Swaps { int k, l, r, s; };

__device__ __forceinline__ Swaps nbh_swaps(Move mv) {
#if NBH_ADVANCED
    return Swaps{mv.v[0], mv.v[1], mv.v[2], mv.v[3]};
#else
    return mv.v[0] == 0 ? Swaps{mv.v[1], mv.v[2], -1, -1} : Swaps{-1, -1, mv.v[1], mv.v[2]};
#endif
}

// The move that undoes move idx (Neighborhood.inverse): swaps undo themselves.
__device__ __forceinline__ long long nbh_inverse(long long idx, int n) { return idx; }
