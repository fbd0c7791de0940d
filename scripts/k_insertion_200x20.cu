#define N_JOBS 200
#define N_MACH 20
#define VAL int
#define STAGE_SHARED 1
#define BLOCK 128
// Insertion moves, the CUDA twin of insertion.py (same ids, same moves).
struct Move { int i, j; };

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

// A whole flowshop neighborhood, one thread per move, generated from the thread id.
// Prepended by the host: the neighborhood header (Move, Segments, NBH_SEGMENTS, nbh_decode,
// nbh_first_changed, nbh_segments) and #define N_JOBS, N_MACH, VAL (int or long long), BLOCK,
// and STAGE_SHARED (1 when the tables fit in shared memory).
//
// The recursion runs in the offset form of state.py: per cell, e[i] = max(e[i-1], e[i] + d[i]),
// one DPX instruction on Hopper. Each thread keeps its row e in registers, starts from the current
// permutation's offsets eext[s] (s = first position the move changes) and walks positions s..n-1
// run by run: inside a run, consecutive jobs are consecutive in the current permutation and d is
// the tabulated row dpi; at a run's first position d is rebuilt from the prefix sums q.

// max(a + b, c): one VIADDMNMX instruction on Hopper for 32-bit values.
__device__ __forceinline__ int add_max(int a, int b, int c) { return __viaddmax_s32(a, b, c); }
__device__ __forceinline__ long long add_max(long long a, long long b, long long c) {
    return max(a + b, c);
}

struct Acc { VAL tardiness; int n_tardy; VAL last; };

// A row of N_MACH values into registers, 16 bytes per load when rows are 16-byte aligned.
__device__ __forceinline__ void load_row(VAL (&d)[N_MACH], const VAL* row) {
    if constexpr ((N_MACH * sizeof(VAL)) % 16 == 0) {
        constexpr int W = 16 / sizeof(VAL);
#pragma unroll
        for (int i = 0; i < N_MACH; i += W) {
            const int4 v = *reinterpret_cast<const int4*>(row + i);
            memcpy(&d[i], &v, 16);
        }
    } else {
#pragma unroll
        for (int i = 0; i < N_MACH; ++i) d[i] = row[i];
    }
}

// One position: e[i] = max(e[i-1], e[i] + d[i]); `slack` = due date - total processing time of
// the job, so that its lateness is e[N_MACH-1] - slack.
__device__ __forceinline__ void step(VAL (&e)[N_MACH], const VAL (&d)[N_MACH], VAL slack, Acc& acc) {
    VAL left = e[0] + d[0];
    e[0] = left;
#pragma unroll
    for (int i = 1; i < N_MACH; ++i) {
        left = add_max(e[i], (VAL)d[i], left);
        e[i] = left;
    }
    VAL late = left - slack;
    acc.tardiness += late > 0 ? late : 0;
    acc.n_tardy += late > 0;
    acc.last = left;
}

extern "C" __global__ void __launch_bounds__(BLOCK) flowshop_neighborhood(
    const VAL* __restrict__ q,        // (N_JOBS + 1, N_MACH) prefix sums over machines; last row 0
    const VAL* __restrict__ due,      // (N_JOBS,)
    const int* __restrict__ perm,     // (N_JOBS,) current permutation
    const VAL* __restrict__ eext,     // (N_JOBS + 1, N_MACH) offsets of the current prefixes
    const VAL* __restrict__ pref_t,   // (N_JOBS + 1,) prefix total tardiness
    const int* __restrict__ pref_u,   // (N_JOBS + 1,) prefix number of tardy jobs
    const VAL* __restrict__ dpi,      // (N_JOBS, N_MACH) D rows of consecutive jobs of perm
    VAL* __restrict__ F,              // (n_moves, 3)
    long long n_moves)
{
#if STAGE_SHARED
    __shared__ __align__(16) VAL s_q[(N_JOBS + 1) * N_MACH];
    __shared__ __align__(16) VAL s_dpi[N_JOBS * N_MACH];
    for (int x = threadIdx.x; x < (N_JOBS + 1) * N_MACH; x += BLOCK) s_q[x] = q[x];
    for (int x = threadIdx.x; x < N_JOBS * N_MACH; x += BLOCK) s_dpi[x] = dpi[x];
#else
    const VAL* s_q = q;
    const VAL* s_dpi = dpi;
#endif
    __shared__ int s_perm[N_JOBS + 1];  // s_perm[r + 1] = perm[r]; s_perm[0] = N_JOBS, no job
    __shared__ VAL s_slack[N_JOBS];     // of the job at each position
    for (int x = threadIdx.x; x < N_JOBS; x += BLOCK) {
        const int job = perm[x];
        s_perm[x + 1] = job;
        s_slack[x] = due[job] - q[job * N_MACH + N_MACH - 1];
    }
    if (threadIdx.x == 0) s_perm[0] = N_JOBS;
    __syncthreads();

    const long long t = (long long)blockIdx.x * BLOCK + threadIdx.x;
    if (t >= n_moves) return;
    const Move mv = nbh_decode(t, N_JOBS);
    const Segments seg = nbh_segments(mv, N_JOBS);
    int k = nbh_first_changed(mv);
    int prev = k - 1;  // source position of the job before position k; -1: none

    VAL e[N_MACH];
#pragma unroll
    for (int i = 0; i < N_MACH; ++i) e[i] = eext[k * N_MACH + i];
    Acc acc = {pref_t[k], pref_u[k], 0};

#pragma unroll
    for (int g = 0; g < NBH_SEGMENTS; ++g) {
        const int end = seg.end[g], offset = seg.offset[g];
        if (k < end) {  // first position of the run: rebuild d from q
            const VAL* qa = s_q + s_perm[prev + 1] * N_MACH;
            const VAL* qb = s_q + s_perm[k + offset + 1] * N_MACH;
            VAL d[N_MACH];
            d[0] = qa[0];
#pragma unroll
            for (int i = 1; i < N_MACH; ++i) d[i] = qa[i] - qb[i - 1];
            step(e, d, s_slack[k + offset], acc);
#pragma unroll 4
            for (++k; k < end; ++k) {
                const int src = k + offset;
                VAL d[N_MACH];
                load_row(d, s_dpi + (src - 1) * N_MACH);
                step(e, d, s_slack[src], acc);
            }
            prev = end - 1 + offset;
        }
    }
    F[3 * t] = acc.last + s_q[s_perm[prev + 1] * N_MACH + N_MACH - 1];
    F[3 * t + 1] = acc.tardiness;
    F[3 * t + 2] = acc.n_tardy;
}

