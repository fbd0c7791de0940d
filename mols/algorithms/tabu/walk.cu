// One step of tabu walks run on the device (gpu_walk.py), compiled after select.cu: the device twin of the host
// loop in algorithms/tabu/search.py. Needs #define N_OBJ and FVAL, and the neighborhood's header (nbh_inverse). One block of
// SEL_BLOCK threads per lane (blockIdx.y), each a walk with its own state; the step's parts: docs/internals.md.

// walk_step's work for lane blockIdx.y, by the whole block: every thread returns at the end (a fused walk
// kernel moves the state after it, qap.cu's qap_walk_step).
__device__ void walk_step_in(
    const double* part_s, const long long* part_i, const FVAL* part_f, int n_parts, long long* out_id,
    double* out_score, FVAL* out_f, double* threshold, long long* step, const long long* limit,
    const long long* tenure, TABU* forbidden_until, int n, long long n_moves, long long* trail_id,
    double* trail_score, FVAL* trail_f, int trail_stride) {
    const int lane = blockIdx.y;
    const long long parts = 2LL * n_parts * lane, entry = (long long)lane * trail_stride;
    out_id += lane; out_score += lane; out_f += lane * N_OBJ;
    threshold += lane; step += lane; forbidden_until += lane * n_moves;
    trail_id += entry; trail_score += entry; trail_f += entry * N_OBJ;
    if (*step >= limit[lane]) {  // the same in every thread
        if (threadIdx.x == 0) *out_id = *trail_id = -1;
        return;
    }
    final_choice(part_s + parts, part_i + parts, part_f + parts * N_OBJ, n_parts, out_id, out_score, out_f);
    __syncthreads();  // the choice is written before thread 0 reads it
    if (threadIdx.x != 0) return;
    const long long id = *out_id, now = *step, until = now + 1 + tenure[lane];  // each walk its own tenure
    const double score = *out_score;
#ifdef ROTS  // Ro-TS's memory is the problem's walk kernel's (qap.cu)
    (void)until;
#else
    forbidden_until[nbh_inverse(id, n)] = (TABU)until;
#endif
#ifdef NBH_FORBIDS_ITSELF
    forbidden_until[id] = (TABU)until;  // the move taken twice more would come back too (3-exchange)
#endif
    if (score < *threshold) *threshold = score;
    *step = now + 1;
    *trail_id = id;
    *trail_score = score;
    for (int o = 0; o < N_OBJ; ++o) trail_f[o] = out_f[o];
}

extern "C" __global__ void __launch_bounds__(SEL_BLOCK) walk_step(
    const double* part_s, const long long* part_i, const FVAL* part_f, int n_parts, long long* out_id,
    double* out_score, FVAL* out_f, double* threshold, long long* step, const long long* limit,
    const long long* tenure, TABU* forbidden_until, int n, long long n_moves, long long* trail_id,
    double* trail_score, FVAL* trail_f, int trail_stride) {
    walk_step_in(part_s, part_i, part_f, n_parts, out_id, out_score, out_f, threshold, step, limit, tenure,
                 forbidden_until, n, n_moves, trail_id, trail_score, trail_f, trail_stride);
}
