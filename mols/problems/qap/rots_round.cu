// Rounds of Ro-TS walks (-a elite's, algorithms/elite), one block per walk and a whole round of its steps in one
// launch: the walk's Bp, Ro-TS table and every swap's delta (Taillard's update) in shared memory. Compiled after
// qap.cu (swaps, one objective); the CPU twin is elite/rots.py's RotsWalk, step for step (docs/internals.md).
#define ROUND_SWAPS (N_FAC * (N_FAC - 1) / 2)
#define ROUND_PAIRS ((ROUND_SWAPS + ROUND_THREADS - 1) / ROUND_THREADS)  // swaps a thread keeps decoded
#define ROUND_TOUCHING (2 * N_FAC - 3)  // the swaps that touch the last one, recomputed at each step
#define ROUND_LANES (ROUND_THREADS < 32 ? ROUND_THREADS : 32)  // a warp's (the simulation's blocks may be smaller)
#define ROUND_WARPS ((ROUND_THREADS + 31) / 32)

// Threads that share a touching swap's O(n) sum: as many as the block has for each (a power of two within a warp),
// so that the step's longest loop is short.
constexpr int round_split() {
    int split = 1;
    while (2 * split <= ROUND_LANES && 2 * split * ROUND_TOUCHING <= ROUND_THREADS) split *= 2;
    return split;
}

// (s, i) before (t, j): the lower score, then the lower id; an id of -1 is none, after every other.
template <class I> __device__ __forceinline__ bool round_before(VAL s, I i, VAL t, I j) {
    return i >= 0 && (j < 0 || s < t || (s == t && i < j));
}

// A swap kept as i << 16 | j (the kernel's pairs).
__device__ __forceinline__ Move round_pair(int packed) {
    Move mv;
    mv.i = packed >> 16;
    mv.j = packed & 0xFFFF;
    return mv;
}

// The q-th swap (0 <= q < 2n - 3) that touches positions r and s: (r, j) for the n - 1 positions j other than r,
// then (s, j) for the n - 2 other than r and s; as (lower, higher).
__device__ __forceinline__ Move round_touching(int q, int r, int s, int n) {
    int p = r, j = q < r ? q : q + 1;
    if (q >= n - 1) {
        p = s;
        j = q - (n - 1);
        if (j >= min(r, s)) ++j;
        if (j >= max(r, s)) ++j;
    }
    Move mv;
    mv.i = min(p, j);
    mv.j = max(p, j);
    return mv;
}

// Swap t (mv) of delta d offered to the thread's best pairs: (as, ai) of all, (bs, bi) of the admissible: one of
// the values it places left its new position at step `recent` or before, or its cost is below the threshold.
__device__ __forceinline__ void round_offer(int t, Move mv, UVAL d, VAL cost, VAL threshold, const int* left,
                                            const int* perm, int recent, VAL& bs, int& bi, VAL& as, int& ai) {
    const int n = N_FAC;
    const VAL f = (VAL)((UVAL)cost + d);
    if (round_before(f, t, as, ai)) { as = f; ai = t; }
    if (round_before(f, t, bs, bi) && (left[perm[mv.j] * n + mv.i] <= recent || left[perm[mv.i] * n + mv.j] <= recent
                                       || f < threshold)) { bs = f; bi = t; }
}

// The best (score, id) pair of the warp's lanes, in each of them: a warp-wide butterfly.
__device__ __forceinline__ void round_warp_best(VAL& s, int& i) {
#pragma unroll
    for (int h = ROUND_LANES / 2; h > 0; h >>= 1) {
        const VAL t = __shfl_xor_sync(0xffffffffu, s, h);
        const int j = __shfl_xor_sync(0xffffffffu, i, h);
        if (round_before(t, j, s, i)) { s = t; i = j; }
    }
}

// The block's best admissible (bs, bi) and best of all (as, ai) pairs, in warp 0: each warp's (its lane 0's into
// red_s and red_i), then the warps'. One barrier.
__device__ __forceinline__ void round_block_best(VAL& bs, int& bi, VAL& as, int& ai, VAL* red_s, int* red_i) {
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    round_warp_best(bs, bi);
    round_warp_best(as, ai);
    if (lane == 0) {
        red_s[warp] = bs; red_i[warp] = bi;
        red_s[ROUND_WARPS + warp] = as; red_i[ROUND_WARPS + warp] = ai;
    }
    __syncthreads();
    if (warp == 0) {
        bi = ai = -1;
        if (lane < ROUND_WARPS) {
            bs = red_s[lane]; bi = red_i[lane];
            as = red_s[ROUND_WARPS + lane]; ai = red_i[ROUND_WARPS + lane];
        }
        round_warp_best(bs, bi);
        round_warp_best(as, ai);
    }
}

// Walk blockIdx.x: lengths[w] steps from perms[w], its table lefts[w] (n x n: the step at which
// value v last left position q, relative to the round's step 0) and tenures (slots per walk, one per `every`
// steps, the last kept after them); a swap is admissible where one of the values it places left its new position
// at step - tenure or before, or its cost is below the threshold (the walk's best). Leaves the walk's perm, cost,
// table and threshold where the round ends (its cost in costs[w]), and its best cost and perm, where it beat
// best_costs[w], in best_*.
extern "C" __global__ void __launch_bounds__(ROUND_THREADS) qap_rots_round(
    const int* __restrict__ A, const int* __restrict__ AT, const int* __restrict__ B, int* perms, VAL* costs,
    int* lefts, const long long* tenures, int slots, long long every, const long long* lengths, VAL* thresholds,
    int* best_perms, VAL* best_costs) {
    extern __shared__ long long shared[];
    const int n = N_FAC, T = ROUND_THREADS, tid = threadIdx.x, M = ROUND_SWAPS;
    const long long w = blockIdx.x;
    UVAL* D = (UVAL*)shared;
    VAL* red_s = (VAL*)(shared + (M * (long long)sizeof(UVAL) + 7) / 8);  // 8-byte aligned whatever M and VAL
    int* red_i = (int*)(red_s + 2 * ROUND_WARPS);
    int* Bp = red_i + 2 * ROUND_WARPS;
    int* BpT = Bp + (SYMMETRIC ? 0 : n * n);
    int* left = BpT + n * n;
    int* perm = left + n * n;
    __shared__ VAL cost, threshold, best;
    __shared__ int last_r, last_s, improved;
    int pairs[ROUND_PAIRS];  // the thread's swaps t = tid + k T, as i << 16 | j, decoded once
#pragma unroll
    for (int k = 0; k < ROUND_PAIRS; ++k) {
        const Move mv = nbh_decode(min(tid + k * T, M - 1), n);
        pairs[k] = mv.i << 16 | mv.j;
    }
    for (int q = tid; q < n; q += T) perm[q] = perms[w * n + q];
    for (int q = tid; q < n * n; q += T) left[q] = lefts[w * n * n + q];
    __syncthreads();
    UVAL* sums = (UVAL*)red_s;  // a warp's part of the start's cost
    UVAL part = 0;
    for (int q = tid; q < n * n; q += T) {
        const int i = q / n, j = q % n;
        Bp[q] = B[perm[i] * n + perm[j]];
#if !SYMMETRIC
        BpT[q] = B[perm[j] * n + perm[i]];
#endif
        part += (UVAL)A[q] * (UVAL)Bp[q];
    }
    part = lanes_sum<ROUND_LANES>(part);
    if (tid % 32 == 0) sums[tid / 32] = part;
    __syncthreads();
    if (tid == 0) {
        for (int k = 1; k < ROUND_WARPS; ++k) part += sums[k];
        cost = (VAL)part;
        threshold = thresholds[w];
        best = best_costs[w];
        last_r = last_s = -1;  // every delta afresh at the first step
    }
    __syncthreads();
    const int length = (int)lengths[w], period = (int)every;  // a round's steps fit an int
    for (int step = 0; step < length; ++step) {
        const int recent = step - (int)tenures[w * slots + min(step / period, slots - 1)];
        const int r = last_r, s = last_s;
        const VAL c = cost, thr = threshold;  // in registers: the stores into D below may alias them
        VAL bs = 0, as = 0;
        int bi = -1, ai = -1;
        if (r >= 0) {  // Taillard's O(1) update of the swaps apart from the last one: every load before the stores
            UVAL d[ROUND_PAIRS];
#pragma unroll
            for (int k = 0; k < ROUND_PAIRS; ++k) {
                const Move mv = round_pair(pairs[k]);
                const int t = tid + k * T;
                if (t >= M || mv.i == r || mv.i == s || mv.j == r || mv.j == s) continue;
                d[k] = D[t] + taillard_change(A, AT, Bp, BpT, r, s, mv.i, mv.j);
                round_offer(t, mv, d[k], c, thr, left, perm, recent, bs, bi, as, ai);
            }
#pragma unroll
            for (int k = 0; k < ROUND_PAIRS; ++k) {
                const Move mv = round_pair(pairs[k]);
                const int t = tid + k * T;
                if (t < M && mv.i != r && mv.i != s && mv.j != r && mv.j != s) D[t] = d[k];
            }
        }
        if (r < 0) {  // the first step: every swap afresh
            for (int t = tid; t < M; t += T) {
                const Move mv = nbh_decode(t, n);
                const UVAL d = move_delta<1>(A, AT, Bp, BpT, mv.i, mv.j, 0);
                D[t] = d;
                round_offer(t, mv, d, c, thr, left, perm, recent, bs, bi, as, ai);
            }
        } else {  // the swaps that touch the last one afresh, each by round_split() neighbouring threads: neighbours
            // take neighbouring positions, so that their reads of A's columns coalesce. A warp goes round whole, as
            // the shuffles that sum a swap's parts ask.
            constexpr int split = round_split();
            for (int item = tid; item - tid % 32 < ROUND_TOUCHING * split; item += T) {
                const int q = item / split;
                const Move mv = round_touching(min(q, ROUND_TOUCHING - 1), r, s, n);
                const UVAL d = move_delta<split>(A, AT, Bp, BpT, mv.i, mv.j, item % split);
                if (q < ROUND_TOUCHING && item % split == 0) {
                    const int t = (int)nbh_row_start(mv.i, n) + mv.j - mv.i - 1;
                    D[t] = d;
                    round_offer(t, mv, d, c, thr, left, perm, recent, bs, bi, as, ai);
                }
            }
        }
        round_block_best(bs, bi, as, ai, red_s, red_i);
        if (tid == 0) {  // the best admissible swap, else the best of all
            const VAL f = bi >= 0 ? bs : as;
            const Move mv = nbh_decode(bi >= 0 ? bi : ai, n);
            left[perm[mv.i] * n + mv.i] = left[perm[mv.j] * n + mv.j] = step + 1;
            exchange(perm, mv.i, mv.j);
            cost = f;
            if (f < threshold) threshold = f;
            improved = f < best;
            if (improved) best = f;
            last_r = mv.i;
            last_s = mv.j;
        }
        __syncthreads();
        exchange_rows_columns(Bp, n, last_r, last_s);
#if !SYMMETRIC
        __syncthreads();
        exchange_rows_columns(BpT, n, last_r, last_s);
#endif
        if (improved) for (int q = tid; q < n; q += T) best_perms[w * n + q] = perm[q];
        __syncthreads();
    }
    for (int q = tid; q < n; q += T) perms[w * n + q] = perm[q];
    for (int q = tid; q < n * n; q += T) lefts[w * n * n + q] = left[q];
    if (tid == 0) {
        costs[w] = cost;
        thresholds[w] = threshold;
        best_costs[w] = best;
    }
}
