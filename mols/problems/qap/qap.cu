// The whole QAP swap neighborhood, generated from the thread id: the CUDA twin of cpu.py (docs/internals.md has
// the formula, the defines and how LANES threads share a move). Sums run in the unsigned twin of VAL: they wrap
// (defined behaviour), and the neighbor's cost comes out exact whenever it fits VAL.

typedef unsigned VAL UVAL;

// --memory shared (MEMORY 2, backends/techniques.cuh): each block first stages the flow matrices A (and AT
// where they are asymmetric) in shared memory and reads them there; every thread runs it before any returns.
#if defined(MEMORY) && MEMORY == 2
#define QAP_FLOWS (N_OBJ * N_FAC * N_FAC)
#if SYMMETRIC
#define QAP_STAGE_FLOWS __shared__ int shared_A[QAP_FLOWS]; A = stage_shared(shared_A, A, QAP_FLOWS);
#else
#define QAP_STAGE_FLOWS __shared__ int shared_A[QAP_FLOWS], shared_AT[QAP_FLOWS]; \
    A = stage_shared(shared_A, A, QAP_FLOWS); AT = stage_shared(shared_AT, AT, QAP_FLOWS);
#endif
#else
#define QAP_STAGE_FLOWS
#endif

__device__ __forceinline__ UVAL prod(int a, int b) { return (UVAL)a * (UVAL)b; }

// The sum of v over the L threads of a move, in each of them.
template <int L>
__device__ __forceinline__ UVAL lanes_sum(UVAL v) {
#pragma unroll
    for (int h = L / 2; h > 0; h >>= 1) v += __shfl_xor_sync(0xffffffffu, v, h);
    return v;
}

// The change of the cost of flow matrix a (at: its transpose) when the facilities at positions r and s swap,
// in each of the L lanes of the move, lane `lane` summing the terms k = lane, lane + L, ...
template <int L>
__device__ __forceinline__ UVAL move_delta(const int* a, const int* at, const int* __restrict__ Bp,
                                           const int* __restrict__ BpT, int r, int s, int lane) {
    UVAL total = 0;
#pragma unroll 8
    for (int k = lane; k < N_FAC; k += L) {
        const int row = k * N_FAC;
        const int db = Bp[row + s] - Bp[row + r];
#if SYMMETRIC
        total += prod(a[row + r] - a[row + s], db);
#else
        total += prod(a[row + r] - a[row + s], db) + prod(at[row + r] - at[row + s], BpT[row + s] - BpT[row + r]);
#endif
    }
    total = lanes_sum<L>(total);
#if SYMMETRIC
    total *= 2;
#endif
    const int a_rr = a[r * N_FAC + r], a_rs = a[r * N_FAC + s], a_sr = a[s * N_FAC + r], a_ss = a[s * N_FAC + s];
    const int b_rr = Bp[r * N_FAC + r], b_rs = Bp[r * N_FAC + s], b_sr = Bp[s * N_FAC + r], b_ss = Bp[s * N_FAC + s];
    total -= prod(a_rr - a_rs, b_rs - b_rr) + prod(a_rr - a_sr, b_sr - b_rr);  // the term k = r
    total -= prod(a_sr - a_ss, b_ss - b_sr) + prod(a_rs - a_ss, b_ss - b_rs);  // the term k = s
    total += prod(a_rr - a_ss, b_ss - b_rr) + prod(a_rs - a_sr, b_sr - b_rs);  // inside {r, s}
    return total;
}

// (r, s)'s change of the delta of the swap (u, v), disjoint from it, once it is applied (Bp: the new state).
__device__ __forceinline__ UVAL taillard_change(const int* a, const int* at, const int* Bp, const int* BpT,
                                                int r, int s, int u, int v) {
    const int ru = r * N_FAC + u, rv = r * N_FAC + v, su = s * N_FAC + u, sv = s * N_FAC + v;
    const UVAL change = ((UVAL)a[ru] - (UVAL)a[rv] - (UVAL)a[su] + (UVAL)a[sv])
                      * ((UVAL)Bp[rv] - (UVAL)Bp[ru] - (UVAL)Bp[sv] + (UVAL)Bp[su]);
#if SYMMETRIC
    return 2 * change;
#else
    return change + ((UVAL)at[ru] - (UVAL)at[rv] - (UVAL)at[su] + (UVAL)at[sv])
                  * ((UVAL)BpT[rv] - (UVAL)BpT[ru] - (UVAL)BpT[sv] + (UVAL)BpT[su]);
#endif
}

#if NBH_ARITY == 3
// 3-exchange (three_exchange.cuh): the change when position u of the cycle (mv.i, mv.j, mv.k) takes the value of
// position src u, in each of the L lanes of the move, the twin of cycles.cycle_delta: rows and columns of the three
// positions against every k, then the loop's terms at k in the cycle replaced by the 3 x 3 block's own.
template <int L>
__device__ __forceinline__ UVAL cycle_delta(const int* a, const int* at, const int* __restrict__ Bp,
                                            const int* __restrict__ BpT, Move mv, int lane) {
    const int u[3] = {mv.i, mv.j, mv.k}, src[3] = {mv.k, mv.i, mv.j};
    UVAL total = 0;
#pragma unroll 4
    for (int k = lane; k < N_FAC; k += L) {
        const int row = k * N_FAC;
#pragma unroll
        for (int q = 0; q < 3; ++q) {
#if SYMMETRIC
            total += prod(a[row + u[q]], Bp[row + src[q]] - Bp[row + u[q]]);
#else
            total += prod(a[row + u[q]], Bp[row + src[q]] - Bp[row + u[q]])
                   + prod(at[row + u[q]], BpT[row + src[q]] - BpT[row + u[q]]);
#endif
        }
    }
    total = lanes_sum<L>(total);
#if SYMMETRIC
    total *= 2;
#endif
#pragma unroll
    for (int p = 0; p < 3; ++p) {
        const int up = u[p] * N_FAC, sp = src[p] * N_FAC;
#pragma unroll
        for (int q = 0; q < 3; ++q) {
            const int uq = u[q] * N_FAC;
            total += prod(a[up + u[q]], Bp[sp + src[q]] - Bp[sp + u[q]])
                   - prod(a[uq + u[p]], Bp[uq + src[p]] - Bp[uq + u[p]]);
        }
    }
    return total;
}
#endif

// The costs f (N_OBJ,) of move t: the current costs plus the move's deltas; every lane of the move
// calls it (with the same t) and gets them.
__device__ __forceinline__ void move_costs(const int* __restrict__ A, const int* __restrict__ AT,
                                           const VAL* __restrict__ cost, const int* __restrict__ Bp,
                                           const int* __restrict__ BpT, long long t, int lane,
                                           VAL (&f)[N_OBJ]) {
    const Move mv = nbh_decode(t, N_FAC);
#pragma unroll
    for (int o = 0; o < N_OBJ; ++o) {
        const int offset = o * N_FAC * N_FAC;
#if NBH_ARITY == 3
        f[o] = (VAL)((UVAL)cost[o] + cycle_delta<LANES>(A + offset, AT + offset, Bp, BpT, mv, lane));
#else
        f[o] = (VAL)((UVAL)cost[o] + move_delta<LANES>(A + offset, AT + offset, Bp, BpT, mv.i, mv.j, lane));
#endif
    }
}

// Arguments: A, AT (N_OBJ, N_FAC, N_FAC) flow matrices and their transposes; the state: perm
// (unused: Bp holds it), cost (N_OBJ,), Bp and BpT (empty when SYMMETRIC); then F (n_moves, N_OBJ).
extern "C" __global__ void __launch_bounds__(BLOCK) qap_neighborhood(
    const int* __restrict__ A, const int* __restrict__ AT, const int* __restrict__ perm,
    const VAL* __restrict__ cost, const int* __restrict__ Bp, const int* __restrict__ BpT,
    VAL* __restrict__ F, long long n_moves)
{
    cost = lane_state(cost); Bp = lane_state(Bp); BpT = lane_state(BpT);
    F += blockIdx.y * n_moves * N_OBJ;
    QAP_STAGE_FLOWS
    const long long thread = (long long)blockIdx.x * BLOCK + threadIdx.x, t = thread / LANES;
    if ((thread - threadIdx.x % 32) / LANES >= n_moves) return;  // the whole warp is past the end
    VAL f[N_OBJ];
    move_costs(A, AT, cost, Bp, BpT, min(t, n_moves - 1), (int)(thread % LANES), f);
    if (t >= n_moves || thread % LANES) return;
#pragma unroll
    for (int o = 0; o < N_OBJ; ++o) F[t * N_OBJ + o] = f[o];
}

#ifdef SEL_BLOCK
#ifdef ROTS
// Ro-TS's memory (Taillard 1991; elite/rots.py is the host twin): left (N_FAC x N_FAC, the lane's) holds the step at
// which value v last left position q; the swap (i, j) is tabu when both values it places left there after `recent`
// (the step less the lane's tenure).
struct Admission { const int* perm; const int* left; long long recent; };
__device__ __forceinline__ bool admissible(const Admission& a, long long t, Move mv) {
    return a.left[a.perm[mv.j] * N_FAC + mv.i] <= a.recent || a.left[a.perm[mv.i] * N_FAC + mv.j] <= a.recent;
}
__device__ __forceinline__ bool admissible(const Admission& a, long long t) {
    return admissible(a, t, nbh_decode(t, N_FAC));
}
#else
// The tabu memory of moves (select.cu): a move is admissible from step forbidden_until[t] on.
struct Admission { const TABU* forbidden_until; long long now; };
__device__ __forceinline__ bool admissible(const Admission& a, long long t) { return a.forbidden_until[t] <= a.now; }
__device__ __forceinline__ bool admissible(const Admission& a, long long t, Move) { return admissible(a, t); }
#endif

// Move t, whose costs are f, offered to a thread's best pairs: admissible where `free` (not tabu) or better than
// the aspiration threshold.
__device__ __forceinline__ void offer(long long t, const VAL (&f)[N_OBJ], const double* c, double thr, bool free,
                                      double& bs, long long& bi, FVAL (&bf)[N_OBJ],
                                      double& as, long long& ai, FVAL (&af)[N_OBJ]) {
    const double score = score_of_row(f, c);
    if (keep_better(as, ai, score, t))
        for (int o = 0; o < N_OBJ; ++o) af[o] = f[o];
    if ((free || score < thr) && keep_better(bs, bi, score, t))
        for (int o = 0; o < N_OBJ; ++o) bf[o] = f[o];
}

// Compiled after algorithms/tabu/select.cu: evaluation and the block's part of the selection in one pass,
// so that F is never written. The same arguments less F, then n_moves, first and select_partial's.
// The block's part of the selection over moves first .. n_moves - 1, the arguments already the lane's.
__device__ __forceinline__ void qap_select_part(
    const int* __restrict__ A, const int* __restrict__ AT, const VAL* __restrict__ cost, const int* __restrict__ Bp,
    const int* __restrict__ BpT, long long n_moves, long long first, const double* c, const double* threshold,
    const Admission adm, double* part_s, long long* part_i, FVAL* part_f)
{
    double bs = SEL_INF, as = SEL_INF;
    long long bi = NO_ID, ai = NO_ID;
    FVAL bf[N_OBJ], af[N_OBJ];
    const double thr = *threshold;
    const long long stride = (long long)gridDim.x * SEL_BLOCK / LANES;
    const int lane = threadIdx.x % LANES;
    const long long own = first + ((long long)blockIdx.x * SEL_BLOCK + threadIdx.x) / LANES;
    const long long warp_first = own - (threadIdx.x % 32) / LANES;  // the first move of the warp's lanes
    for (long long t = own, w = warp_first; w < n_moves; t += stride, w += stride) {  // the same trips in a warp
        VAL f[N_OBJ];
        move_costs(A, AT, cost, Bp, BpT, min(t, n_moves - 1), lane, f);
        if (t < n_moves && !lane) offer(t, f, c, thr, admissible(adm, t), bs, bi, bf, as, ai, af);
    }
    write_part(bs, bi, bf, as, ai, af, part_s, part_i, part_f);
}

#ifndef ROTS  // a walk module's, where the selection kernel is not used
extern "C" __global__ void __launch_bounds__(SEL_BLOCK) qap_neighborhood_select(
    const int* __restrict__ A, const int* __restrict__ AT, const int* __restrict__ perm,
    const VAL* __restrict__ cost, const int* __restrict__ Bp, const int* __restrict__ BpT,
    long long n_moves, long long first, const double* c, const double* threshold, const long long* step,
    const TABU* __restrict__ forbidden_until, double* part_s, long long* part_i, FVAL* part_f)
{
    cost = lane_state(cost); Bp = lane_state(Bp); BpT = lane_state(BpT);
    select_lane(c, threshold, step, part_s, part_i, part_f);
    QAP_STAGE_FLOWS
    qap_select_part(A, AT, cost, Bp, BpT, n_moves, first, c, threshold,
                    Admission{forbidden_until + blockIdx.y * n_moves, *step}, part_s, part_i, part_f);
}
#endif
#endif

// Rows and columns r and s of the lane's Bp and BpT exchanged, by the block's threads.
__device__ void qap_exchange(int* Bp, int* BpT, int r, int s) {
    exchange_rows_columns(Bp, N_FAC, r, s);
#if !SYMMETRIC
    exchange_rows_columns(BpT, N_FAC, r, s);
#endif
}

// One block per lane: the lane's state moved to the neighbor *move (none where it is -1: the lane's walk
// has ended), whose costs are f: the CUDA twin of the O(kn)
// update in cpu.fill_state (the positions r, s exchanged in perm, rows and columns of Bp and BpT).
// The lane's state (its own arrays) moved by `move`, whose costs are f, by the block's threads.
// A 3-cycle (i, j, k) is the exchange (i, j), then (i, k).
__device__ void qap_apply_in(int* perm, VAL* cost, int* Bp, int* BpT, long long move, const VAL* f) {
    const Move mv = nbh_decode(move, N_FAC);
    qap_exchange(Bp, BpT, mv.i, mv.j);
#if NBH_ARITY == 3
    __syncthreads();  // the first exchange is whole before the second moves its rows and columns
    qap_exchange(Bp, BpT, mv.i, mv.k);
#endif
    if (threadIdx.x == 0) {
        exchange(perm, mv.i, mv.j);
#if NBH_ARITY == 3
        exchange(perm, mv.i, mv.k);
#endif
        for (int o = 0; o < N_OBJ; ++o) cost[o] = f[o];
    }
}

extern "C" __global__ void qap_apply(const int* A, const int* AT, int* perm, VAL* cost, int* Bp, int* BpT,
                                      const long long* move, const VAL* f) {
    perm = lane_state(perm); cost = lane_state(cost); Bp = lane_state(Bp); BpT = lane_state(BpT);
    if (move[blockIdx.y] < 0) return;
    qap_apply_in(perm, cost, Bp, BpT, move[blockIdx.y], f + blockIdx.y * N_OBJ);
}

#ifdef WALK_STEP
// Whole steps of tabu walks in one launch each (gpu_walk.py, KernelSet.walk_kernel), compiled after algorithms/tabu/walk.cu:
// each block offers its share of the moves to the selection (write_part), then the last block of each lane makes
// walk_step's choice and moves the lane's state (qap_apply's), so that a step is one kernel instead of three.
// Arguments: the state, n_moves (one chunk), c, threshold, step, the tabu memory, the blocks' parts, `done` (a
// counter per lane, zero), walk_step's outputs and arguments, then the walk memory D and `last` (per lane).
//
// qap_walk_step evaluates every move in O(n) (qap_select_part's share; D and last unused). qap_taillard_step
// updates as the CPU does (cpu.py): D (N_OBJ, n_moves per lane, wrapping like the sums above) keeps every
// move's deltas from step to step, and `last` says what moved since: FRESH at a walk's start (every delta
// afresh, in O(n) by its thread), UNCHANGED once the lane's walk has ended, else the swap (r, s) applied, after
// which a move disjoint from {r, s} takes its delta from D in O(1) and the 2n - 3 moves touching r or s are
// recomputed in O(n), each by a warp of its own. Its first ceil(n_moves / SEL_BLOCK) blocks hold a move per
// thread, the others a touching move per warp.
// With ROTS (Ro-TS's memory, elite/rots.py): each lane's table `left` (N_FAC x N_FAC) and its tenures, one per
// `every` steps (`slots` per lane, the last kept past them), instead of the tabu memory of moves.
#ifdef ROTS
#define ROTS_ARGS , int *rots_left, const long long *rots_tenure, long long rots_every, int rots_slots
#define ROTS_PASS , rots_left, rots_tenure, rots_every, rots_slots
#else
#define ROTS_ARGS
#define ROTS_PASS
#endif
#define WALK_STEP_ARGS                                                                                            \
    const int *A, const int *AT, int *perm, VAL *cost, int *Bp, int *BpT, long long n_moves, const double *c,    \
        double *threshold, long long *step, TABU *forbidden_until, double *part_s, long long *part_i,           \
        FVAL *part_f, unsigned int *done, long long *out_id, double *out_score, FVAL *out_f,                   \
        const long long *limit, const long long *tenure, long long *trail_id, double *trail_score,            \
        FVAL *trail_f, int trail_stride, UVAL *D, long long *last ROTS_ARGS

// The end of a step, once the block's part is written: in the lane's last block, walk_step's choice and the
// lane's state moved; the move taken (-1: the lane's walk has ended) there, -2 (none) in the other blocks.
__device__ long long end_step(WALK_STEP_ARGS) {
    if (!last_block_of_lane(done)) return -2;
    walk_step_in(part_s, part_i, part_f, gridDim.x, out_id, out_score, out_f, threshold, step, limit, tenure,
                 forbidden_until, N_FAC, n_moves, trail_id, trail_score, trail_f, trail_stride);
    __syncthreads();  // the choice is written
    const long long move = out_id[blockIdx.y];
#ifdef ROTS
    if (move >= 0 && threadIdx.x == 0) {  // before qap_apply_in's thread 0 exchanges perm
        const Move mv = nbh_decode(move, N_FAC);
        int* left = rots_left + (long long)blockIdx.y * N_FAC * N_FAC;
        left[perm[mv.i] * N_FAC + mv.i] = left[perm[mv.j] * N_FAC + mv.j] = (int)step[blockIdx.y];  // step + 1
    }
#endif
    if (move >= 0) qap_apply_in(perm, cost, Bp, BpT, move, out_f + blockIdx.y * N_OBJ);
    return move;
}

// The lane's admission rule at its step (perm: the lane's).
#ifdef ROTS
#define LANE_ADMISSION                                                                                          \
    Admission{perm, rots_left + (long long)blockIdx.y * N_FAC * N_FAC,                                        \
              *lane_step - rots_tenure[blockIdx.y * rots_slots + min(*lane_step / rots_every, rots_slots - 1LL)]}
#else
#define LANE_ADMISSION Admission{forbidden_until + blockIdx.y * n_moves, *lane_step}
#endif

#define WALK_STEP_PASS                                                                                          \
    A, AT, perm, cost, Bp, BpT, n_moves, c, threshold, step, forbidden_until, part_s, part_i, part_f, done,      \
        out_id, out_score, out_f, limit, tenure, trail_id, trail_score, trail_f, trail_stride, D, last ROTS_PASS

// The lane's parameters and parts (select_lane), as `lane_c` ... `lane_f`.
#define LANE_PARAMETERS                                                                                         \
    const double* lane_c = c;                                                                                   \
    const double* lane_threshold = threshold;                                                                   \
    const long long* lane_step = step;                                                                          \
    double* lane_s = part_s;                                                                                    \
    long long* lane_i = part_i;                                                                                 \
    FVAL* lane_f = part_f;                                                                                      \
    select_lane(lane_c, lane_threshold, lane_step, lane_s, lane_i, lane_f)

extern "C" __global__ void __launch_bounds__(SEL_BLOCK) qap_walk_step(WALK_STEP_ARGS) {
    perm = lane_state(perm); cost = lane_state(cost); Bp = lane_state(Bp); BpT = lane_state(BpT);
    QAP_STAGE_FLOWS
    LANE_PARAMETERS;
    qap_select_part(A, AT, cost, Bp, BpT, n_moves, 0, lane_c, lane_threshold, LANE_ADMISSION, lane_s, lane_i, lane_f);
    end_step(WALK_STEP_PASS);
}

#if NBH_ARITY == 2  // Taillard's update is a swap's (3-exchange walks with qap_walk_step)
#define FRESH -1LL
#define UNCHANGED -2LL

// The id of the swap of positions u < v.
__device__ __forceinline__ long long swap_id(int u, int v) { return nbh_row_start(u, N_FAC) + v - u - 1; }

// The w-th of the 2 N_FAC - 3 swaps touching r or s (r < s): (q, r) and (q, s) for each q outside {r, s}
// in turn, then (r, s).
__device__ __forceinline__ long long touching_swap(int w, int r, int s) {
    if (w == 2 * (N_FAC - 2)) return swap_id(r, s);
    int q = w / 2;
    q += q >= r;
    q += q >= s;
    const int z = w % 2 ? s : r;
    return swap_id(min(q, z), max(q, z));
}

// The thread's move (a block of moves) or its warp's touching move: its deltas brought up to date in D, its
// costs offered. D and the admission rule are the lane's.
__device__ __forceinline__ void walk_offer(const int* A, const int* AT, const VAL* cost, const int* Bp,
                                           const int* BpT, long long n_moves, long long last, UVAL* D,
                                           const double* c, double thr, const Admission adm, double& bs, long long& bi, FVAL (&bf)[N_OBJ], double& as,
                                           long long& ai, FVAL (&af)[N_OBJ]) {
    const long long row_blocks = (n_moves + SEL_BLOCK - 1) / SEL_BLOCK;
    VAL f[N_OBJ];
    if (blockIdx.x < row_blocks) {
        const long long t = (long long)blockIdx.x * SEL_BLOCK + threadIdx.x;
        if (t >= n_moves) return;
        const Move mv = nbh_decode(t, N_FAC);
        const Move applied = last >= 0 ? nbh_decode(last, N_FAC) : Move{-1, -1};
        if (mv.i == applied.i || mv.i == applied.j || mv.j == applied.i || mv.j == applied.j) return;
        for (int o = 0; o < N_OBJ; ++o) {
            const int* a = A + o * N_FAC * N_FAC;
            const int* at = AT + o * N_FAC * N_FAC;
            UVAL d = D[o * n_moves + t];
            if (last == FRESH) d = move_delta<1>(a, at, Bp, BpT, mv.i, mv.j, 0);
            else if (last >= 0) d += taillard_change(a, at, Bp, BpT, applied.i, applied.j, mv.i, mv.j);
            D[o * n_moves + t] = d;
            f[o] = (VAL)((UVAL)cost[o] + d);
        }
        offer(t, f, c, thr, admissible(adm, t, mv), bs, bi, bf, as, ai, af);
        return;
    }
    const int w = (int)((blockIdx.x - row_blocks) * (SEL_BLOCK / 32) + threadIdx.x / 32), lane = threadIdx.x % 32;
    if (last < 0 || w >= 2 * N_FAC - 3) return;  // the same in the whole warp
    const Move applied = nbh_decode(last, N_FAC);
    const long long t = touching_swap(w, applied.i, applied.j);
    const Move mv = nbh_decode(t, N_FAC);
    for (int o = 0; o < N_OBJ; ++o) {
        const UVAL d = move_delta<32>(A + o * N_FAC * N_FAC, AT + o * N_FAC * N_FAC, Bp, BpT, mv.i, mv.j, lane);
        if (lane == 0) D[o * n_moves + t] = d;
        f[o] = (VAL)((UVAL)cost[o] + d);
    }
    if (lane == 0) offer(t, f, c, thr, admissible(adm, t, mv), bs, bi, bf, as, ai, af);
}

extern "C" __global__ void __launch_bounds__(SEL_BLOCK) qap_taillard_step(WALK_STEP_ARGS) {
    perm = lane_state(perm); cost = lane_state(cost); Bp = lane_state(Bp); BpT = lane_state(BpT);
    QAP_STAGE_FLOWS
    LANE_PARAMETERS;
    double bs = SEL_INF, as = SEL_INF;
    long long bi = NO_ID, ai = NO_ID;
    FVAL bf[N_OBJ], af[N_OBJ];
    walk_offer(A, AT, cost, Bp, BpT, n_moves, last[blockIdx.y], D + blockIdx.y * N_OBJ * n_moves, lane_c,
               *lane_threshold, LANE_ADMISSION, bs, bi, bf, as, ai, af);
    write_part(bs, bi, bf, as, ai, af, lane_s, lane_i, lane_f);
    const long long move = end_step(WALK_STEP_PASS);
    if (move != -2 && threadIdx.x == 0) last[blockIdx.y] = move >= 0 ? move : UNCHANGED;
}
#endif
#endif

// Whole permutations, one thread each (backends/population.py): F (pop, N_OBJ) of X (pop, N_FAC), cost o =
// sum_ij A[o][i][j] B[x[i]][x[j]], the twin of Qap._evaluate. B (N_FAC, N_FAC): the distances. Every
// partial sum is bounded by objective_dtype's bound, so 64-bit sums are exact.
extern "C" __global__ void __launch_bounds__(BLOCK) qap_population(
    const int* __restrict__ A, const int* __restrict__ B, const int* __restrict__ X, VAL* __restrict__ F,
    long long pop) {
    const long long b = (long long)blockIdx.x * BLOCK + threadIdx.x;
    if (b >= pop) return;
    const int* x = X + b * N_FAC;
    for (int o = 0; o < N_OBJ; ++o) {
        const int* a = A + o * N_FAC * N_FAC;
        long long total = 0;
        for (int i = 0; i < N_FAC; ++i) {
            const int* row = B + x[i] * N_FAC;
            for (int j = 0; j < N_FAC; ++j) total += (long long)a[i * N_FAC + j] * row[x[j]];
        }
        F[b * N_OBJ + o] = (VAL)total;
    }
}
