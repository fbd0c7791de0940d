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

#ifdef SEL_BLOCK
// The fused selection's pass over a lane's moves, the same for both forms (after algorithms/tabu/select.cu): each
// move's vector is cost0 + delta(its swaps), `delta` the form's functor.
template <class Delta>
__device__ __forceinline__ void q3ap_select_moves(const Delta& delta, VAL cost0, long long n_moves, long long first,
                                                  const double* c, const double* threshold, const long long* step,
                                                  const TABU* __restrict__ forbidden_until, double* part_s,
                                                  long long* part_i, FVAL* part_f) {
    forbidden_until += blockIdx.y * n_moves;
    double bs = SEL_INF, as = SEL_INF;
    long long bi = NO_ID, ai = NO_ID;
    FVAL bf[1], af[1];
    const double thr = *threshold;
    const long long now = *step, stride = (long long)gridDim.x * SEL_BLOCK;
    for (long long t = first + (long long)blockIdx.x * SEL_BLOCK + threadIdx.x; t < n_moves; t += stride) {
        const FVAL f[1] = {(FVAL)(cost0 + delta(nbh_swaps(nbh_decode(t, N_POS))))};
        const double score = score_of_row(f, c);
        if (keep_better(as, ai, score, t)) af[0] = f[0];
        if ((forbidden_until[t] <= now || score < thr) && keep_better(bs, bi, score, t)) bf[0] = f[0];
    }
    write_part(bs, bi, bf, as, ai, af, part_s, part_i, part_f);
}
#endif
