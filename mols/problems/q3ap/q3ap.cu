// The Q3AP's neighborhoods (basic, advanced) in product form, one thread per move: the CUDA twin of cpu.py
// (docs/internals.md). Prepended: lane.cuh, pairs.cuh, pair_swaps.cuh, swaps.cuh and #define N_POS (n), VAL,
// SYMMETRIC, BLOCK and STATE_BYTES. Sums run in 64 bits: every partial sum is bounded by the objective's bound
// (model.py), so the cost comes out exact.

typedef long long ACC;

// The change of f when positions (k, l) swap in p and (r, s) in q: cpu.move_delta.
__device__ ACC q3ap_delta(const int* __restrict__ A, const int* __restrict__ Bp, const int* __restrict__ Eq,
                          Swaps w) {
    ACC outside = 0, inside = 0;
#pragma unroll
    for (int u = 0; u < 4; ++u) {
        const int i = q3ap_changed(u, w);
        if (i < 0) continue;
        const int pi = q3ap_source(i, w.k, w.l), qi = q3ap_source(i, w.r, w.s);
        for (int t = 0; t < N_POS; ++t) {
            if (q3ap_moved(t, w)) continue;
            outside += (ACC)A[i * N_POS + t] * ((ACC)Bp[pi * N_POS + t] * Eq[qi * N_POS + t]
                                                - (ACC)Bp[i * N_POS + t] * Eq[i * N_POS + t]);
#if !SYMMETRIC
            outside += (ACC)A[t * N_POS + i] * ((ACC)Bp[t * N_POS + pi] * Eq[t * N_POS + qi]
                                                - (ACC)Bp[t * N_POS + i] * Eq[t * N_POS + i]);
#endif
        }
#pragma unroll
        for (int v = 0; v < 4; ++v) {
            const int j = q3ap_changed(v, w);
            if (j < 0) continue;
            const int pj = q3ap_source(j, w.k, w.l), qj = q3ap_source(j, w.r, w.s);
            inside += (ACC)A[i * N_POS + j] * ((ACC)Bp[pi * N_POS + pj] * Eq[qi * N_POS + qj]
                                               - (ACC)Bp[i * N_POS + j] * Eq[i * N_POS + j]);
        }
    }
#if SYMMETRIC
    outside *= 2;
#endif
    return outside + inside;
}

// q3ap_delta as the fused selection's functor (swaps.cuh's q3ap_select_moves).
struct ProductDelta {
    const int* A; const int* Bp; const int* Eq;
    __device__ __forceinline__ ACC operator()(Swaps w) const { return q3ap_delta(A, Bp, Eq, w); }
};

// Arguments: A (N_POS, N_POS); the state: x (2 N_POS,: unused, Bp and Eq hold it), cost (1,), Bp and Eq
// (N_POS, N_POS); then F (n_moves, 1). Lane b (blockIdx.y) reads its own state and writes its rows of F.
extern "C" __global__ void __launch_bounds__(BLOCK) q3ap_neighborhood(
    const int* __restrict__ A, const int* __restrict__ x, const VAL* __restrict__ cost,
    const int* __restrict__ Bp, const int* __restrict__ Eq, VAL* __restrict__ F, long long n_moves)
{
    cost = lane_state(cost); Bp = lane_state(Bp); Eq = lane_state(Eq);
    F += blockIdx.y * n_moves;
    const long long t = (long long)blockIdx.x * BLOCK + threadIdx.x;
    if (t >= n_moves) return;
    const Swaps w = nbh_swaps(nbh_decode(t, N_POS));
    F[t] = (VAL)(cost[0] + q3ap_delta(A, Bp, Eq, w));
}

#ifdef SEL_BLOCK
// Compiled after algorithms/tabu/select.cu: evaluation and the block's part of the selection in one pass, so that F
// is never written. q3ap_neighborhood's arguments less F, then the end and the first move of the chunk and
// select_partial's.
extern "C" __global__ void __launch_bounds__(SEL_BLOCK) q3ap_neighborhood_select(
    const int* __restrict__ A, const int* __restrict__ x, const VAL* __restrict__ cost,
    const int* __restrict__ Bp, const int* __restrict__ Eq, long long n_moves, long long first, const double* c,
    const double* threshold, const long long* step, const TABU* __restrict__ forbidden_until, double* part_s,
    long long* part_i, FVAL* part_f)
{
    cost = lane_state(cost); Bp = lane_state(Bp); Eq = lane_state(Eq);
    select_lane(c, threshold, step, part_s, part_i, part_f);
    q3ap_select_moves(ProductDelta{A, Bp, Eq}, cost[0], n_moves, first, c, threshold, step, forbidden_until, part_s,
                      part_i, part_f);
}
#endif

// One block per lane: the lane's state moved to the neighbor *move (none where it is -1: the lane's walk has
// ended), whose cost is f: the swaps made in x, and in the rows and columns of Bp (k, l) and Eq (r, s).
extern "C" __global__ void q3ap_apply(const int* A, int* x, VAL* cost, int* Bp, int* Eq, const long long* move,
                                      const VAL* f) {
    x = lane_state(x); cost = lane_state(cost); Bp = lane_state(Bp); Eq = lane_state(Eq);
    if (move[blockIdx.y] < 0) return;
    const Swaps w = nbh_swaps(nbh_decode(move[blockIdx.y], N_POS));
    if (w.k >= 0) exchange_rows_columns(Bp, N_POS, w.k, w.l);
    if (w.r >= 0) exchange_rows_columns(Eq, N_POS, w.r, w.s);
    if (threadIdx.x == 0) {
        if (w.k >= 0) exchange(x, w.k, w.l);
        if (w.r >= 0) exchange(x, N_POS + w.r, N_POS + w.s);
        cost[0] = f[blockIdx.y];
    }
}
