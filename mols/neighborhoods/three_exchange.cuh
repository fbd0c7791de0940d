// 3-exchange moves, the CUDA twin of three_exchange.py (the same ids): move 2r + o rotates the values at the
// positions i < j < k of lexicographic rank r one way (o = 0) or the other (o = 1). The triple decodes through
// subsets.cuh (prepended by three_exchange.py) as the colex triple of rank C(n, 3) - 1 - r, mirrored (n - 1 - v).
#define NBH_ARITY 3
// The cycle: the value at position i moves to position j, j's to k and k's to i; i is the smallest of the three.
struct Move { int i, j, k; };
__device__ __forceinline__ int nbh_index(Move mv, int q) { return q == 0 ? mv.i : q == 1 ? mv.j : mv.k; }

// Positions first_changed..n-1 of a neighbor, as NBH_SEGMENTS runs: within run g (positions up
// to end[g], exclusive), the job at position k is the current permutation's job at k + offset[g].
#define NBH_SEGMENTS 6
struct Segments { int end[NBH_SEGMENTS]; int offset[NBH_SEGMENTS]; };

__device__ __forceinline__ Move nbh_decode(long long idx, int n) {
    long long rest = nbh_binomial(n, 3) - 1 - (idx >> 1);
    const long long c = nbh_largest(rest, 3);
    rest -= nbh_binomial(c, 3);
    const long long b = nbh_largest(rest, 2);
    const int i = n - 1 - (int)c, j = n - 1 - (int)b, k = n - 1 - (int)(rest - nbh_binomial(b, 2));
    return (idx & 1) ? Move{i, k, j} : Move{i, j, k};
}

// The other rotation of the same three positions undoes a move (Neighborhood.inverse); so does the move taken twice
// more, which a tabu walk forbids too (Neighborhood.forbids_itself, algorithms/tabu/walk.cu).
__device__ __forceinline__ long long nbh_inverse(long long idx, int n) { return idx ^ 1; }
#define NBH_FORBIDS_ITSELF 1

__device__ __forceinline__ int nbh_first_changed(Move mv) { return mv.i; }

// The position whose value the neighbor puts at position p (three_exchange.source).
__device__ __forceinline__ int nbh_source(Move mv, int p) {
    return p == mv.i ? mv.k : p == mv.j ? mv.i : p == mv.k ? mv.j : p;
}

__device__ __forceinline__ Segments nbh_segments(Move mv, int n) {
    const int mid = min(mv.j, mv.k), hi = max(mv.j, mv.k);
    Segments g;
    g.end[0] = mv.i + 1; g.offset[0] = mv.k - mv.i;
    g.end[1] = mid;      g.offset[1] = 0;
    g.end[2] = mid + 1;  g.offset[2] = nbh_source(mv, mid) - mid;
    g.end[3] = hi;       g.offset[3] = 0;
    g.end[4] = hi + 1;   g.offset[4] = nbh_source(mv, hi) - hi;
    g.end[5] = n;        g.offset[5] = 0;
    return g;
}
