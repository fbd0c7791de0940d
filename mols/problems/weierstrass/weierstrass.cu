// The Weierstrass function of every neighbor, LANES threads per neighbor sharing its terms: the CUDA twin of cpu.py;
// and the apply kernel of a tabu walk on the device. Prepended: the neighborhood's header (crowns or adaptive: its
// nbh_point) and #define D, TERMS, F32, LANES, REDUCTION_SMIN, REDUCTION_ROWS and BLOCK (docs/internals.md;
// tolerances: tests/problems/test_weierstrass_gpu.py).

// sin(2^i y) for |2^i y| >= 2^8 (b = 2), with an exact argument reduction in place of sin's slow path
// (Payne-Hanek for the huge arguments, up to 2^100): |y| = M 2^e, M the integer mantissa, so
// 2^i |y| / (2 pi) = M 2^s / (2 pi), s = e + i, and its fraction is that of M c_s, c_s = frac(2^s / (2 pi))
// in 128-bit fixed point in the host's table (model.reduction_table: row s - REDUCTION_SMIN, high word then
// low word). The low 64 bits of M c_s (a wrapping multiply; float64: plus the carry out of M times the low
// word) are the phase in turns, within 2^-63; as a signed fraction p of a half turn, sin = sinpi(p).
// Below 2^8 (and for y = 0 or subnormal) sin's own fast path is exact enough. Each block reads the table
// from its own copy in shared memory (float32: the high words alone).
#define REDUCTION_MIN_EXPONENT 8
#define TABLE_WORDS (F32 ? 1 : 2)  // words of a row in the block's copy

// The block's copy of the reduction table; every thread of the block calls it, before any returns.
__device__ __forceinline__ void copy_table(const unsigned long long* __restrict__ table, unsigned long long* own) {
    for (int w = threadIdx.x; w < REDUCTION_ROWS * TABLE_WORDS; w += blockDim.x)
        own[w] = table[w / TABLE_WORDS * 2 + w % TABLE_WORDS];
    __syncthreads();
}

#if F32
typedef float real;
// w 2^-ih sin(2^i y), the multiply kept apart from the caller's add. float32: M < 2^24, the high word is
// enough (phase within 2^-40 turns).
__device__ __forceinline__ float weierstrass_term(float w, float y, int i, const unsigned long long* table) {
    const unsigned int bits = __float_as_uint(y);
    const int E = (int)((bits >> 23) & 0xFFu);  // biased exponent: |y| = M 2^(E - 150)
    float r;
    if (E == 0 || E - 127 + i < REDUCTION_MIN_EXPONENT) {
        r = sinf(ldexpf(y, i));
    } else {
        const unsigned long long M = (unsigned long long)((bits & 0x7FFFFFu) | 0x800000u);
        unsigned long long phase = M * table[E - 150 + i - REDUCTION_SMIN];
        if (bits >> 31) phase = 0ull - phase;  // sin is odd
        r = sinpif((float)(int)(phase >> 32) * 0x1p-31f);
    }
    return __fmul_rn(w, r);
}
#else
typedef double real;
__device__ __forceinline__ double weierstrass_term(double w, double y, int i, const unsigned long long* table) {
    const unsigned long long bits = (unsigned long long)__double_as_longlong(y);
    const int E = (int)((bits >> 52) & 0x7FFull);  // biased exponent: |y| = M 2^(E - 1075)
    double r;
    if (E == 0 || E - 1023 + i < REDUCTION_MIN_EXPONENT) {
        r = sin(ldexp(y, i));
    } else {
        const unsigned long long M = (bits & 0xFFFFFFFFFFFFFull) | 0x10000000000000ull;
        const unsigned long long* c = table + 2 * (E - 1075 + i - REDUCTION_SMIN);
        unsigned long long phase = M * c[0] + __umul64hi(M, c[1]);
        if (bits >> 63) phase = 0ull - phase;  // sin is odd
        r = sinpi((double)(long long)phase * 0x1p-63);
    }
    return __dmul_rn(w, r);
}
#endif

#if F32
// The point's coordinates rounded to float32 once, in place (r[q] = (float)y[q], r the same shared memory
// read as floats), LANES at a time: each chunk is read whole before it is written, and chunk c writes over
// y[c LANES / 2 .. (c + 1) LANES / 2), which no later chunk reads. Every thread of the warp calls it.
__device__ __forceinline__ const float* rounded(double* y, int lane) {
    float* r = reinterpret_cast<float*>(y);
    for (int first = 0; first < D; first += LANES) {
        const int q = first + lane;
        const float v = q < D ? (float)y[q] : 0.0f;
        __syncwarp();
        if (q < D) r[q] = v;
        __syncwarp();
    }
    return r;
}
#else
__device__ __forceinline__ const double* rounded(double* y, int lane) { return y; }
#endif

// f(neighbor t of x), in each of the neighbor's LANES lanes (lane = 0 .. LANES - 1), y its D doubles of
// shared memory, table the block's copy. Every thread of the warp calls it, as often as the others:
// nbh_point and the shuffles are the whole warp's. The butterfly gives every lane the same sum (each
// adds the same pair, a + b or b + a).
__device__ __forceinline__ double neighbor_value(const real* __restrict__ weights, const unsigned long long* table,
                                                 const double* __restrict__ x,
                                                 const unsigned long long* __restrict__ key, long long t, int lane,
                                                 double* y) {
    nbh_point(x, t, D, key, y, lane, LANES);
    const real* r = rounded(y, lane);
    real s = 0;
    for (int j = lane; j < D * TERMS; j += LANES) {
        const int i = j / D, k = j - i * D;
        s += weierstrass_term(weights[i], r[k], i + 1, table);
    }
#pragma unroll
    for (int h = LANES / 2; h > 0; h >>= 1) s += __shfl_xor_sync(0xffffffffu, s, h);
    return (double)s;
}

// f(neighbor t of x) from x's values (weierstrass_prepare's): fx - sum W(x_k) + sum W(y_k) over the coordinates k
// that it moved (y_k != x_k), as cpu.incremental_kernel's: each moved coordinate's TERMS terms spread over the
// LANES lanes, its lanes' partial sums and the sums over k in float64 (in another order than the CPU's: tolerance
// in the tests). Every thread of the warp calls it, as often as the others (the shuffles are the whole warp's).
__device__ __forceinline__ double incremental_value(const real* __restrict__ weights, const unsigned long long* table,
                                                    const double* __restrict__ x, const double* __restrict__ values,
                                                    double fx, const unsigned long long* __restrict__ key,
                                                    long long t, int lane, double* y) {
    nbh_point(x, t, D, key, y, lane, LANES);
    double removed = 0.0, added = 0.0;
    for (int k = 0; k < D; ++k) {
        if (y[k] == x[k]) continue;  // the same k for the neighbor's lanes: they stay together
        removed += values[k];
        const real v = (real)y[k];
        real s = 0;
        for (int i = lane; i < TERMS; i += LANES) s += weierstrass_term(weights[i], v, i + 1, table);
        added += (double)s;
    }
#pragma unroll
    for (int h = LANES / 2; h > 0; h >>= 1) added += __shfl_xor_sync(0xffffffffu, added, h);
    return __dadd_rn(__dsub_rn(fx, removed), added);
}

// The two evaluation kernels' body: F[t] = f(neighbor t of x) for every t, in full (neighbor_value) or from x's
// values (INCREMENTAL: incremental_value). Every thread of a warp past the end returns together.
template <bool INCREMENTAL>
__device__ __forceinline__ void evaluate_neighbors(
    const real* __restrict__ weights, const unsigned long long* __restrict__ table, const double* __restrict__ x,
    const double* __restrict__ values, const double* __restrict__ fx, const unsigned long long* __restrict__ key,
    double* __restrict__ F, long long n_moves)
{
    __shared__ unsigned long long own_table[REDUCTION_ROWS * TABLE_WORDS];
    __shared__ double points[BLOCK / LANES][D];
    copy_table(table, own_table);
    const long long thread = (long long)blockIdx.x * BLOCK + threadIdx.x, t = thread / LANES;
    if ((thread - threadIdx.x % 32) / LANES >= n_moves) return;  // the whole warp is past the end
    const int lane = (int)(thread % LANES);
    double* y = points[threadIdx.x / LANES];
    const long long u = min(t, n_moves - 1);
    const double f = INCREMENTAL ? incremental_value(weights, own_table, x, values, *fx, key, u, lane, y)
                                 : neighbor_value(weights, own_table, x, key, u, lane, y);
    if (t < n_moves && lane == 0) F[t] = f;
}

// Arguments: the weights 2^(-i h) (TERMS,), in the arithmetic's type; the reduction table
// (REDUCTION_ROWS, 2) uint64; the state: x (D,), its values W(x_k) (D,) and f(x) (1,) (weierstrass_adaptive's;
// this kernel leaves them), the draw key (2,); then F (n_moves, 1).
extern "C" __global__ void __launch_bounds__(BLOCK) weierstrass_crowns(
    const real* __restrict__ weights, const unsigned long long* __restrict__ table, const double* __restrict__ x,
    const double* __restrict__ values, const double* __restrict__ fx, const unsigned long long* __restrict__ key,
    double* __restrict__ F, long long n_moves)
{
    evaluate_neighbors<false>(weights, table, x, values, fx, key, F, n_moves);
}

// The adaptive neighborhood's evaluation: weierstrass_crowns' arguments, each neighbor from x's values.
extern "C" __global__ void __launch_bounds__(BLOCK) weierstrass_adaptive(
    const real* __restrict__ weights, const unsigned long long* __restrict__ table, const double* __restrict__ x,
    const double* __restrict__ values, const double* __restrict__ fx, const unsigned long long* __restrict__ key,
    double* __restrict__ F, long long n_moves)
{
    evaluate_neighbors<true>(weights, table, x, values, fx, key, F, n_moves);
}

// x's values for weierstrass_adaptive, one block after each upload and each applied move (KernelSet.prepare_kernels):
// values[k] = W(x_k), its terms in turn, a thread a coordinate; then f(x), their sum in order, in the arithmetic's
// type: cpu.incremental_kernel's sums.
extern "C" __global__ void weierstrass_prepare(const real* weights, const unsigned long long* table, const double* x,
                                               double* values, double* fx, const unsigned long long* key) {
    __shared__ unsigned long long own_table[REDUCTION_ROWS * TABLE_WORDS];
    copy_table(table, own_table);
    for (int k = threadIdx.x; k < D; k += blockDim.x) {
        const real v = (real)x[k];
        real s = 0;
        for (int i = 0; i < TERMS; ++i) s += weierstrass_term(weights[i], v, i + 1, own_table);
        values[k] = (double)s;
    }
    __syncthreads();  // every value written before thread 0 adds them
    if (threadIdx.x == 0) {
        real total = 0;
        for (int k = 0; k < D; ++k) total += (real)values[k];
        *fx = (double)total;
    }
}

// One step of a walk on the device (algorithms/tabu/gpu_walk.py), one block: x becomes its neighbor *move, drawn
// by the first warp with the state's key as the evaluation drew it, then the key's counter advances, so
// that the next evaluation draws with the next step's key (Search.draw_keys). The value f is not needed, nor are
// x's values (the prepare kernel follows).
extern "C" __global__ void weierstrass_apply(const real* weights, const unsigned long long* table, double* x,
                                             double* values, double* fx, unsigned long long* key,
                                             const long long* move, const double* f) {
    __shared__ double y[D];
    if (threadIdx.x < 32) nbh_point(x, *move, D, key, y, threadIdx.x, 32);
    __syncthreads();  // every read of x and of the key is done before either changes
    for (int q = threadIdx.x; q < D; q += blockDim.x) x[q] = y[q];
    if (threadIdx.x == 0) key[1] += 1;
}
