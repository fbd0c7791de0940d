// A whole flowshop neighborhood, one thread per move, generated from the thread id, in state.py's offset form
// (a DPX instruction a cell on Hopper). Prepended: the neighborhood header and #define N_JOBS, N_MACH, VAL, BLOCK,
// STAGE_SHARED, N_OBJ and COL_MAKESPAN, COL_TARDINESS, COL_TARDY; how a thread walks a move: docs/internals.md.

// --memory plain or readonly (MEMORY 0 or 1, backends/techniques.cuh) read q and dpi from global memory
// instead of staging them (STAGE_SHARED off); --memory shared is STAGE_SHARED, which model.py requires.
#if defined(MEMORY) && MEMORY != 2
#undef STAGE_SHARED
#define STAGE_SHARED 0
#endif

// max(a + b, c): one VIADDMNMX instruction on Hopper for 32-bit values.
__device__ __forceinline__ int add_max(int a, int b, int c) { return __viaddmax_s32(a, b, c); }
__device__ __forceinline__ long long add_max(long long a, long long b, long long c) {
    return max(a + b, c);
}

struct Acc { VAL tardiness; int n_tardy; VAL last; };

// A row of N_MACH values into registers, 16 bytes per load when rows are 16-byte aligned.
// A solution's objectives into its row of F: each in its column (COL_*), or nowhere where it is not optimised.
__device__ __forceinline__ void put_objectives(VAL* F, VAL makespan, VAL tardiness, int n_tardy) {
#if COL_MAKESPAN >= 0
    F[COL_MAKESPAN] = makespan;
#endif
#if COL_TARDINESS >= 0
    F[COL_TARDINESS] = tardiness;
#endif
#if COL_TARDY >= 0
    F[COL_TARDY] = n_tardy;
#endif
}

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

// The kernel's work, its loop over a run interleaving INTERLEAVED positions (flowshop_neighborhood's 4, or 16 in
// flowshop_neighborhood_alone: faster for one search's neighborhood of 100 jobs or more, where a warp's longest
// move sets the time, slower where many searches share the launch and the registers bound the warps per SM).
template <int INTERLEAVED>
__device__ __forceinline__ void neighborhood(
    const VAL* __restrict__ q,        // (N_JOBS + 1, N_MACH) prefix sums over machines; last row 0
    const VAL* __restrict__ due,      // (N_JOBS,)
    const int* __restrict__ perm,     // (N_JOBS,) current permutation
    const VAL* __restrict__ eext,     // (N_JOBS + 1, N_MACH) offsets of the current prefixes
    const VAL* __restrict__ pref_t,   // (N_JOBS + 1,) prefix total tardiness
    const int* __restrict__ pref_u,   // (N_JOBS + 1,) prefix number of tardy jobs
    const VAL* __restrict__ dpi,      // (N_JOBS, N_MACH) D rows of consecutive jobs of perm
    VAL* __restrict__ F,              // (n_moves, N_OBJ)
    long long n_moves)
{
    perm = lane_state(perm); eext = lane_state(eext); pref_t = lane_state(pref_t); pref_u = lane_state(pref_u);
    dpi = lane_state(dpi);
    F += blockIdx.y * n_moves * N_OBJ;
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
        s_slack[x] = job < 0 ? 0 : due[job] - q[job * N_MACH + N_MACH - 1];
    }
    if (threadIdx.x == 0) s_perm[0] = N_JOBS;
    __syncthreads();
    if (s_perm[1] < 0) return;  // no state: an iteration of Pareto local search without a member (flowshop_load)

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
#pragma unroll INTERLEAVED
            for (++k; k < end; ++k) {
                const int src = k + offset;
                VAL d[N_MACH];
                load_row(d, s_dpi + (src - 1) * N_MACH);
                step(e, d, s_slack[src], acc);
            }
            prev = end - 1 + offset;
        }
    }
    put_objectives(F + N_OBJ * t, acc.last + s_q[s_perm[prev + 1] * N_MACH + N_MACH - 1], acc.tardiness,
                   acc.n_tardy);
}

#define NEIGHBORHOOD_ARGS                                                                                      \
    const VAL *__restrict__ q, const VAL *__restrict__ due, const int *__restrict__ perm,                      \
        const VAL *__restrict__ eext, const VAL *__restrict__ pref_t, const int *__restrict__ pref_u,          \
        const VAL *__restrict__ dpi, VAL *__restrict__ F, long long n_moves

extern "C" __global__ void __launch_bounds__(BLOCK) flowshop_neighborhood(NEIGHBORHOOD_ARGS) {
    neighborhood<4>(q, due, perm, eext, pref_t, pref_u, dpi, F, n_moves);
}

extern "C" __global__ void __launch_bounds__(BLOCK) flowshop_neighborhood_alone(NEIGHBORHOOD_ARGS) {
    neighborhood<16>(q, due, perm, eext, pref_t, pref_u, dpi, F, n_moves);
}

// One step of a tabu walk on the device (algorithms/tabu/gpu_walk.py), one block per lane: the lane's state moved
// to the neighbor *move (none where the move is -1: the lane's walk has ended; f is not needed), the CUDA
// twin of state.fill_state from the move's first changed position s on. perm's positions s.. take their
// jobs by the move's runs (nbh_segments) and the rows of dpi from s - 1 on are rebuilt from q, by the whole
// block (and, where STAGE_SHARED, each position's row of D in shared memory); then the first warp rebuilds
// eext from s + 1 on as a wavefront, and pref_t and pref_u by a scan (prefix_tardiness, off the
// wavefront's critical path). The wavefront: lane l takes machine i = i0 + l of a chunk of 32 and, at time
// t, position k = s + t - l, so that E[k][i] = max(E[k][i-1], E[k-1][i] + D[i]) has E[k][i-1] from lane
// l - 1 one time step before (a shuffle; for l = 0, from the chunk before through `left_of`, one buffer per
// chunk parity) and E[k-1][i] in its own register: n - s + w - 1 steps per chunk of w machines, no wait on
// another lane's memory between positions.
__device__ __forceinline__ VAL pair_value(const VAL* q, int a, int b, int i) {  // D[a, b][i] (state.pair_row)
    return i == 0 ? __ldg(q + a * N_MACH) : __ldg(q + a * N_MACH + i) - __ldg(q + b * N_MACH + i - 1);
}

// pref_t and pref_u from position s on, by the first warp once eext is whole: each position's lateness
// (its completion on the last machine, eext's last column plus its Q, against its due date), 32 positions at
// a time, summed by a warp scan onto the prefix before them.
__device__ __forceinline__ void prefix_tardiness(int s, const int* order, const VAL* q, const VAL* due,
                                                 const VAL* eext, VAL* pref_t, int* pref_u) {
    const int lane = threadIdx.x;
    VAL tardiness = pref_t[s];
    int tardy = pref_u[s];
    for (int k0 = s; k0 < N_JOBS; k0 += 32) {
        const int k = k0 + lane;
        VAL late = 0;
        int is_late = 0;
        if (k < N_JOBS) {
            const int b = order[k + 1];
            const VAL l = eext[(k + 1) * N_MACH + N_MACH - 1] + __ldg(q + b * N_MACH + N_MACH - 1) - due[b];
            late = l > 0 ? l : 0;
            is_late = l > 0;
        }
        for (int d = 1; d < 32; d <<= 1) {  // inclusive scan over the warp
            const VAL up = __shfl_up_sync(0xffffffffu, late, d);
            const int up_count = __shfl_up_sync(0xffffffffu, is_late, d);
            if (lane >= d) {
                late += up;
                is_late += up_count;
            }
        }
        if (k < N_JOBS) {
            pref_t[k + 1] = tardiness + late;
            pref_u[k + 1] = tardy + is_late;
        }
        tardiness += __shfl_sync(0xffffffffu, late, 31);
        tardy += __shfl_sync(0xffffffffu, is_late, 31);
    }
}

// The state rebuilt from position s on, for the permutation order[1..N_JOBS] (order[0] = N_JOBS): perm's
// positions s.. from order, dpi's rows from s - 1 on, then eext (the wavefront above), pref_t and pref_u.
// Called by the whole block, after order is written and a barrier.
__device__ __forceinline__ void rebuild_from(int s, const int* order, const VAL* q, const VAL* due, int* perm,
                                             VAL* eext, VAL* pref_t, int* pref_u, VAL* dpi) {
    __shared__ VAL left_of[2][N_JOBS];  // E[k][i0 - 1] from the chunk before; E[k][i0 + 31] for the next
#if STAGE_SHARED
    __shared__ VAL d_rows[N_JOBS * N_MACH];  // row k: D[order[k], order[k + 1]], position k's (from s on)
#endif
    for (int k = s + threadIdx.x; k < N_JOBS; k += blockDim.x) perm[k] = order[k + 1];
    const int r0 = s > 0 ? s - 1 : 0;  // dpi row r is D[order[r + 1], order[r + 2]]: position r + 1's row
#if STAGE_SHARED
    for (int x = s * N_MACH + threadIdx.x; x < N_JOBS * N_MACH; x += blockDim.x)
        d_rows[x] = pair_value(q, order[x / N_MACH], order[x / N_MACH + 1], x % N_MACH);
    __syncthreads();  // the rows are whole before dpi and the wavefront read them
#define POSITION_D(k, i) d_rows[(k) * N_MACH + (i)]
#else
#define POSITION_D(k, i) pair_value(q, order[k], order[(k) + 1], i)
#endif
    for (int x = threadIdx.x; x < (N_JOBS - 1 - r0) * N_MACH; x += blockDim.x)
        dpi[r0 * N_MACH + x] = POSITION_D(r0 + 1 + x / N_MACH, x % N_MACH);
    if (threadIdx.x >= 32) return;
    const int lane = threadIdx.x;
    for (int i0 = 0; i0 < N_MACH; i0 += 32) {
        const int i = i0 + lane, chunk = i0 / 32, width = min(32, N_MACH - i0);  // the chunk's machines
        VAL e = i < N_MACH ? eext[s * N_MACH + i] : 0;  // E[s - 1][i], the row before position s
#pragma unroll 4
        for (int t = 0; t < N_JOBS - s + width - 1; ++t) {
            const VAL left = __shfl_up_sync(0xffffffffu, e, 1);  // lane l - 1's E[k][i - 1]
            const int k = s + t - lane;
            if (k >= s && k < N_JOBS && i < N_MACH) {
                e += POSITION_D(k, i);
                if (i > 0) e = max(e, N_MACH <= 32 || lane > 0 ? left : left_of[(chunk + 1) % 2][k]);
                eext[(k + 1) * N_MACH + i] = e;
                if (N_MACH > 32 && lane == 31) left_of[chunk % 2][k] = e;  // no shared store where one chunk
            }
        }
        __syncwarp();  // left_of is whole before the next chunk reads it, eext before the tardiness below
    }
    prefix_tardiness(s, order, q, due, eext, pref_t, pref_u);
}

extern "C" __global__ void flowshop_apply(const VAL* q, const VAL* due, int* perm, VAL* eext, VAL* pref_t,
                                          int* pref_u, VAL* dpi, const long long* move, const VAL* f) {
    __shared__ int order[N_JOBS + 1];  // order[k + 1] = the new perm[k]; order[0] = N_JOBS (q's zero row)
    perm = lane_state(perm); eext = lane_state(eext); pref_t = lane_state(pref_t); pref_u = lane_state(pref_u);
    dpi = lane_state(dpi);
    if (move[blockIdx.y] < 0) return;
    const Move mv = nbh_decode(move[blockIdx.y], N_JOBS);
    const Segments seg = nbh_segments(mv, N_JOBS);
    const int s = nbh_first_changed(mv);
    for (int k = threadIdx.x; k < N_JOBS; k += blockDim.x) {
        int g = 0;
        while (g < NBH_SEGMENTS - 1 && k >= seg.end[g]) ++g;
        order[k + 1] = k < s ? perm[k] : perm[k + seg.offset[g]];
    }
    if (threadIdx.x == 0) order[0] = N_JOBS;
    __syncthreads();  // every job read before perm changes
    rebuild_from(s, order, q, due, perm, eext, pref_t, pref_u, dpi);
}

// The lane's state made from the permutation x on the device (a Pareto local search's member, archive/
// pls_device.py), the twin of state.fill_state; where *active is 0 (that iteration has no member), perm[0] = -1
// instead, which flowshop_neighborhood takes for no state: it writes nothing.
// LOAD_BLOCK threads: the tables of a whole permutation fill in fewer rounds than a move's.
#define LOAD_BLOCK 1024
extern "C" __global__ void __launch_bounds__(LOAD_BLOCK) flowshop_load(
    const VAL* q, const VAL* due, int* perm, VAL* eext, VAL* pref_t, int* pref_u, VAL* dpi, const int* x,
    const int* active) {
    __shared__ int order[N_JOBS + 1];
    perm = lane_state(perm); eext = lane_state(eext); pref_t = lane_state(pref_t); pref_u = lane_state(pref_u);
    dpi = lane_state(dpi);
    if (!*active) {
        if (threadIdx.x == 0) perm[0] = -1;
        return;
    }
    for (int k = threadIdx.x; k < N_JOBS + 1; k += blockDim.x) order[k] = k == 0 ? N_JOBS : x[k - 1];
    for (int i = threadIdx.x; i < N_MACH; i += blockDim.x) {
        eext[i] = 0;
        dpi[(N_JOBS - 1) * N_MACH + i] = 0;
    }
    if (threadIdx.x == 0) pref_t[0] = pref_u[0] = 0;
    __syncthreads();
    rebuild_from(0, order, q, due, perm, eext, pref_t, pref_u, dpi);
}

// Whole permutations, one thread each (backends/population.py): F (pop, N_OBJ) of X (pop, N_JOBS), the twin of
// Flowshop._evaluate. Job j's time on machine i is q[j][i] - q[j][i - 1] (q holds prefix sums).
extern "C" __global__ void __launch_bounds__(BLOCK) flowshop_population(
    const VAL* __restrict__ q, const VAL* __restrict__ due, const int* __restrict__ X, VAL* __restrict__ F,
    long long pop) {
    const long long b = (long long)blockIdx.x * BLOCK + threadIdx.x;
    if (b >= pop) return;
    const int* x = X + b * N_JOBS;
    VAL done[N_MACH];  // completion of the previous job on each machine
#pragma unroll
    for (int i = 0; i < N_MACH; ++i) done[i] = 0;
    VAL tardiness = 0;
    int n_tardy = 0;
    for (int k = 0; k < N_JOBS; ++k) {
        const VAL* row = q + x[k] * N_MACH;
        VAL left = 0, before = 0;
#pragma unroll
        for (int i = 0; i < N_MACH; ++i) {
            left = max(done[i], left) + (row[i] - before);
            before = row[i];
            done[i] = left;
        }
        const VAL late = left - due[x[k]];
        tardiness += late > 0 ? late : 0;
        n_tardy += late > 0;
    }
    put_objectives(F + N_OBJ * b, done[N_MACH - 1], tardiness, n_tardy);
}
