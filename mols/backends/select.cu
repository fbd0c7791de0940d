// Best admissible neighbor by weighted score: the device twin of select.py (same rule, same bits).
// Needs #define N_OBJ (k) and FVAL (the C type of F). apply_forbids first writes the forbids
// queued on the host; select_partial reduces a grid-stride share of F per block; select_final,
// one block, reduces the blocks' results and writes the chosen id, its score and its row of F.
#define SEL_BLOCK 256
#define NO_ID 0x7fffffffffffffffLL
#define SEL_INF __longlong_as_double(0x7ff0000000000000LL)

__device__ __forceinline__ double score_of(const FVAL* F, const double* c, long long t) {
    double s = 0.0;
    for (int o = 0; o < N_OBJ; ++o) s = __dadd_rn(s, __dmul_rn(c[o], (double)F[t * N_OBJ + o]));
    return s;
}

__device__ __forceinline__ void keep_better(double& bs, long long& bi, double s, long long i) {
    if (s < bs || (s == bs && i < bi)) { bs = s; bi = i; }
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
                                         long long* forbidden_until) {
    for (long long t = 0; t < *count; ++t) forbidden_until[ids[t]] = until[t];
}

// part_s/part_i [2 * block]: the block's best admissible pair, then its best pair overall.
extern "C" __global__ void __launch_bounds__(SEL_BLOCK) select_partial(
    const FVAL* F, long long n, const double* c, const double* threshold, const long long* step,
    const long long* forbidden_until, double* part_s, long long* part_i) {
    double bs = SEL_INF, as = SEL_INF;
    long long bi = NO_ID, ai = NO_ID;
    for (long long t = (long long)blockIdx.x * SEL_BLOCK + threadIdx.x; t < n; t += (long long)gridDim.x * SEL_BLOCK) {
        double s = score_of(F, c, t);
        keep_better(as, ai, s, t);
        if (forbidden_until[t] <= *step || s < *threshold) keep_better(bs, bi, s, t);
    }
    block_best(bs, bi);
    block_best(as, ai);
    if (threadIdx.x == 0) {
        part_s[2 * blockIdx.x] = bs; part_i[2 * blockIdx.x] = bi;
        part_s[2 * blockIdx.x + 1] = as; part_i[2 * blockIdx.x + 1] = ai;
    }
}

extern "C" __global__ void __launch_bounds__(SEL_BLOCK) select_final(
    const double* part_s, const long long* part_i, int n_parts, const FVAL* F,
    long long* out_id, double* out_score, FVAL* out_f) {
    double bs = SEL_INF, as = SEL_INF;
    long long bi = NO_ID, ai = NO_ID;
    for (int p = threadIdx.x; p < n_parts; p += SEL_BLOCK) {
        keep_better(bs, bi, part_s[2 * p], part_i[2 * p]);
        keep_better(as, ai, part_s[2 * p + 1], part_i[2 * p + 1]);
    }
    block_best(bs, bi);
    block_best(as, ai);
    if (bi == NO_ID) { bs = as; bi = ai; }  // nothing admissible: the best of all
    if (threadIdx.x == 0) { *out_id = bi; *out_score = bs; }
    if (threadIdx.x < N_OBJ) out_f[threadIdx.x] = F[bi * N_OBJ + threadIdx.x];
}
