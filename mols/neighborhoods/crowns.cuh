// Crowns: the CUDA twin of crowns.py (the same neighbors, bit for bit: docs/internals.md), after draws.cuh.
// Defined before it: CROWNS_COUNT (neighbors), CROWNS_LOW and CROWNS_HIGH (the box), CROWNS_TWO_PI. Round-to-nearest
// intrinsics (__dadd_rn, ...) keep the compiler from fusing a multiply and an add, which the host does not do.
#define NBH_ARITY 1
struct Move { long long t; };
__device__ __forceinline__ Move nbh_decode(long long idx, int n) { Move mv; mv.t = idx; return mv; }
__device__ __forceinline__ int nbh_index(Move mv, int q) { return (int)mv.t; }
// Tabu search forbids the crown just taken.
__device__ __forceinline__ long long nbh_inverse(long long idx, int n) { return idx; }

// Gaussian draw q of neighbor t (Box-Muller), rounded to float32.
__device__ __forceinline__ double crowns_gaussian(const unsigned long long* key, long long t, int q) {
    const double u = draw_uniform(key, t, 2 * q), v = draw_uniform(key, t, 2 * q + 1);
    const double g = __dmul_rn(__dsqrt_rn(__dmul_rn(-2.0, log(__dsub_rn(1.0, u)))), cos(__dmul_rn(CROWNS_TWO_PI, v)));
    return (double)__double2float_rn(g);
}

// The distance of neighbor t from x: uniform in [h_t, h_t+1], h_t = t / (n CROWNS_COUNT).
__device__ __forceinline__ double crowns_radius(const unsigned long long* key, long long t, int n) {
    return __ddiv_rn(__dadd_rn((double)t, draw_uniform(key, t, 2 * n)), (double)((long long)n * CROWNS_COUNT));
}

// y = neighbor t of x (n values, y not x), made by `lanes` threads of one warp together (lane = 0 .. lanes - 1;
// 1 lane: a thread alone). y is shared by them (shared memory); every thread of the warp must call this.
__device__ void crowns_point(const double* x, long long t, int n, const unsigned long long* key, double* y,
                             int lane, int lanes) {
    for (int q = lane; q < n; q += lanes) y[q] = crowns_gaussian(key, t, q);
    __syncwarp();
    double norm2 = 0.0;
    for (int q = 0; q < n; ++q) norm2 = __dadd_rn(norm2, __dmul_rn(y[q], y[q]));  // in the host's order
    const double norm = __dsqrt_rn(norm2), r = crowns_radius(key, t, n);
    __syncwarp();  // every lane has read y before any overwrites it
    for (int q = lane; q < n; q += lanes) {
        const double unit = norm > 0.0 ? __ddiv_rn(y[q], norm) : (q == 0 ? 1.0 : 0.0);
        y[q] = fmin(fmax(__dadd_rn(x[q], __dmul_rn(r, unit)), CROWNS_LOW), CROWNS_HIGH);
    }
    __syncwarp();
}

// The point function every real-vector kernel calls (weierstrass.cu), whatever the sampled neighborhood.
__device__ __forceinline__ void nbh_point(const double* x, long long t, int n, const unsigned long long* key,
                                          double* y, int lane, int lanes) {
    crowns_point(x, t, n, key, y, lane, lanes);
}
