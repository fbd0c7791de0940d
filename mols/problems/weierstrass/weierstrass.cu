// The Weierstrass function of every neighbor, one warp per neighbor: the CUDA twin of cpu.py.
// Prepended by the host: the crowns header (crowns_point), #define D (the dimension), TERMS (100),
// F32 (1: float32 arithmetic, else float64), WARP (32, the problem's threads_per_move), REDUCTION_SMIN
// (the reduction table's first s) and BLOCK.
//
// The warp's lanes draw the neighbor's point once, together, into shared memory (crowns_point), then
// share its D x TERMS terms: term j is (i, k) = (j / D + 1, j % D), at lane j % WARP, so that the lanes
// of one step take neighbouring i, which mostly take the same path through sin's argument reduction.
// Each lane adds its terms, a shuffle reduction adds the lanes' sums, lane 0 writes F. The order of the
// sums differs from the CPU's (coordinate by coordinate), and CUDA's sin may differ from the host's in
// the last bit: tests/problems/test_weierstrass_gpu.py states the tolerances.
#define WARPS (BLOCK / WARP)

// sin(2^i y) for |2^i y| >= 2^8 (b = 2), with an exact argument reduction in place of sin's slow path
// (Payne-Hanek for the huge arguments, up to 2^100): |y| = M 2^e, M the integer mantissa, so
// 2^i |y| / (2 pi) = M 2^s / (2 pi), s = e + i, and its fraction is that of M c_s, c_s = frac(2^s / (2 pi))
// in 128-bit fixed point in the host's table (model.reduction_table: row s - REDUCTION_SMIN, high word then
// low word). The low 64 bits of M c_s (a wrapping multiply; float64: plus the carry out of M times the low
// word) are the phase in turns, within 2^-63; as a signed fraction p of a half turn, sin = sinpi(p).
// Below 2^8 (and for y = 0 or subnormal) sin's own fast path is exact enough.
#define REDUCTION_MIN_EXPONENT 8

#if F32
typedef float real;
// w 2^-ih sin(2^i y), the multiply kept apart from the caller's add. float32: M < 2^24, the high word is
// enough (phase within 2^-40 turns).
__device__ __forceinline__ float weierstrass_term(float w, float y, int i,
                                                  const unsigned long long* __restrict__ table) {
    const unsigned int bits = __float_as_uint(y);
    const int E = (int)((bits >> 23) & 0xFFu);  // biased exponent: |y| = M 2^(E - 150)
    float r;
    if (E == 0 || E - 127 + i < REDUCTION_MIN_EXPONENT) {
        r = sinf(ldexpf(y, i));
    } else {
        const unsigned long long M = (unsigned long long)((bits & 0x7FFFFFu) | 0x800000u);
        unsigned long long phase = M * __ldg(table + 2 * (E - 150 + i - REDUCTION_SMIN));
        if (bits >> 31) phase = 0ull - phase;  // sin is odd
        r = sinpif((float)(int)(phase >> 32) * 0x1p-31f);
    }
    return __fmul_rn(w, r);
}
#else
typedef double real;
__device__ __forceinline__ double weierstrass_term(double w, double y, int i,
                                                   const unsigned long long* __restrict__ table) {
    const unsigned long long bits = (unsigned long long)__double_as_longlong(y);
    const int E = (int)((bits >> 52) & 0x7FFull);  // biased exponent: |y| = M 2^(E - 1075)
    double r;
    if (E == 0 || E - 1023 + i < REDUCTION_MIN_EXPONENT) {
        r = sin(ldexp(y, i));
    } else {
        const unsigned long long M = (bits & 0xFFFFFFFFFFFFFull) | 0x10000000000000ull;
        const unsigned long long* c = table + 2 * (E - 1075 + i - REDUCTION_SMIN);
        unsigned long long phase = M * __ldg(c) + __umul64hi(M, __ldg(c + 1));
        if (bits >> 63) phase = 0ull - phase;  // sin is odd
        r = sinpi((double)(long long)phase * 0x1p-63);
    }
    return __dmul_rn(w, r);
}
#endif

// Arguments: the weights 2^(-i h) (TERMS,), in the arithmetic's type; the reduction table
// (REDUCTION_SMAX - REDUCTION_SMIN + 1, 2) uint64; the state: x (D,), the draw key
// (2,); then F (n_moves, 1).
extern "C" __global__ void __launch_bounds__(BLOCK) weierstrass_crowns(
    const real* __restrict__ weights, const unsigned long long* __restrict__ table, const double* __restrict__ x,
    const unsigned long long* __restrict__ key,
    double* __restrict__ F, long long n_moves)
{
    __shared__ double points[WARPS][D];
    const long long t = ((long long)blockIdx.x * BLOCK + threadIdx.x) / WARP;
    if (t >= n_moves) return;  // the whole warp: t is the warp's
    const int lane = threadIdx.x % WARP;
    double* y = points[threadIdx.x / WARP];
    crowns_point(x, t, D, key, y, lane, WARP);
    real s = 0;
    for (int j = lane; j < D * TERMS; j += WARP) {
        const int i = j / D, k = j - i * D;
        s += weierstrass_term(weights[i], (real)y[k], i + 1, table);
    }
#pragma unroll
    for (int h = WARP / 2; h > 0; h >>= 1) s += __shfl_xor_sync(0xffffffffu, s, h);
    if (lane == 0) F[t] = (double)s;
}
