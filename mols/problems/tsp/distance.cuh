// TSPLIB distances (moves.distance's twin): float64 with explicit round-to-nearest operations (no fused
// multiply-add), so that they equal the Numba ones bit for bit. Needs #define ATT (1: ATT, 0: EUC_2D).
#ifndef MOLS_TSP_DISTANCE_CUH
#define MOLS_TSP_DISTANCE_CUH
__device__ __forceinline__ int tsp_distance(double2 a, double2 b) {
    const double dx = __dsub_rn(a.x, b.x), dy = __dsub_rn(a.y, b.y);
    const double s = __dadd_rn(__dmul_rn(dx, dx), __dmul_rn(dy, dy));
#if ATT
    const double r = __dsqrt_rn(__ddiv_rn(s, 10.0));
    const int t = (int)__dadd_rn(r, 0.5);
    return t < r ? t + 1 : t;
#else
    return (int)__dadd_rn(__dsqrt_rn(s), 0.5);
#endif
}
#endif
