// Non-dominance filter of a batch of candidates against an archive, the device twin of Archive.add (host.py).
// Needs #define N_OBJ (k) and FVAL (the objectives' C type; all minimised). One thread a row; the rows it is
// compared with are staged through shared memory in tiles of BLOCK. The kernels' sequence: docs/internals.md.
#define BLOCK 256
#ifndef SCAN  // resident.cu's module, which includes this file, sets its own
#define SCAN 1024
#endif

__device__ __forceinline__ void load_row(const FVAL* F, long long row, FVAL* f) {
    for (int o = 0; o < N_OBJ; ++o) f[o] = F[row * N_OBJ + o];
}

// a <= f in every objective; eq: a == f.
__device__ __forceinline__ bool no_worse(const FVAL* a, const FVAL* f, bool& eq) {
    bool le = true;
    eq = true;
    for (int o = 0; o < N_OBJ; ++o) {
        le &= a[o] <= f[o];
        eq &= a[o] == f[o];
    }
    return le;
}

// Row `row` of F into the tile's row threadIdx.x, for the first `rows` threads; then a barrier.
__device__ __forceinline__ void stage(FVAL* tile, const FVAL* F, long long row, int rows) {
    if (threadIdx.x < rows) load_row(F, row, tile + threadIdx.x * N_OBJ);
    __syncthreads();
}

// strictly dominates f: a <= f in every objective and a != f.
__device__ __forceinline__ bool dominates_vector(const FVAL* a, const FVAL* f) {
    bool eq;
    return no_worse(a, f, eq) && !eq;
}

// Whether candidate row (its vector f_row) is one to filter: all are, or with *use_f only those that
// dominate f (PLS-√ offers the archive only neighbors that dominate the current solution); none where
// *active is 0 (an iteration of Pareto local search on the device that has no member to explore).
__device__ __forceinline__ bool seeded(const FVAL* f_row, const int* use_f, const FVAL* f, const int* active) {
    return *active && (!*use_f || dominates_vector(f_row, f));
}

// killed[t] = 1 where candidate lo + t (t < n) is one to filter (seeded) and a member of A (*m, k) weakly
// dominates it; killed is 0 elsewhere before (flag_and_count clears it again). Block (x, y) takes BLOCK
// candidates and the y-th of gridDim.y slices of whole tiles of A, so that a small batch against a large
// archive still fills the device.
extern "C" __global__ void __launch_bounds__(BLOCK) against_archive(
    const FVAL* F, long long lo, long long n, const int* use_f, const FVAL* f_cur, const int* active, const FVAL* A,
    const long long* m_ptr, unsigned char* killed) {
    __shared__ FVAL tile[BLOCK * N_OBJ];
    long long t = (long long)blockIdx.x * BLOCK + threadIdx.x, m = *m_ptr;
    long long per = ((m + BLOCK - 1) / BLOCK + gridDim.y - 1) / gridDim.y * BLOCK;
    long long begin = blockIdx.y * per, end = min(m, begin + per);
    FVAL f[N_OBJ];
    if (t < n) load_row(F, lo + t, f);
    const bool seed = t < n && seeded(f, use_f, f_cur, active);
    bool alive = seed, eq;
    for (long long start = begin; start < end && __syncthreads_or(alive); start += BLOCK) {
        int rows = (int)min((long long)BLOCK, end - start);
        stage(tile, A, start + threadIdx.x, rows);
        for (int r = 0; alive && r < rows; ++r) alive = !no_worse(tile + r * N_OBJ, f, eq);
    }
    if (seed && !alive) killed[t] = 1;
}

// keep[t]: candidate lo + t (t < n) is seeded and no member killed it (against_archive); killed[t] back to 0;
// counts[block]: the flagged rows of the block.
extern "C" __global__ void __launch_bounds__(BLOCK) flag_and_count(
    const FVAL* F, long long lo, long long n, const int* use_f, const FVAL* f_cur, const int* active,
    unsigned char* killed, unsigned char* keep, int* counts) {
    long long t = (long long)blockIdx.x * BLOCK + threadIdx.x;
    bool flag = false;
    if (t < n) {
        FVAL f[N_OBJ];
        load_row(F, lo + t, f);
        flag = seeded(f, use_f, f_cur, active) && !killed[t];
        keep[t] = flag;
        killed[t] = 0;
    }
    int count = __syncthreads_count(flag);
    if (threadIdx.x == 0) counts[blockIdx.x] = count;
}

// keep[t]: no survivor beats survivor lo + t, for t < n; survivors are the first *n_surv rows of F
// listed in surv, by increasing id. s beats t: F[s] dominates F[t], or equals it and comes first.
extern "C" __global__ void __launch_bounds__(BLOCK) against_survivors(
    const FVAL* F, const long long* surv, const long long* n_surv, long long lo, long long n,
    unsigned char* keep, int* counts) {
    __shared__ FVAL tile[BLOCK * N_OBJ];
    long long total = *n_surv, t = lo + (long long)blockIdx.x * BLOCK + threadIdx.x;
    bool alive = t < total && t < lo + n, eq;
    FVAL f[N_OBJ];
    if (alive) load_row(F, surv[t], f);
    for (long long start = 0; start < total && __syncthreads_or(alive); start += BLOCK) {
        int rows = (int)min((long long)BLOCK, total - start);
        stage(tile, F, threadIdx.x < rows ? surv[start + threadIdx.x] : 0, rows);
        for (int r = 0; alive && r < rows; ++r) alive = !(no_worse(tile + r * N_OBJ, f, eq) && (!eq || start + r < t));
    }
    if (t < lo + n) keep[t - lo] = alive;
    int count = __syncthreads_count(alive);
    if (threadIdx.x == 0) counts[blockIdx.x] = count;
}

// offsets[b] = *total + counts[0] + ... + counts[b - 1] for b < n_blocks; then *total grows by the
// sum of all. One block: each thread sums a segment, a Hillis-Steele scan adds the segments up.
extern "C" __global__ void __launch_bounds__(SCAN) scan_counts(
    const int* counts, long long n_blocks, long long* offsets, long long* total) {
    __shared__ long long sums[SCAN];
    long long base = *total, per = (n_blocks + SCAN - 1) / SCAN;
    long long begin = min(threadIdx.x * per, n_blocks), end = min(begin + per, n_blocks), own = 0;
    for (long long b = begin; b < end; ++b) own += counts[b];
    sums[threadIdx.x] = own;
    __syncthreads();
    for (int h = 1; h < SCAN; h <<= 1) {
        long long add = threadIdx.x >= h ? sums[threadIdx.x - h] : 0;
        __syncthreads();
        sums[threadIdx.x] += add;
        __syncthreads();
    }
    long long offset = base + sums[threadIdx.x] - own;
    for (long long b = begin; b < end; ++b) {
        offsets[b] = offset;
        offset += counts[b];
    }
    if (threadIdx.x == SCAN - 1) *total = base + sums[SCAN - 1];
}

// The rank of this thread's flag among the flagged threads of its block (a barrier inside).
__device__ __forceinline__ int block_rank(bool flagged) {
    __shared__ int warp_counts[BLOCK / 32];
    unsigned int ballot = __ballot_sync(0xffffffffu, flagged);
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (lane == 0) warp_counts[warp] = __popc(ballot);
    __syncthreads();
    int rank = __popc(ballot & ((1u << lane) - 1u));
    for (int w = 0; w < warp; ++w) rank += warp_counts[w];
    return rank;
}

// out[offsets[block] + rank of t among the flagged rows of its block] = lo + t, for flagged t < n.
extern "C" __global__ void __launch_bounds__(BLOCK) scatter(
    const unsigned char* keep, long long n, const long long* offsets, long long lo, long long* out) {
    long long t = (long long)blockIdx.x * BLOCK + threadIdx.x;
    bool flagged = t < n && keep[t];
    int rank = block_rank(flagged);
    if (flagged) out[offsets[blockIdx.x] + rank] = lo + t;
}

// scan_counts and scatter in one launch, for the first chunk (lo = 0) of a list whose *total is 0 before:
// each block adds up the counts of the blocks before it, and the last block sets *total.
extern "C" __global__ void __launch_bounds__(BLOCK) scatter_first(
    const unsigned char* keep, long long n, const int* counts, long long* out, long long* total) {
    __shared__ long long before[BLOCK / 32];
    long long own = 0, offset = 0;
    for (int b = threadIdx.x; b < blockIdx.x; b += BLOCK) own += counts[b];
    for (int h = 16; h > 0; h >>= 1) own += __shfl_down_sync(0xffffffffu, own, h);
    if (threadIdx.x % 32 == 0) before[threadIdx.x / 32] = own;
    __syncthreads();
    for (int w = 0; w < BLOCK / 32; ++w) offset += before[w];
    long long t = (long long)blockIdx.x * BLOCK + threadIdx.x;
    bool flagged = t < n && keep[t];
    int rank = block_rank(flagged);
    if (flagged) out[offset + rank] = t;
    if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0) *total = offset + counts[blockIdx.x];
}

// removed[a]: some accepted candidate dominates member a of A (*m, k). The *n_acc accepted candidates
// are surv[acc[0]], surv[acc[1]], ...; none equals a member, so "no worse" means "dominates".
extern "C" __global__ void __launch_bounds__(BLOCK) mark_removed(
    const FVAL* A, const long long* m_ptr, const FVAL* F, const long long* surv, const long long* acc,
    const long long* n_acc, unsigned char* removed) {
    __shared__ FVAL tile[BLOCK * N_OBJ];
    long long m = *m_ptr, total = *n_acc, a = (long long)blockIdx.x * BLOCK + threadIdx.x;
    bool gone = false, eq;
    FVAL f[N_OBJ];
    if (a < m) load_row(A, a, f);
    for (long long start = 0; start < total && __syncthreads_or(a < m && !gone); start += BLOCK) {
        int rows = (int)min((long long)BLOCK, total - start);
        stage(tile, F, threadIdx.x < rows ? surv[acc[start + threadIdx.x]] : 0, rows);
        for (int r = 0; a < m && !gone && r < rows; ++r) gone = no_worse(tile + r * N_OBJ, f, eq);
    }
    if (a < m) removed[a] = gone;
}

// The result for the copy back: *out_count, then the ids and rows of the first min(*n_acc, cap)
// accepted candidates.
extern "C" __global__ void __launch_bounds__(BLOCK) pack(
    const FVAL* F, const long long* surv, const long long* acc, const long long* n_acc, long long cap,
    long long* out_count, long long* out_ids, FVAL* out_F) {
    long long n = min(*n_acc, cap);
    for (long long t = (long long)blockIdx.x * BLOCK + threadIdx.x; t < n; t += (long long)gridDim.x * BLOCK) {
        long long id = surv[acc[t]];
        out_ids[t] = id;
        load_row(F, id, out_F + t * N_OBJ);
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) *out_count = *n_acc;
}

// The archive A (*m, k) updated in place, as Archive.replace: the members not removed, in order, then
// the accepted candidates, when they fit in `capacity` rows (else the host appends them). One block:
// tile by tile, every thread reads its row before any thread writes, and rows only move down.
// update_members' work, for a block of SCAN threads (resident.cu's settle_iteration calls it too).
__device__ void update_members_in(
    FVAL* A, const long long* m_ptr, const unsigned char* removed, const FVAL* F, const long long* surv,
    const long long* acc, const long long* n_acc, long long capacity) {
    __shared__ int warp_counts[SCAN / 32];
    long long m = *m_ptr, kept = 0, accepted = *n_acc;
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    for (long long start = 0; start < m; start += SCAN) {
        long long a = start + threadIdx.x;
        bool stays = a < m && !removed[a];
        FVAL row[N_OBJ];
        if (stays) load_row(A, a, row);
        unsigned int ballot = __ballot_sync(0xffffffffu, stays);
        if (lane == 0) warp_counts[warp] = __popc(ballot);
        __syncthreads();
        long long rank = kept + __popc(ballot & ((1u << lane) - 1u));
        int in_tile = 0;
        for (int w = 0; w < SCAN / 32; ++w) {
            rank += w < warp ? warp_counts[w] : 0;
            in_tile += warp_counts[w];
        }
        if (stays) for (int o = 0; o < N_OBJ; ++o) A[rank * N_OBJ + o] = row[o];
        kept += in_tile;
        __syncthreads();
    }
    if (kept + accepted > capacity) return;
    for (long long t = threadIdx.x; t < accepted; t += SCAN) load_row(F, surv[acc[t]], A + (kept + t) * N_OBJ);
}

extern "C" __global__ void __launch_bounds__(SCAN) update_members(
    FVAL* A, const long long* m_ptr, const unsigned char* removed, const FVAL* F, const long long* surv,
    const long long* acc, const long long* n_acc, long long capacity) {
    update_members_in(A, m_ptr, removed, F, surv, acc, n_acc, capacity);
}
