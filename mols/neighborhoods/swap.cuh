// 2-exchange moves, the CUDA twin of swap.py; ids decode through pairs.cuh (prepended by swap.py).
#define NBH_ARITY 2
struct Move { int i, j; };
__device__ __forceinline__ int nbh_index(Move mv, int q) { return q == 0 ? mv.i : mv.j; }

// Positions first_changed..n-1 of a neighbor, as NBH_SEGMENTS runs: within run g (positions up
// to end[g], exclusive), the job at position k is the current permutation's job at k + offset[g].
#define NBH_SEGMENTS 4
struct Segments { int end[NBH_SEGMENTS]; int offset[NBH_SEGMENTS]; };

__device__ __forceinline__ Move nbh_decode(long long idx, int n) {
    Move mv;
    nbh_pair(idx, n, mv.i, mv.j);
    return mv;
}

// The move that undoes move idx (Neighborhood.inverse): a swap is its own inverse.
__device__ __forceinline__ long long nbh_inverse(long long idx, int n) { return idx; }

__device__ __forceinline__ int nbh_first_changed(Move mv) { return min(mv.i, mv.j); }

__device__ __forceinline__ Segments nbh_segments(Move mv, int n) {
    Segments g;
    g.end[0] = mv.i + 1; g.offset[0] = mv.j - mv.i;
    g.end[1] = mv.j;     g.offset[1] = 0;
    g.end[2] = mv.j + 1; g.offset[2] = mv.i - mv.j;
    g.end[3] = n;        g.offset[3] = 0;
    return g;
}
