// Insertion moves, the CUDA twin of insertion.py (same ids, same moves).
#define NBH_ARITY 2
struct Move { int i, j; };
__device__ __forceinline__ int nbh_index(Move mv, int q) { return q == 0 ? mv.i : mv.j; }

// Positions first_changed..n-1 of a neighbor, as NBH_SEGMENTS runs: within run g (positions up
// to end[g], exclusive), the job at position k is the current permutation's job at k + offset[g].
#define NBH_SEGMENTS 3
struct Segments { int end[NBH_SEGMENTS]; int offset[NBH_SEGMENTS]; };

__device__ __forceinline__ long long nbh_group_start(long long s, int n) {
    return s * (2LL * n - 2 - s);
}

__device__ __forceinline__ Move nbh_decode(long long idx, int n) {
    long long s = (long long)((n - 1) - sqrt((double)(n - 1) * (n - 1) - (double)idx));
    s = min(max(s, 0LL), (long long)(n - 2));
    while (s > 0 && nbh_group_start(s, n) > idx) --s;
    while (s < n - 2 && nbh_group_start(s + 1, n) <= idx) ++s;
    int r = (int)(idx - nbh_group_start(s, n));
    int n_forward = n - 1 - (int)s;
    Move mv;
    if (r < n_forward) { mv.i = (int)s; mv.j = (int)s + 1 + r; }
    else { mv.i = (int)s + 2 + (r - n_forward); mv.j = (int)s; }
    return mv;
}

__device__ __forceinline__ int nbh_first_changed(Move mv) { return min(mv.i, mv.j); }

__device__ __forceinline__ Segments nbh_segments(Move mv, int n) {
    Segments g;
    if (mv.i < mv.j) {  // forward: the jobs between shift left, job i lands at j
        g.end[0] = mv.j;     g.offset[0] = 1;
        g.end[1] = mv.j + 1; g.offset[1] = mv.i - mv.j;
    } else {            // backward: job i lands at j, the jobs between shift right
        g.end[0] = mv.j + 1; g.offset[0] = mv.i - mv.j;
        g.end[1] = mv.i + 1; g.offset[1] = -1;
    }
    g.end[2] = n; g.offset[2] = 0;
    return g;
}

// The id of move (i, j), or -1 (insertion.encode).
__device__ __forceinline__ long long nbh_encode(int i, int j, int n) {
    if (i == j || i < 0 || j < 0 || i >= n || j >= n) return -1;
    if (j == i - 1) { const int t = i; i = j; j = t; }  // backward adjacent: the forward move's neighbor
    if (i < j) return nbh_group_start(i, n) + (j - i - 1);
    return nbh_group_start(j, n) + (n - 1 - j) + (i - j - 2);
}

// The move that undoes move idx (Neighborhood.inverse): (j, i), or idx itself where that is the same move.
__device__ __forceinline__ long long nbh_inverse(long long idx, int n) {
    const Move mv = nbh_decode(idx, n);
    const long long back = nbh_encode(mv.j, mv.i, n);
    return back >= 0 ? back : idx;
}
