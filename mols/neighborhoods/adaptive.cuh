// Adaptive steps: the CUDA twin of adaptive.py (the same neighbors, bit for bit), after draws.cuh. Defined before
// it: ADAPTIVE_LOW and ADAPTIVE_HIGH (the box), ADAPTIVE_OCTAVES, ADAPTIVE_QUARTER0..3 (2^(-i / 4)). Round-to-nearest
// intrinsics keep the compiler from fusing a multiply and an add, which the host does not do; ldexp is exact.
#define NBH_ARITY 1
struct Move { long long t; };
__device__ __forceinline__ Move nbh_decode(long long idx, int n) { Move mv; mv.t = idx; return mv; }
__device__ __forceinline__ int nbh_index(Move mv, int q) { return (int)mv.t; }
__device__ __forceinline__ long long nbh_inverse(long long idx, int n) { return idx; }

// 2^(-level / 4)
__device__ __forceinline__ double adaptive_scale(int level) {
    const double quarter = (level & 3) == 0 ? ADAPTIVE_QUARTER0 : (level & 3) == 1 ? ADAPTIVE_QUARTER1
                         : (level & 3) == 2 ? ADAPTIVE_QUARTER2 : ADAPTIVE_QUARTER3;
    return ldexp(quarter, -(level >> 2));
}

// Coordinate q of neighbor t of x (n values): the key's second word holds the radius level (bits 56..63) and the
// subset level (48..55).
__device__ __forceinline__ double adaptive_coordinate(const double* x, long long t, int q, int n,
                                                      const unsigned long long* key) {
    const bool forced = q == min((int)(draw_uniform(key, t, 0) * (double)n), n - 1);
    if (!forced && draw_uniform(key, t, 1 + 2 * q) >= adaptive_scale((int)((key[1] >> 48) & 255ull))) return x[q];
    const double width = __dsub_rn(ADAPTIVE_HIGH, ADAPTIVE_LOW);
    const double r = ldexp(__dmul_rn(width, adaptive_scale((int)(key[1] >> 56))), -(int)(t % ADAPTIVE_OCTAVES));
    const double step = __dmul_rn(__dsub_rn(__dmul_rn(2.0, draw_uniform(key, t, 2 + 2 * q)), 1.0), r);
    return fmin(fmax(__dadd_rn(x[q], step), ADAPTIVE_LOW), ADAPTIVE_HIGH);
}

// y = neighbor t of x, made by `lanes` threads of one warp together (crowns.cuh's nbh_point contract): y is
// shared by them; every thread of the warp must call this.
__device__ __forceinline__ void nbh_point(const double* x, long long t, int n, const unsigned long long* key,
                                          double* y, int lane, int lanes) {
    for (int q = lane; q < n; q += lanes) y[q] = adaptive_coordinate(x, t, q, n, key);
    __syncwarp();
}
