// Best admissible neighbor by weighted score: the device twin of select.py (same rule, same bits). Needs
// #define N_OBJ (k) and FVAL (the C type of F). The kernels' parts, and how a problem fuses evaluation and
// select_partial (score_of_row, keep_better, write_part): docs/internals.md.
#ifndef SEL_BLOCK
#define SEL_BLOCK 256  // threads per block, a power of two (block_best); gpu_select.py may define another
#endif
typedef int TABU;  // tabu memory: the step from which a neighbor is admissible again (select.py's TABU_DTYPE)
#define NO_ID 0x7fffffffffffffffLL
#define SEL_INF __longlong_as_double(0x7ff0000000000000LL)

__device__ __forceinline__ double score_of_row(const FVAL* f, const double* c) {
    double s = 0.0;
    for (int o = 0; o < N_OBJ; ++o) s = __dadd_rn(s, __dmul_rn(c[o], (double)f[o]));
    return s;
}

// Whether (s, i) replaced the pair (bs, bi): a lower score, or the same score and a lower id.
__device__ __forceinline__ bool keep_better(double& bs, long long& bi, double s, long long i) {
    if (s < bs || (s == bs && i < bi)) { bs = s; bi = i; return true; }
    return false;
}

// The block's best (score, id) pair, in every thread.
__device__ void block_best(double& bs, long long& bi) {
    __shared__ double ss[SEL_BLOCK];
    __shared__ long long si[SEL_BLOCK];
    __syncthreads();  // a previous call's readers are done
    ss[threadIdx.x] = bs;
    si[threadIdx.x] = bi;
    __syncthreads();
    for (int h = SEL_BLOCK / 2; h > 0; h >>= 1) {
        if (threadIdx.x < h) {
            double s = ss[threadIdx.x];
            long long i = si[threadIdx.x];
            keep_better(s, i, ss[threadIdx.x + h], si[threadIdx.x + h]);
            ss[threadIdx.x] = s;
            si[threadIdx.x] = i;
        }
        __syncthreads();
    }
    bs = ss[0];
    bi = si[0];
}

// One thread, in queue order: of two entries for the same id the later wins, as on the host.
extern "C" __global__ void apply_forbids(const long long* ids, const long long* until, const long long* count,
                                         TABU* forbidden_until) {
    for (long long t = 0; t < *count; ++t) forbidden_until[ids[t]] = (TABU)until[t];
}

// The block's part of the selection: part_s/part_i [2 * block] get its best admissible pair, then its
// best pair overall (neighbor ids), and part_f [2 * block * N_OBJ] their objective vectors. Each
// thread offers its own pairs with their vectors bf and af (read only by the thread that wins).
__device__ void write_part(double bs, long long bi, const FVAL* bf, double as, long long ai, const FVAL* af,
                           double* part_s, long long* part_i, FVAL* part_f) {
    const long long own_b = bi, own_a = ai;
    block_best(bs, bi);
    block_best(as, ai);
    const long long p = 2 * blockIdx.x;
    if (threadIdx.x == 0) {
        part_s[p] = bs; part_i[p] = bi;
        part_s[p + 1] = as; part_i[p + 1] = ai;
    }
    if (bi != NO_ID && own_b == bi)
        for (int o = 0; o < N_OBJ; ++o) part_f[p * N_OBJ + o] = bf[o];
    if (ai != NO_ID && own_a == ai)
        for (int o = 0; o < N_OBJ; ++o) part_f[(p + 1) * N_OBJ + o] = af[o];
}

// Several searches in one launch (lanes, blockIdx.y; GpuEvaluator): the selection's arguments moved to
// the lane's, where a lane's neighborhood is one chunk of n_moves rows evaluated by gridDim.x blocks. One
// lane (blockIdx.y = 0) keeps them as they are.
// The caller moves its tabu memory itself (forbidden_until += blockIdx.y * n_moves), which may be __restrict__.
__device__ __forceinline__ void select_lane(const double*& c, const double*& threshold, const long long*& step,
                                            double*& part_s, long long*& part_i, FVAL*& part_f) {
    const long long lane = blockIdx.y, parts = 2LL * gridDim.x * lane;
    c += lane * N_OBJ; threshold += lane; step += lane;
    part_s += parts; part_i += parts; part_f += parts * N_OBJ;
}

// After write_part: whether this block is the last of its lane (blockIdx.y) to be done, in every thread; the
// last one sets its lane's counter in `done` back to 0 for the next launch and sees every block's part.
__device__ bool last_block_of_lane(unsigned int* done) {
    __shared__ bool last;
    __threadfence();  // this block's part is visible before it counts
    __syncthreads();
    if (threadIdx.x == 0) {
        last = atomicAdd(done + blockIdx.y, 1u) == gridDim.x - 1;
        if (last) done[blockIdx.y] = 0;
    }
    __syncthreads();
    if (last) __threadfence();
    return last;
}

// A grid-stride share of a chunk of F per block (see write_part).
extern "C" __global__ void __launch_bounds__(SEL_BLOCK) select_partial(
    const FVAL* F, long long rows, long long first, const double* c, const double* threshold, const long long* step,
    const TABU* forbidden_until, double* part_s, long long* part_i, FVAL* part_f) {
    select_lane(c, threshold, step, part_s, part_i, part_f);
    forbidden_until += blockIdx.y * (first + rows);
    F += blockIdx.y * rows * N_OBJ;
    double bs = SEL_INF, as = SEL_INF;
    long long bi = NO_ID, ai = NO_ID;
    for (long long r = (long long)blockIdx.x * SEL_BLOCK + threadIdx.x; r < rows; r += (long long)gridDim.x * SEL_BLOCK) {
        double s = score_of_row(F + r * N_OBJ, c);
        keep_better(as, ai, s, first + r);
        if (forbidden_until[first + r] <= *step || s < *threshold) keep_better(bs, bi, s, first + r);
    }
    const FVAL* bf = bi == NO_ID ? F : F + (bi - first) * N_OBJ;
    const FVAL* af = ai == NO_ID ? F : F + (ai - first) * N_OBJ;
    write_part(bs, bi, bf, as, ai, af, part_s, part_i, part_f);
}

// One block (SEL_BLOCK threads): the best admissible pair and the best pair over the blocks' pairs of all chunks, in
// every thread.
__device__ __forceinline__ void best_of_parts(const double* part_s, const long long* part_i, int n_parts,
                                              double& bs, long long& bi, double& as, long long& ai) {
    bs = SEL_INF; as = SEL_INF;
    bi = NO_ID; ai = NO_ID;
    for (int p = threadIdx.x; p < n_parts; p += SEL_BLOCK) {
        keep_better(bs, bi, part_s[2 * p], part_i[2 * p]);
        keep_better(as, ai, part_s[2 * p + 1], part_i[2 * p + 1]);
    }
    block_best(bs, bi);
    block_best(as, ai);
}

// The objective vector of neighbor `id` from the pair holding it (two pairs may hold it: they hold the same row, so
// either copies it).
__device__ __forceinline__ void row_of(const long long* part_i, const FVAL* part_f, int n_parts, long long id,
                                       FVAL* out_f) {
    for (int p = threadIdx.x; p < 2 * n_parts; p += SEL_BLOCK)
        if (part_i[p] == id)
            for (int o = 0; o < N_OBJ; ++o) out_f[o] = part_f[p * N_OBJ + o];
}

// One block (SEL_BLOCK threads): the choice over the blocks' pairs of all chunks.
__device__ void final_choice(const double* part_s, const long long* part_i, const FVAL* part_f, int n_parts,
                             long long* out_id, double* out_score, FVAL* out_f) {
    double bs, as;
    long long bi, ai;
    best_of_parts(part_s, part_i, n_parts, bs, bi, as, ai);
    if (bi == NO_ID) { bs = as; bi = ai; }  // nothing admissible: the best of all
    if (threadIdx.x == 0) { *out_id = bi; *out_score = bs; }
    row_of(part_i, part_f, n_parts, bi, out_f);
}

// A device's share of a neighborhood split over several (backends/split.py): its best admissible pair and its best
// pair, as one block's part (out_id/out_score [2], out_f [2 * N_OBJ]; NO_ID and SEL_INF where nothing is
// admissible), which the host combines with the other devices' as select_final would.
extern "C" __global__ void __launch_bounds__(SEL_BLOCK) select_pairs(
    const double* part_s, const long long* part_i, const FVAL* part_f, int n_parts,
    long long* out_id, double* out_score, FVAL* out_f) {
    double bs, as;
    long long bi, ai;
    best_of_parts(part_s, part_i, n_parts, bs, bi, as, ai);
    if (threadIdx.x == 0) { out_id[0] = bi; out_score[0] = bs; out_id[1] = ai; out_score[1] = as; }
    if (bi != NO_ID) row_of(part_i, part_f, n_parts, bi, out_f);
    row_of(part_i, part_f, n_parts, ai, out_f + N_OBJ);
}

extern "C" __global__ void __launch_bounds__(SEL_BLOCK) select_final(
    const double* part_s, const long long* part_i, const FVAL* part_f, int n_parts,
    long long* out_id, double* out_score, FVAL* out_f) {
    final_choice(part_s, part_i, part_f, n_parts, out_id, out_score, out_f);
}
