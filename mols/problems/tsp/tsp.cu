// TSP neighborhoods (swap, 2-opt, 3-exchange), the CUDA twin of moves.py and cpu.py: one thread per move, O(1).
// Prepended: the neighborhood header, distance.cuh (bit for bit the Numba distances) and #define N_CITIES, N_OBJ, ATT
// (1: TSPLIB ATT distances, 0: EUC_2D), VAL (int or long long) and BLOCK. Swap and 2-opt share a header (NBH_ARITY
// 2) and a module; 3-exchange's (NBH_ARITY 3) has its kernels alone.

// --memory shared (MEMORY 2, backends/techniques.cuh): each block first stages the tour-ordered coordinates
// and edge lengths in shared memory and reads them there; every thread runs it before any returns.
#if defined(MEMORY) && MEMORY == 2
#define TSP_STAGE_TOUR                                                                                   \
    __shared__ double2 shared_txy[N_OBJ * N_CITIES];                                                     \
    __shared__ int shared_edge[N_OBJ * N_CITIES];                                                        \
    txy = stage_shared(shared_txy, txy, N_OBJ * N_CITIES);                                               \
    edge = stage_shared(shared_edge, edge, N_OBJ * N_CITIES);
#else
#define TSP_STAGE_TOUR
#endif

// Cities at positions i < j exchange places (moves.swap_delta).
__device__ __forceinline__ long long swap_delta(const double2* __restrict__ p, const int* __restrict__ edge,
                                                int i, int j) {
    const int n = N_CITIES;
    const int before = i > 0 ? i - 1 : n - 1;
    if (i == 0 && j == n - 1)
        return tsp_distance(p[j - 1], p[i]) + tsp_distance(p[j], p[i + 1]) - edge[j - 1] - edge[i];
    const int after = j < n - 1 ? j + 1 : 0;
    if (j == i + 1)
        return tsp_distance(p[before], p[j]) + tsp_distance(p[i], p[after]) - edge[before] - edge[j];
    const long long added = tsp_distance(p[before], p[j]) + tsp_distance(p[j], p[i + 1])
                          + tsp_distance(p[j - 1], p[i]) + tsp_distance(p[i], p[after]);
    return added - edge[before] - edge[i] - edge[j - 1] - edge[j];
}

// Positions i < j reversed (moves.two_opt_delta).
__device__ __forceinline__ long long two_opt_delta(const double2* __restrict__ p, const int* __restrict__ edge,
                                                   int i, int j) {
    const int n = N_CITIES;
    if (i == 0 && j == n - 1) return 0;
    const int before = i > 0 ? i - 1 : n - 1;
    const int after = j < n - 1 ? j + 1 : 0;
    return tsp_distance(p[before], p[j]) + tsp_distance(p[i], p[after]) - edge[before] - edge[j];
}

#if NBH_ARITY == 3
// Position i takes the city of position k, j that of i and k that of j (3-exchange's cycle (i, j, k),
// moves.cycle_delta): the edges at the three positions, at most six (each counted once), measured anew.
__device__ __forceinline__ long long cycle_delta(const double2* __restrict__ p, const int* __restrict__ edge,
                                                 int i, int j, int k) {
    const Move mv = {i, j, k};
    const int ends[6] = {i > 0 ? i - 1 : N_CITIES - 1, i, j > 0 ? j - 1 : N_CITIES - 1, j,
                         k > 0 ? k - 1 : N_CITIES - 1, k};
    long long total = 0;
#pragma unroll
    for (int q = 0; q < 6; ++q) {
        bool seen = false;
#pragma unroll
        for (int r = 0; r < q; ++r) seen = seen || ends[r] == ends[q];
        if (!seen) {
            const int a = ends[q], b = a < N_CITIES - 1 ? a + 1 : 0;
            total += tsp_distance(p[nbh_source(mv, a)], p[nbh_source(mv, b)]) - edge[a];
        }
    }
    return total;
}
#define TSP_MOVE(mv) mv.i, mv.j, mv.k
#else
#define TSP_MOVE(mv) mv.i, mv.j
#endif

// Arguments: perm (N_CITIES,), txy (N_OBJ, N_CITIES) coordinates in tour order, edge (N_OBJ, N_CITIES),
// length (N_OBJ,), then F (rows, N_OBJ) whose row r is move first + r, for moves first .. n_moves - 1.
// Lanes (backends/lane.cuh): lane blockIdx.y reads its own state and writes its own rows of F.
#define TSP_KERNEL(NAME, DELTA)                                                                          \
extern "C" __global__ void __launch_bounds__(BLOCK) NAME(                                              \
    const int* __restrict__ perm, const double2* __restrict__ txy, const int* __restrict__ edge,         \
    const long long* __restrict__ length, VAL* __restrict__ F, long long n_moves, long long first) {    \
    txy = lane_state(txy); edge = lane_state(edge); length = lane_state(length);                        \
    TSP_STAGE_TOUR                                                                                      \
    F += blockIdx.y * (n_moves - first) * N_OBJ;                                                        \
    const long long t = first + (long long)blockIdx.x * BLOCK + threadIdx.x;                            \
    if (t >= n_moves) return;                                                                           \
    const Move mv = nbh_decode(t, N_CITIES);                                                            \
    for (int o = 0; o < N_OBJ; ++o)                                                                     \
        F[(t - first) * N_OBJ + o] =                                                                    \
            (VAL)(length[o] + DELTA(txy + o * N_CITIES, edge + o * N_CITIES, TSP_MOVE(mv)));            \
}

#if NBH_ARITY == 2
TSP_KERNEL(tsp_swap, swap_delta)
TSP_KERNEL(tsp_2opt, two_opt_delta)
#else
TSP_KERNEL(tsp_3exchange, cycle_delta)
#endif

#ifdef SEL_BLOCK
// Compiled after algorithms/tabu/select.cu: evaluation and the block's part of the selection in one pass,
// so that F is never written. Same arguments as the kernels above, less F, then select_partial's.
#define TSP_SELECT_KERNEL(NAME, DELTA)                                                                   \
extern "C" __global__ void __launch_bounds__(SEL_BLOCK) NAME(                                          \
    const int* __restrict__ perm, const double2* __restrict__ txy, const int* __restrict__ edge,         \
    const long long* __restrict__ length, long long n_moves, long long first, const double* c,          \
    const double* threshold, const long long* step, const TABU* __restrict__ forbidden_until,           \
    double* part_s, long long* part_i, FVAL* part_f) {                                                  \
    txy = lane_state(txy); edge = lane_state(edge); length = lane_state(length);                        \
    TSP_STAGE_TOUR                                                                                      \
    select_lane(c, threshold, step, part_s, part_i, part_f);                                            \
    forbidden_until += blockIdx.y * n_moves;                                                            \
    double bs = SEL_INF, as = SEL_INF;                                                                  \
    long long bi = NO_ID, ai = NO_ID;                                                                   \
    FVAL bf[N_OBJ], af[N_OBJ];                                                                          \
    const double thr = *threshold;                                                                      \
    const long long now = *step;                                                                        \
    for (long long t = first + (long long)blockIdx.x * SEL_BLOCK + threadIdx.x; t < n_moves;            \
         t += (long long)gridDim.x * SEL_BLOCK) {                                                       \
        const Move mv = nbh_decode(t, N_CITIES);                                                        \
        FVAL f[N_OBJ];                                                                                  \
        for (int o = 0; o < N_OBJ; ++o)                                                                 \
            f[o] = (FVAL)(length[o] + DELTA(txy + o * N_CITIES, edge + o * N_CITIES, TSP_MOVE(mv)));    \
        const double s = score_of_row(f, c);                                                            \
        if (keep_better(as, ai, s, t))                                                                  \
            for (int o = 0; o < N_OBJ; ++o) af[o] = f[o];                                               \
        if ((forbidden_until[t] <= now || s < thr) && keep_better(bs, bi, s, t))                        \
            for (int o = 0; o < N_OBJ; ++o) bf[o] = f[o];                                               \
    }                                                                                                   \
    write_part(bs, bi, bf, as, ai, af, part_s, part_i, part_f);                                         \
}

#if NBH_ARITY == 2
TSP_SELECT_KERNEL(tsp_swap_select, swap_delta)
TSP_SELECT_KERNEL(tsp_2opt_select, two_opt_delta)
#else
TSP_SELECT_KERNEL(tsp_3exchange_select, cycle_delta)
#endif
#endif

// One step of a tabu walk on the device (algorithms/tabu/gpu_walk.py), one block per lane: the lane's tour moved
// by the move move[lane] (none where it is -1: the lane's walk has ended), its lengths the move's
// objective vector f[lane]. The twin of the neighborhood's apply and fill_tour: perm and the tour-ordered
// coordinates moved, then the edges that changed measured again (the others keep their lengths; a reversed
// run's edges are its old ones backwards, distances being symmetric).
__device__ __forceinline__ void measure_edge(const double2* txy, int* edge, int p) {
    edge[p] = tsp_distance(txy[p], txy[p < N_CITIES - 1 ? p + 1 : 0]);
}

// Cities at positions i < j exchange places: edges i - 1, i, j - 1 and j change.
__device__ __forceinline__ void swap_move(int* perm, double2* txy, int* edge, int i, int j) {
    if (threadIdx.x != 0) return;
    const int changed[4] = {i > 0 ? i - 1 : N_CITIES - 1, i, j - 1, j};
    exchange(perm, i, j);
    for (int o = 0; o < N_OBJ; ++o) {
        exchange(txy + o * N_CITIES, i, j);
        for (int e = 0; e < 4; ++e) measure_edge(txy + o * N_CITIES, edge + o * N_CITIES, changed[e]);
    }
}

// Positions i < j reversed: edges i .. j - 1 reversed, edges i - 1 and j measured again.
__device__ __forceinline__ void two_opt_move(int* perm, double2* txy, int* edge, int i, int j) {
    for (int k = threadIdx.x; k < (j - i + 1) / 2; k += blockDim.x) {
        exchange(perm, i + k, j - k);
        for (int o = 0; o < N_OBJ; ++o) exchange(txy + o * N_CITIES, i + k, j - k);
    }
    for (int k = threadIdx.x; k < (j - i) / 2; k += blockDim.x)
        for (int o = 0; o < N_OBJ; ++o) exchange(edge + o * N_CITIES, i + k, j - 1 - k);
    __syncthreads();
    if (threadIdx.x != 0) return;
    for (int o = 0; o < N_OBJ; ++o) {
        measure_edge(txy + o * N_CITIES, edge + o * N_CITIES, i > 0 ? i - 1 : N_CITIES - 1);
        measure_edge(txy + o * N_CITIES, edge + o * N_CITIES, j);
    }
}

// Position i takes the city of position k, j that of i and k that of j: exchanges (i, j) then (i, k); the edges at
// the three positions change.
__device__ __forceinline__ void cycle_move(int* perm, double2* txy, int* edge, int i, int j, int k) {
    if (threadIdx.x != 0) return;
    const int changed[6] = {i > 0 ? i - 1 : N_CITIES - 1, i, j > 0 ? j - 1 : N_CITIES - 1, j,
                            k > 0 ? k - 1 : N_CITIES - 1, k};
    exchange(perm, i, j);
    exchange(perm, i, k);
    for (int o = 0; o < N_OBJ; ++o) {
        exchange(txy + o * N_CITIES, i, j);
        exchange(txy + o * N_CITIES, i, k);
        for (int e = 0; e < 6; ++e) measure_edge(txy + o * N_CITIES, edge + o * N_CITIES, changed[e]);
    }
}

#define TSP_APPLY_KERNEL(NAME, MOVE)                                                                     \
extern "C" __global__ void NAME(int* perm, double2* txy, int* edge, long long* length, const long long* move, \
                                const VAL* f) {                                                         \
    perm = lane_state(perm); txy = lane_state(txy); edge = lane_state(edge); length = lane_state(length); \
    if (move[blockIdx.y] < 0) return;                                                                   \
    const Move mv = nbh_decode(move[blockIdx.y], N_CITIES);                                             \
    if (threadIdx.x < N_OBJ) length[threadIdx.x] = f[blockIdx.y * N_OBJ + threadIdx.x];                 \
    MOVE(perm, txy, edge, TSP_MOVE(mv));                                                                \
}

#if NBH_ARITY == 2
TSP_APPLY_KERNEL(tsp_swap_apply, swap_move)
TSP_APPLY_KERNEL(tsp_2opt_apply, two_opt_move)
#else
TSP_APPLY_KERNEL(tsp_3exchange_apply, cycle_move)
#endif

// Whole tours, one thread each (backends/population.py): F (pop, N_OBJ) of X (pop, N_CITIES), the length
// under each coordinate set xy (N_OBJ, N_CITIES), the twin of tour_lengths.
extern "C" __global__ void __launch_bounds__(BLOCK) tsp_population(
    const double2* __restrict__ xy, const int* __restrict__ X, VAL* __restrict__ F, long long pop) {
    const long long b = (long long)blockIdx.x * BLOCK + threadIdx.x;
    if (b >= pop) return;
    const int* x = X + b * N_CITIES;
    for (int o = 0; o < N_OBJ; ++o) {
        const double2* c = xy + o * N_CITIES;
        long long length = 0;
        for (int p = 0; p < N_CITIES; ++p) length += tsp_distance(c[x[p]], c[x[p + 1 < N_CITIES ? p + 1 : 0]]);
        F[b * N_OBJ + o] = (VAL)length;
    }
}
