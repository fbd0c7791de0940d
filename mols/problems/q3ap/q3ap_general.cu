// The Q3AP's neighborhoods (basic, advanced) in general form, one thread per move: the CUDA twin of cpu.py's
// general_delta (docs/internals.md). Prepended: lane.cuh, pairs.cuh, pair_swaps.cuh, swaps.cuh and #define N_POS (n),
// VAL, SYMMETRIC (C[I][T] = C[T][I]), BLOCK and STATE_BYTES. C is the (n^3, n^3) matrix of triples, whose rows pass
// 2^31 entries from n = 36 on: its offsets are 64-bit. Sums run in 64 bits, each partial sum bounded by the
// objective's bound (model.py), so the cost comes out exact.

typedef long long ACC;
#define N_TRIPLES ((long long)N_POS * N_POS * N_POS)

// The row of C (and entry of b) of position i holding p's value x[j] and q's value x[N_POS + l]: cpu.triple.
__device__ __forceinline__ int q3g_triple(const int* x, int i, int j, int l) {
    return (i * N_POS + x[j]) * N_POS + x[N_POS + l];
}

// The change of f when positions (k, l) swap in p and (r, s) in q: cpu.general_delta.
__device__ ACC q3ap_general_delta(const int* __restrict__ C, const int* __restrict__ b, const int* __restrict__ x,
                                  Swaps w) {
    ACC outside = 0, inside = 0, linear = 0;
#pragma unroll
    for (int u = 0; u < 4; ++u) {
        const int i = q3ap_changed(u, w);
        if (i < 0) continue;
        const int old = q3g_triple(x, i, i, i), now = q3g_triple(x, i, q3ap_source(i, w.k, w.l),
                                                                 q3ap_source(i, w.r, w.s));
        const int* __restrict__ row_old = C + old * N_TRIPLES;
        const int* __restrict__ row_new = C + now * N_TRIPLES;
        linear += (ACC)b[now] - b[old];
        for (int t = 0; t < N_POS; ++t) {
            if (q3ap_moved(t, w)) continue;
            const int other = q3g_triple(x, t, t, t);
            outside += (ACC)row_new[other] - row_old[other];
#if !SYMMETRIC
            const int* __restrict__ column = C + other * N_TRIPLES;
            outside += (ACC)column[now] - column[old];
#endif
        }
#pragma unroll
        for (int v = 0; v < 4; ++v) {
            const int j = q3ap_changed(v, w);
            if (j < 0) continue;
            inside += (ACC)row_new[q3g_triple(x, j, q3ap_source(j, w.k, w.l), q3ap_source(j, w.r, w.s))]
                      - row_old[q3g_triple(x, j, j, j)];
        }
    }
#if SYMMETRIC
    outside *= 2;
#endif
    return linear + outside + inside;
}

// q3ap_general_delta as the fused selection's functor (swaps.cuh's q3ap_select_moves).
struct GeneralDelta {
    const int* C; const int* b; const int* x;
    __device__ __forceinline__ ACC operator()(Swaps w) const { return q3ap_general_delta(C, b, x, w); }
};

// Arguments: C (n^3, n^3) and b (n^3,); the state: x (2 N_POS,) and cost (1,); then F (n_moves, 1). Lane b
// (blockIdx.y) reads its own state and writes its rows of F.
extern "C" __global__ void __launch_bounds__(BLOCK) q3ap_general_neighborhood(
    const int* __restrict__ C, const int* __restrict__ b, const int* __restrict__ x, const VAL* __restrict__ cost,
    VAL* __restrict__ F, long long n_moves)
{
    x = lane_state(x); cost = lane_state(cost);
    F += blockIdx.y * n_moves;
    const long long t = (long long)blockIdx.x * BLOCK + threadIdx.x;
    if (t >= n_moves) return;
    F[t] = (VAL)(cost[0] + q3ap_general_delta(C, b, x, nbh_swaps(nbh_decode(t, N_POS))));
}

#ifdef SEL_BLOCK
// Compiled after algorithms/tabu/select.cu: evaluation and the block's part of the selection in one pass, so that F
// is never written. q3ap_general_neighborhood's arguments less F, then the end and the first move of the chunk and
// select_partial's.
extern "C" __global__ void __launch_bounds__(SEL_BLOCK) q3ap_general_neighborhood_select(
    const int* __restrict__ C, const int* __restrict__ b, const int* __restrict__ x, const VAL* __restrict__ cost,
    long long n_moves, long long first, const double* c, const double* threshold, const long long* step,
    const TABU* __restrict__ forbidden_until, double* part_s, long long* part_i, FVAL* part_f)
{
    x = lane_state(x); cost = lane_state(cost);
    select_lane(c, threshold, step, part_s, part_i, part_f);
    q3ap_select_moves(GeneralDelta{C, b, x}, cost[0], n_moves, first, c, threshold, step, forbidden_until, part_s,
                      part_i, part_f);
}
#endif

// One block per lane: the lane's state moved to the neighbor *move (none where it is -1: the lane's walk has
// ended), whose cost is f: the swaps made in x.
extern "C" __global__ void q3ap_general_apply(const int* C, const int* b, int* x, VAL* cost, const long long* move,
                                              const VAL* f) {
    x = lane_state(x); cost = lane_state(cost);
    if (move[blockIdx.y] < 0 || threadIdx.x != 0) return;
    const Swaps w = nbh_swaps(nbh_decode(move[blockIdx.y], N_POS));
    if (w.k >= 0) exchange(x, w.k, w.l);
    if (w.r >= 0) exchange(x, N_POS + w.r, N_POS + w.s);
    cost[0] = f[blockIdx.y];
}
