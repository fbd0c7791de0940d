// Rounds of Ro-TS walks (-a elite's, algorithms/elite), one block per walk and a whole round of its steps in one
// launch: the walk's Bp, Ro-TS table and every swap's delta (Taillard's update) in shared memory. Compiled after
// qap.cu (swaps, one objective); the CPU twin is elite/rots.py's RotsWalk, step for step (docs/internals.md).

// (s, i) before (t, j): the lower score, then the lower id; an id of -1 is none, after every other.
__device__ __forceinline__ bool round_before(VAL s, long long i, VAL t, long long j) {
    return i >= 0 && (j < 0 || s < t || (s == t && i < j));
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
    const int n = N_FAC, T = blockDim.x, tid = threadIdx.x;
    const long long w = blockIdx.x, M = (long long)n * (n - 1) / 2;
    UVAL* D = (UVAL*)shared;
    long long* red_i = shared + (M * (long long)sizeof(UVAL) + 7) / 8;  // 8-byte aligned whatever M and VAL
    VAL* red_s = (VAL*)(red_i + 2 * T);
    int* Bp = (int*)(red_s + 2 * T);
    int* BpT = Bp + (SYMMETRIC ? 0 : n * n);
    int* left = BpT + n * n;
    int* perm = left + n * n;
    __shared__ VAL cost, threshold, best;
    __shared__ int last_r, last_s, improved;
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
    for (long long step = 0; step < lengths[w]; ++step) {
        const long long recent = step - tenures[w * slots + min(step / every, (long long)slots - 1)];
        const int r = last_r, s = last_s;
        VAL bs = 0, as = 0;
        long long bi = -1, ai = -1;
        for (long long t = tid; t < M; t += T) {
            const Move mv = nbh_decode(t, n);
            UVAL d;
            const bool touching = r < 0 || mv.i == r || mv.i == s || mv.j == r || mv.j == s;  // or the first step
            if (touching) d = move_delta<1>(A, AT, Bp, BpT, mv.i, mv.j, 0);
            else d = D[t] + taillard_change(A, AT, Bp, BpT, r, s, mv.i, mv.j);
            D[t] = d;
            const VAL f = (VAL)((UVAL)cost + d);
            if (ai < 0 || f < as) { as = f; ai = t; }
            if ((bi < 0 || f < bs) && (left[perm[mv.j] * n + mv.i] <= recent || left[perm[mv.i] * n + mv.j] <= recent
                                       || f < threshold)) { bs = f; bi = t; }
        }
        red_s[tid] = bs; red_i[tid] = bi; red_s[T + tid] = as; red_i[T + tid] = ai;
        round_reduce(red_s, red_i);
        if (tid == 0) {
            const int k = red_i[0] >= 0 ? 0 : T;  // the best admissible swap, else the best of all
            const VAL f = red_s[k];
            const Move mv = nbh_decode(red_i[k], n);
            left[perm[mv.i] * n + mv.i] = left[perm[mv.j] * n + mv.j] = (int)(step + 1);
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
