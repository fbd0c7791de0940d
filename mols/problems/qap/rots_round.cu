// Rounds of Ro-TS walks (-a elite's, algorithms/elite), one block per walk and a whole round of its steps in one
// launch: the walk's Bp, Ro-TS table and every swap's delta (Taillard's update) in shared memory. Compiled after
// qap.cu (swaps, one objective); the CPU twin is elite/rots.py's RotsWalk, step for step (docs/internals.md).
#define ROUND_SWAPS (N_FAC * (N_FAC - 1) / 2)
#define ROUND_PAIRS ((ROUND_SWAPS + ROUND_THREADS - 1) / ROUND_THREADS)  // swaps a thread keeps decoded

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

// The block's best (score, id) pairs, each thread's in (s[tid], i[tid]) for the two choices (k = 0: admissible,
// 1: any), reduced into entry 0 of each (blockDim.x a power of two).
__device__ void round_reduce(VAL* s, long long* i) {
    const int tid = threadIdx.x, T = blockDim.x;
    for (int h = T / 2; h > 0; h >>= 1) {
        __syncthreads();
        if (tid < h) {
            for (int k = 0; k < 2; ++k) {
                const int a = k * T + tid, b = a + h;
                if (round_before(s[b], i[b], s[a], i[a])) { s[a] = s[b]; i[a] = i[b]; }
            }
        }
    }
    __syncthreads();
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
    long long* red_i = shared + (M * (long long)sizeof(UVAL) + 7) / 8;  // 8-byte aligned whatever M and VAL
    VAL* red_s = (VAL*)(red_i + 2 * T);
    int* Bp = (int*)(red_s + 2 * T);
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
    UVAL* sums = (UVAL*)red_i;
    UVAL part = 0;
    for (int q = tid; q < n * n; q += T) {
        const int i = q / n, j = q % n;
        Bp[q] = B[perm[i] * n + perm[j]];
#if !SYMMETRIC
        BpT[q] = B[perm[j] * n + perm[i]];
#endif
        part += (UVAL)A[q] * (UVAL)Bp[q];
    }
    sums[tid] = part;
    for (int h = T / 2; h > 0; h >>= 1) {  // the start's cost, summed over the block
        __syncthreads();
        if (tid < h) sums[tid] += sums[tid + h];
    }
    __syncthreads();
    if (tid == 0) {
        cost = (VAL)sums[0];
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
        // The swaps that touch the last one (every swap at the first step) afresh, a thread each: neighbouring
        // threads take neighbouring positions, so that their reads of A's columns coalesce.
        for (int q = tid; q < (r < 0 ? M : 2 * n - 3); q += T) {
            const Move mv = r < 0 ? nbh_decode(q, n) : round_touching(q, r, s, n);
            const int t = (int)nbh_row_start(mv.i, n) + mv.j - mv.i - 1;
            const UVAL d = move_delta<1>(A, AT, Bp, BpT, mv.i, mv.j, 0);
            D[t] = d;
            round_offer(t, mv, d, c, thr, left, perm, recent, bs, bi, as, ai);
        }
        red_s[tid] = bs; red_i[tid] = bi; red_s[T + tid] = as; red_i[T + tid] = ai;
        round_reduce(red_s, red_i);
        if (tid == 0) {
            const int k = red_i[0] >= 0 ? 0 : T;  // the best admissible swap, else the best of all
            const VAL f = red_s[k];
            const Move mv = nbh_decode(red_i[k], n);
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
