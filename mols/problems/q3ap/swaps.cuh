// What the Q3AP's two forms share on the device (q3ap.cu, q3ap_general.cu): which positions a move of the pair of
// permutations changes, and where each takes its values from. Prepended: pair_swaps.cuh (Swaps).

// The position whose value a swap of positions a and b brings to position i (a = -1: no swap).
__device__ __forceinline__ int q3ap_source(int i, int a, int b) { return i == a ? b : (i == b ? a : i); }

// Slot u of the move (k, l, r, s), or -1 where it is empty or repeats k or l.
__device__ __forceinline__ int q3ap_changed(int u, Swaps w) {
    const int i = u == 0 ? w.k : u == 1 ? w.l : u == 2 ? w.r : w.s;
    return (u >= 2 && (i == w.k || i == w.l)) ? -1 : i;
}

// Whether position t is one of the move's (k, l, r, s).
__device__ __forceinline__ bool q3ap_moved(int t, Swaps w) { return t == w.k || t == w.l || t == w.r || t == w.s; }
