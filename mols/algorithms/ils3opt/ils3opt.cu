// Iterated local search with 3-opt, the CUDA twin of three_opt.py and ils3opt.py: the same moves, first-improvement
// order and draws, so a population's tours equal the Numba reference's. Prepended: draws.cuh, distance.cuh and
// #define N_CITIES, K, SEG, ATT, PAIRS, MERGED, OROPT, FI_BOUNDS; the three ways to run it: docs/internals.md.

#define N N_CITIES

struct Scratch {  // what a team shares: in shared memory for a block, in registers for one thread
    int stop;  // Block's search over the triples (PAIRS 1): the first a whose g1 is not positive
    int win, move[4];  // Block's search by candidate (PAIRS 0): the smallest a with a move, its t3 .. t6 and gain
    long long move_gain;
    long long gain;
    int head, count, moved;
    int touched[6];
    int dirty[2];  // the positions lo .. hi the iteration's reversals wrote (three_opt.widen), thread 0's to write
    int changed[2];  // merged rounds: dirty narrowed to where the kept tour differs from the best before it
};

struct Solo {
    static __device__ __forceinline__ int rank() { return 0; }
    static __device__ __forceinline__ int size() { return 1; }
    static __device__ __forceinline__ void sync() {}
};

struct Block {
    static __device__ __forceinline__ int rank() { return threadIdx.x; }
    static __device__ __forceinline__ int size() { return blockDim.x; }
    static __device__ __forceinline__ void sync() { __syncthreads(); }
};

__device__ __forceinline__ int dist(const double* __restrict__ xy, int a, int b) {
    return tsp_distance(make_double2(xy[2 * a], xy[2 * a + 1]), make_double2(xy[2 * b], xy[2 * b + 1]));
}

// cand rows of K (city, distance) pairs: a candidate of city c and its distance from c
// (three_opt.candidate_table), read together, so that a scan's partial gains need no coordinates.
__device__ __forceinline__ int cand_city(const int* __restrict__ cand, int c, int a) { return cand[2 * (c * K + a)]; }
__device__ __forceinline__ int cand_dist(const int* __restrict__ cand, int c, int a) {
    return cand[2 * (c * K + a) + 1];
}

__device__ __forceinline__ int succ(const int* tour, const int* pos, int c) {
    const int p = pos[c] + 1;
    return tour[p == N ? 0 : p];
}

__device__ __forceinline__ int pred(const int* tour, const int* pos, int c) {
    const int p = pos[c];
    return tour[p == 0 ? N - 1 : p - 1];
}

__device__ __forceinline__ int step(const int* tour, const int* pos, int c, bool fwd) {
    return fwd ? succ(tour, pos, c) : pred(tour, pos, c);
}

__device__ __forceinline__ bool between(const int* pos, int a, int b, int c, bool fwd) {
    if (!fwd) { const int t = a; a = c; c = t; }
    const int pa = pos[a], pb = pos[b], pc = pos[c];
    if (pa <= pc) return pa <= pb && pb <= pc;
    return pb >= pa || pb <= pc;
}

// three_opt.widen: the range dirty = [lo, hi] widened by i .. j, to the whole tour where i .. j wraps.
__device__ __forceinline__ void widen(int* dirty, int i, int j) {
    if (i > j) { dirty[0] = 0; dirty[1] = N - 1; }
    else {
        if (i < dirty[0]) dirty[0] = i;
        if (j > dirty[1]) dirty[1] = j;
    }
}

// Positions i .. j (forward, around the cycle) reversed by the team, pairs dealt round-robin; dirty (if not null:
// the team's shared range) widened by them.
template <class T> __device__ void reverse(int* tour, int* pos, int i, int j, int* dirty) {
    const int length = j - i + (j < i ? N : 0) + 1;
    T::sync();  // every thread has read what it needs before the tour changes
    if (dirty != nullptr && T::rank() == 0) widen(dirty, i, j);
    for (int s = T::rank(); s < length / 2; s += T::size()) {
        int p = i + s, q = j - s;
        if (p >= N) p -= N;
        if (q < 0) q += N;
        const int a = tour[p], b = tour[q];
        tour[p] = b; pos[b] = p;
        tour[q] = a; pos[a] = q;
    }
    T::sync();
}

template <class T> __device__ void flip(int* tour, int* pos, int a, int b, int c, int d, int* dirty) {
    if (succ(tour, pos, a) != b) { int t = a; a = b; b = t; t = c; c = d; d = t; }
    const int inner = pos[c] - pos[b] + (pos[c] < pos[b] ? N : 0) + 1;
    if (2 * inner <= N) reverse<T>(tour, pos, pos[b], pos[c], dirty);
    else reverse<T>(tour, pos, pos[d], pos[a], dirty);
}

__device__ bool valid_close(const int* tour, const int* pos, int t1, int t2, int t3, int t4, int t5, int t6,
                            bool fwd) {
    const bool t4_after = t4 == step(tour, pos, t3, fwd), t6_after = t6 == step(tour, pos, t5, fwd);
    if (t4_after) return between(pos, t2, t5, t3, fwd) && (t6_after ? t5 != t3 : t5 != t2);
    if (t6_after) return between(pos, t2, t5, t4, fwd) && t5 != t4;
    return between(pos, t3, t5, t1, fwd) && t5 != t3 && t5 != t1;
}

template <class T> __device__ void apply_sequential(int* tour, int* pos, int t1, int t2, int t3, int t4, int t5,
                                                    int t6, bool fwd, int* dirty) {
    if (t4 != step(tour, pos, t3, fwd)) {
        flip<T>(tour, pos, t1, t2, t4, t3, dirty);
        if (t5 >= 0) flip<T>(tour, pos, t1, t4, t6, t5, dirty);
    } else if (t6 == step(tour, pos, t5, fwd)) {
        flip<T>(tour, pos, t1, t2, t3, t4, dirty);
        flip<T>(tour, pos, t1, t3, t6, t5, dirty);
        flip<T>(tour, pos, t3, t5, t2, t4, dirty);
    } else {
        flip<T>(tour, pos, t1, t2, t6, t5, dirty);
        flip<T>(tour, pos, t2, t5, t3, t4, dirty);
    }
}

#if OROPT
#define OR_MAX 3
// or_opt.or_move: the first improving Or-opt move from t1, m = p, t1, s_end, q, c, d (the segment t1 .. s_end moved
// between c and d). Every thread of a team searches alone, in the sequential order: few candidates pass the removal's
// gain, and every thread finds the same move.
__device__ bool or_move(const double* xy, const int* cand, const int* tour, const int* pos, int t1, int* m,
                        bool& fwd_o, long long& gain_o) {
    for (int direction = 0; direction < 2; ++direction) {
        const bool fwd = direction == 0;
        const int p = step(tour, pos, t1, !fwd);
        int s_end = t1;
        for (int length = 1; length <= OR_MAX; ++length) {
            if (length > 1) s_end = step(tour, pos, s_end, fwd);
            const int q = step(tour, pos, s_end, fwd);
            const long long g0 = (long long)dist(xy, p, t1) + dist(xy, s_end, q) - dist(xy, p, q);
            for (int a = 0; a < K; ++a) {
                const int c = cand_city(cand, t1, a);
                const long long g1 = g0 - cand_dist(cand, t1, a);
                if (g1 <= 0) break;
                if (c == p || c == q || between(pos, t1, c, s_end, fwd)) continue;
                for (int side = 0; side < 2; ++side) {
                    const int d = side == 0 ? step(tour, pos, c, fwd) : step(tour, pos, c, !fwd);
                    if (d == p || d == q) continue;
                    const long long gain = g1 + dist(xy, c, d) - dist(xy, s_end, d);
                    if (gain > 0) {
                        m[0] = p; m[1] = t1; m[2] = s_end; m[3] = q; m[4] = c; m[5] = d;
                        fwd_o = fwd; gain_o = gain;
                        return true;
                    }
                }
            }
        }
    }
    return false;
}

// or_opt.apply_or: d after c keeps the segment's orientation (three flips, two for one city), else it is reversed.
template <class T> __device__ void apply_or(int* tour, int* pos, const int* m, bool fwd, int* dirty) {
    const int p = m[0], t1 = m[1], s_end = m[2], q = m[3], c = m[4], d = m[5];
    if (d == step(tour, pos, c, fwd)) {
        flip<T>(tour, pos, p, t1, c, d, dirty);
        flip<T>(tour, pos, p, c, q, s_end, dirty);
        if (t1 != s_end) flip<T>(tour, pos, c, s_end, t1, d, dirty);
    } else {
        flip<T>(tour, pos, p, t1, d, c, dirty);
        flip<T>(tour, pos, p, d, q, s_end, dirty);
    }
}
#endif

// search_t3's steps, shared by the sequential search (Solo) and the parallel one (Block).
// The partial gain g1 of t2's a-th candidate t3: d(t1, t2) - d(t2, t3).
__device__ __forceinline__ long long g1_of(const int* cand, int t2, long long d12, int a) {
    return d12 - cand_dist(cand, t2, a);
}

// t4 (which 0: t3's neighbour before it in direction fwd, 1: after it) and the partial gain g1b = g1 + d(t3, t4).
__device__ __forceinline__ int t4_of(const double* xy, const int* tour, const int* pos, int t3, long long g1,
                                     int which, bool fwd, long long& g1b) {
    const int t4 = which == 0 ? step(tour, pos, t3, !fwd) : step(tour, pos, t3, fwd);
    g1b = g1 + dist(xy, t3, t4);
    return t4;
}

// The 2-opt close (t4, t1)'s gain.
__device__ __forceinline__ long long close_gain(const double* xy, int t1, int t4, long long g1b) {
    return g1b - dist(xy, t4, t1);
}

// The partial gain g2 of t4's b-th candidate t5: g1b - d(t4, t5).
__device__ __forceinline__ long long g2_of(const int* cand, int t4, long long g1b, int b) {
    return g1b - cand_dist(cand, t4, b);
}

#define T5_STOP (-2)
// t4's b-th candidate t5: T5_STOP where g2 is not positive (the list scan stops there), else the first w (0: t6
// after t5 in direction fwd, 1: before) that closes into an improving move (t5o, t6o, gain_o), else -1.
__device__ int try_t5(const double* xy, const int* cand, const int* tour, const int* pos, int t1, int t2, int t3,
                      int t4, long long g1b, int b, bool fwd, int& t5o, int& t6o, long long& gain_o) {
    const int t5 = cand_city(cand, t4, b);
    const long long g2 = g2_of(cand, t4, g1b, b);
    if (g2 <= 0) return T5_STOP;
    if (t5 == succ(tour, pos, t4) || t5 == pred(tour, pos, t4)) return -1;
    for (int w = 0; w < 2; ++w) {
        const int t6 = w == 0 ? step(tour, pos, t5, fwd) : step(tour, pos, t5, !fwd);
        if (valid_close(tour, pos, t1, t2, t3, t4, t5, t6, fwd)) {
            const long long gain = g2 + dist(xy, t5, t6) - dist(xy, t6, t1);
            if (gain > 0) { t5o = t5; t6o = t6; gain_o = gain; return w; }
        }
    }
    return -1;
}

// three_opt.search_t3: the first improving completion of t1, t2, t3.
__device__ bool search_t3(const double* xy, const int* cand, const int* tour, const int* pos, int t1, int t2, int t3,
                          long long g1, bool fwd, int& t4o, int& t5o, int& t6o, long long& gain_o) {
    for (int which = 0; which < 2; ++which) {
        long long g1b;
        const int t4 = t4_of(xy, tour, pos, t3, g1, which, fwd, g1b);
        if (which == 0) {
            const long long gain = close_gain(xy, t1, t4, g1b);
            if (gain > 0) { t4o = t4; t5o = -1; t6o = -1; gain_o = gain; return true; }
        }
        for (int b = 0; b < K; ++b) {
            const int w = try_t5(xy, cand, tour, pos, t1, t2, t3, t4, g1b, b, fwd, t5o, t6o, gain_o);
            if (w == T5_STOP) break;
            if (w >= 0) { t4o = t4; return true; }
        }
    }
    return false;
}

// The first improving move of direction fwd from t1, t2 (three_opt.improve_city's loop over t2's candidates), the
// same t3 .. t6 and gain to every thread of the team. Solo: in the sequential order.
__device__ bool search_direction(Solo, const double* xy, const int* cand, const int* tour, const int* pos, int t1,
                                 int t2, bool fwd, Scratch* sh, int& t3, int& t4, int& t5, int& t6, long long& gain) {
    const long long d12 = dist(xy, t1, t2);
    for (int a = 0; a < K; ++a) {
        t3 = cand_city(cand, t2, a);
        const long long g1 = g1_of(cand, t2, d12, a);
        if (g1 <= 0) break;
        if (t3 == step(tour, pos, t2, fwd)) continue;
        if (search_t3(xy, cand, tour, pos, t1, t2, t3, g1, fwd, t4, t5, t6, gain)) return true;
    }
    return false;
}

#if PAIRS
// Block: every candidate move at once. The moves of a direction in the sequential order are (a, which) pairs
// aw = 2a + which, each the 2-opt close (which 0 only) then (b, w) for b < K, w < 2; the sequential search takes
// the first improving move it reaches: a before the first a whose g1 is not positive (sh->stop; t3 = t2's next is
// skipped), b before (a, which)'s first b whose g2 is not positive (stop[aw]). The threads first find sh->stop,
// then take the triples (aw, b) with a < sh->stop in turn, each its t5's closes (and b 0 of which 0 the 2-opt
// close): a t5 whose g2 is not positive after one whose g2 is (or at b 0) gives stop[aw] by atomicMin, an
// improving close its code (0: the 2-opt close, 1 + 2b + w) to first[aw]; then each thread reads the first aw whose
// first code comes before its stop, and recomputes that move.
__device__ bool search_direction(Block, const double* xy, const int* cand, const int* tour, const int* pos, int t1,
                                 int t2, bool fwd, Scratch* sh, int& t3, int& t4, int& t5, int& t6, long long& gain) {
    __shared__ int stop[2 * K], first[2 * K];
    const long long d12 = dist(xy, t1, t2);
    int mine = K;  // the first a with g1 <= 0 is the only one whose g1 <= 0 after a positive one (or at a 0)
    for (int a = Block::rank(); a < K; a += Block::size())
        if (g1_of(cand, t2, d12, a) <= 0 && (a == 0 || g1_of(cand, t2, d12, a - 1) > 0)) { mine = a; break; }
    Block::sync();  // every thread has read the last direction's stop, first and sh->stop
    for (int i = Block::rank(); i < 2 * K; i += Block::size()) { stop[i] = K; first[i] = 0x7fffffff; }
    if (Block::rank() == 0) sh->stop = K;
    Block::sync();
    if (mine < K) atomicMin(&sh->stop, mine);
    Block::sync();
    const int pairs = 2 * sh->stop;
    const int next2 = step(tour, pos, t2, fwd);
    for (int i = Block::rank(); i < pairs * K; i += Block::size()) {
        const int aw = i / K, b = i % K, a = aw / 2, which = aw % 2;
        t3 = cand_city(cand, t2, a);
        if (t3 == next2) continue;
        long long g1b;
        t4 = t4_of(xy, tour, pos, t3, g1_of(cand, t2, d12, a), which, fwd, g1b);
        if (which == 0 && b == 0 && close_gain(xy, t1, t4, g1b) > 0) atomicMin(&first[aw], 0);
        const int w = try_t5(xy, cand, tour, pos, t1, t2, t3, t4, g1b, b, fwd, t5, t6, gain);
        if (w >= 0) atomicMin(&first[aw], 1 + 2 * b + w);
        else if (w == T5_STOP && (b == 0 || g2_of(cand, t4, g1b, b - 1) > 0)) atomicMin(&stop[aw], b);
    }
    Block::sync();
    for (int aw = 0; aw < pairs; ++aw) {
        const int code = first[aw];
        if (code >= 1 + 2 * stop[aw]) continue;  // none, or past the scan's stop
        long long g1b;
        t3 = cand_city(cand, t2, aw / 2);
        t4 = t4_of(xy, tour, pos, t3, g1_of(cand, t2, d12, aw / 2), aw % 2, fwd, g1b);
        if (code == 0) { t5 = -1; t6 = -1; gain = close_gain(xy, t1, t4, g1b); }
        else try_t5(xy, cand, tour, pos, t1, t2, t3, t4, g1b, (code - 1) / 2, fwd, t5, t6, gain);
        return true;
    }
    return false;
}
#else
// Block by candidate (the paper's ILS-FI-block, faster where many blocks share a multiprocessor): thread a of t2's
// list runs search_t3 alone, stopping at a non-positive g1 as the scan does (exact where partial gains only fall
// along a list, as candidate lists sorted by distance have them); the smallest a with an improving move wins, and
// its thread hands the move to the others.
__device__ bool search_direction(Block, const double* xy, const int* cand, const int* tour, const int* pos, int t1,
                                 int t2, bool fwd, Scratch* sh, int& t3, int& t4, int& t5, int& t6, long long& gain) {
    const long long d12 = dist(xy, t1, t2);
    const int next2 = step(tour, pos, t2, fwd);
    Block::sync();  // every thread has read the last direction's move
    if (Block::rank() == 0) sh->win = 0x7fffffff;
    Block::sync();
    int mine = 0x7fffffff;
    for (int a = Block::rank(); a < K; a += Block::size()) {
        t3 = cand_city(cand, t2, a);
        const long long g1 = g1_of(cand, t2, d12, a);
        if (g1 <= 0) break;
        if (t3 != next2 && search_t3(xy, cand, tour, pos, t1, t2, t3, g1, fwd, t4, t5, t6, gain)) { mine = a; break; }
    }
    if (mine != 0x7fffffff) atomicMin(&sh->win, mine);
    Block::sync();
    if (mine != 0x7fffffff && mine == sh->win) {
        sh->move[0] = t3; sh->move[1] = t4; sh->move[2] = t5; sh->move[3] = t6; sh->move_gain = gain;
    }
    Block::sync();
    if (sh->win == 0x7fffffff) return false;
    t3 = sh->move[0]; t4 = sh->move[1]; t5 = sh->move[2]; t6 = sh->move[3]; gain = sh->move_gain;
    return true;
}
#endif

// three_opt.improve_city: sh->moved end cities in sh->touched (0: no improving move), sh->gain.
template <class T> __device__ void improve_city(const double* xy, const int* cand, int* tour, int* pos, int t1,
                                                Scratch* sh) {
    for (int direction = 0; direction < 2; ++direction) {
        const bool fwd = direction == 0;
        const int t2 = step(tour, pos, t1, fwd);
        int t3, t4, t5, t6;
        long long gain;
        if (search_direction(T(), xy, cand, tour, pos, t1, t2, fwd, sh, t3, t4, t5, t6, gain)) {
            apply_sequential<T>(tour, pos, t1, t2, t3, t4, t5, t6, fwd, sh->dirty);
            if (T::rank() == 0) {
                sh->touched[0] = t1; sh->touched[1] = t2; sh->touched[2] = t3; sh->touched[3] = t4;
                sh->touched[4] = t5; sh->touched[5] = t6;
                sh->moved = t5 < 0 ? 4 : 6;
                sh->gain = gain;
            }
            T::sync();
            return;
        }
    }
#if OROPT  // local_search.local_search: Or-opt where 3-opt finds nothing
    int m[6];
    bool fwd;
    long long gain;
    if (or_move(xy, cand, tour, pos, t1, m, fwd, gain)) {
        apply_or<T>(tour, pos, m, fwd, sh->dirty);
        if (T::rank() == 0) {
            for (int q = 0; q < 6; ++q) sh->touched[q] = m[q];
            sh->moved = 6;
            sh->gain = gain;
        }
        T::sync();
        return;
    }
#endif
    if (T::rank() == 0) { sh->moved = 0; sh->gain = 0; }
    T::sync();
}

__device__ __forceinline__ int push(int* queue, unsigned char* queued, int head, int count, int c) {
    if (queued[c]) return count;
    queued[c] = 1;
    queue[(head + count) % N] = c;
    return count + 1;
}

// local_search.local_search: cities queue[0:sh->count] (set by the caller before a sync) looked at in turn; returns
// the total gain (to every thread).
template <class T> __device__ long long local_search(const double* xy, const int* cand, int* tour, int* pos,
                                                     int* queue, unsigned char* queued, Scratch* sh) {
    long long total = 0;
    if (T::rank() == 0) sh->head = 0;
    T::sync();
    while (sh->count > 0) {
        const int t1 = queue[sh->head];
        T::sync();
        if (T::rank() == 0) {
            sh->head = sh->head + 1 < N ? sh->head + 1 : 0;
            sh->count -= 1;
            queued[t1] = 0;
        }
        improve_city<T>(xy, cand, tour, pos, t1, sh);
        total += sh->gain;
        if (T::rank() == 0)
            for (int q = 0; q < sh->moved; ++q) sh->count = push(queue, queued, sh->head, sh->count, sh->touched[q]);
        T::sync();
    }
    return total;
}

template <class T> __device__ void copy(int* dst, const int* src) {
    for (int p = T::rank(); p < N; p += T::size()) dst[p] = src[p];
    T::sync();
}

// ils3opt.copy_range: dst[p] = src[p] and dst_pos[src[p]] = p for p = lo .. hi, by the team.
template <class T> __device__ void copy_range(int* dst, int* dst_pos, const int* src, int lo, int hi) {
    for (int p = lo + T::rank(); p <= hi; p += T::size()) {
        const int c = src[p];
        dst[p] = c; dst_pos[c] = p;
    }
    T::sync();
}

// ils3opt.double_bridge: returns the length change; the 8 end cities in ends (every thread's own copy).
template <class T> __device__ long long double_bridge(const double* xy, int* tour, int* pos, int start, int l1,
                                                      int l2, int l3, int* ends, int* dirty) {
    const int i = (start + 1) % N, last = (start + l1 + l2 + l3) % N;
    ends[0] = tour[start]; ends[1] = tour[i]; ends[2] = tour[(start + l1) % N]; ends[3] = tour[(start + l1 + 1) % N];
    ends[4] = tour[(start + l1 + l2) % N]; ends[5] = tour[(start + l1 + l2 + 1) % N]; ends[6] = tour[last];
    ends[7] = tour[(last + 1) % N];  // a, b1, b2, c1, c2, d1, d2, e
    const long long delta = (long long)dist(xy, ends[0], ends[5]) + dist(xy, ends[6], ends[3])
                          + dist(xy, ends[4], ends[1]) + dist(xy, ends[2], ends[7]) - dist(xy, ends[0], ends[1])
                          - dist(xy, ends[2], ends[3]) - dist(xy, ends[4], ends[5]) - dist(xy, ends[6], ends[7]);
    reverse<T>(tour, pos, i, last, dirty);
    reverse<T>(tour, pos, i, (start + l3) % N, dirty);
    reverse<T>(tour, pos, (start + l3 + 1) % N, (start + l3 + l2) % N, dirty);
    reverse<T>(tour, pos, (start + l3 + l2 + 1) % N, last, dirty);
    return delta;
}

// ils3opt.perturb: iteration it's double bridge from a position in lo .. lo + width - 1 (width 0: anywhere).
template <class T> __device__ long long perturb(const double* xy, const unsigned long long* key, int it, int* tour,
                                                int* pos, int* ends, int* dirty, int lo, int width) {
    const int start = lo + (int)(draw_uniform(key, it, 0) * (width ? width : N));
    const int l1 = 1 + (int)(draw_uniform(key, it, 1) * SEG);
    const int l2 = 1 + (int)(draw_uniform(key, it, 2) * SEG);
    const int l3 = 1 + (int)(draw_uniform(key, it, 3) * SEG);
    return double_bridge<T>(xy, tour, pos, start, l1, l2, l3, ends, dirty);
}

// ils3opt.changed_range: lo .. hi narrowed to where tour and best differ, to every thread (sh->changed).
__device__ void changed_range(Solo, const int* tour, const int* best, int lo, int hi, Scratch* sh) {
    while (lo <= hi && tour[lo] == best[lo]) ++lo;
    while (hi >= lo && tour[hi] == best[hi]) --hi;
    sh->changed[0] = lo; sh->changed[1] = hi;
}

__device__ void changed_range(Block, const int* tour, const int* best, int lo, int hi, Scratch* sh) {
    if (threadIdx.x == 0) { sh->changed[0] = N; sh->changed[1] = -1; }
    __syncthreads();
    for (int p = lo + threadIdx.x; p <= hi; p += blockDim.x) {
        if (tour[p] != best[p]) { atomicMin(&sh->changed[0], p); atomicMax(&sh->changed[1], p); }
    }
    __syncthreads();
}

// ils3opt.ils_solution for one solution, by a team; window > 0: a merged round (ils_merge), span its (lo, hi).
template <class T> __device__ void ils_solution(const double* xy, const int* cand, const unsigned long long* key,
                                                int* tour, int* pos, int* best, int* best_pos, int* queue,
                                                unsigned char* queued, long long* length, int it_from, int it_to,
                                                int window, int* span, Scratch* sh) {
    // ils3opt.window_start
    if (!MERGED) window = 0;  // compiled out: the plain kernels keep their registers
    const int w_lo = window ? (int)(draw_uniform(key, it_from, 4) * (N - window - 3 * SEG - 1)) : 0;
    for (int it = it_from; it < it_to; ++it) {
        if (it == 0) {
            for (int c = T::rank(); c < N; c += T::size()) { pos[tour[c]] = c; queue[c] = c; queued[c] = 1; }
            if (T::rank() == 0) sh->count = N;
            T::sync();
            const long long gain = local_search<T>(xy, cand, tour, pos, queue, queued, sh);
            if (T::rank() == 0) *length -= gain;
            copy<T>(best, tour);
            copy<T>(best_pos, pos);
            continue;
        }
        if (T::rank() == 0) { sh->dirty[0] = N; sh->dirty[1] = -1; }  // empty; last read before the last copy's sync
        int ends[8];
        const long long delta = perturb<T>(xy, key, it, tour, pos, ends, sh->dirty, w_lo, window);
        if (T::rank() == 0) {
            int count = 0;
            for (int q = 0; q < 8; ++q) count = push(queue, queued, 0, count, ends[q]);
            sh->count = count;
        }
        T::sync();
        const long long current = *length + delta - local_search<T>(xy, cand, tour, pos, queue, queued, sh);
        const bool better = current <= *length;  // not longer: docs/internals.md says why
        int lo = sh->dirty[0], hi = sh->dirty[1];  // tour == best and pos == best_pos outside lo .. hi
        T::sync();  // every thread has compared and read the range before the length changes
        if (better && window) {
            changed_range(T(), tour, best, lo, hi, sh);
            lo = sh->changed[0]; hi = sh->changed[1];
            if (T::rank() == 0 && lo <= hi) { span[0] = min(span[0], lo); span[1] = max(span[1], hi); }
        }
        if (better) {
            if (T::rank() == 0) *length = current;
            copy_range<T>(best, best_pos, tour, lo, hi);
        } else {
            copy_range<T>(tour, pos, best, lo, hi);
        }
    }
}

#define POPULATION_ARGS const double* __restrict__ xy, const int* __restrict__ cand, unsigned long long seed, int P, \
    int* tours, int* poss, int* bests, int* best_poss, int* queues, unsigned char* queueds, long long* lengths, \
    int it_from, int it_to, int window, int* spans

extern "C" __global__ void FI_BOUNDS ils_fi_thread(POPULATION_ARGS) {
    const int s = blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= P) return;
    const unsigned long long key[2] = {seed, (unsigned long long)s};
    const long long row = (long long)s * N;
    Scratch sh;
    ils_solution<Solo>(xy, cand, key, tours + row, poss + row, bests + row, best_poss + row, queues + row,
                       queueds + row, lengths + s, it_from, it_to, window, spans + 2 * s, &sh);
}

extern "C" __global__ void FI_BOUNDS ils_fi_block(POPULATION_ARGS) {
    const int s = blockIdx.x;
    const unsigned long long key[2] = {seed, (unsigned long long)s};
    const long long row = (long long)s * N;
    __shared__ Scratch sh;
    ils_solution<Block>(xy, cand, key, tours + row, poss + row, bests + row, best_poss + row, queues + row,
                        queueds + row, lengths + s, it_from, it_to, window, spans + 2 * s, &sh);
}

// Dynamic shared memory: tour, positions and queue (3 N ints), then the queued flags (N bytes).
extern "C" __global__ void FI_BOUNDS ils_fi_block_shared(POPULATION_ARGS) {
    extern __shared__ int smem[];
    const int s = blockIdx.x;
    const unsigned long long key[2] = {seed, (unsigned long long)s};
    const long long row = (long long)s * N;
    __shared__ Scratch sh;
    int* tour = smem;
    int* pos = smem + N;
    int* queue = smem + 2 * N;
    unsigned char* queued = (unsigned char*)(smem + 3 * N);
    for (int p = threadIdx.x; p < N; p += blockDim.x) {
        tour[p] = tours[row + p];
        pos[p] = poss[row + p];
        queued[p] = 0;
    }
    __syncthreads();
    ils_solution<Block>(xy, cand, key, tour, pos, bests + row, best_poss + row, queue, queued, lengths + s, it_from,
                        it_to, window, spans + 2 * s, &sh);
    for (int p = threadIdx.x; p < N; p += blockDim.x) {
        tours[row + p] = tour[p];
        poss[row + p] = pos[p];
    }
}

// ---- Merged rounds (ils_merge.py), islands of `island` consecutive solutions: a block per selected solution copies
// its span into its island's incumbent; then block s < P restarts solution s from its island's incumbent rotated by
// offset, and block P + g writes island g's rotated incumbent to next.

extern "C" __global__ void ils_merge_apply(const int* bests, const long long* selected, const int* spans,
                                           int* incumbents, int island) {
    const long long s = selected[blockIdx.x];
    int* incumbent = incumbents + (s / island) * N;
    for (int p = spans[2 * s] + threadIdx.x; p <= spans[2 * s + 1]; p += blockDim.x) incumbent[p] = bests[s * N + p];
}

extern "C" __global__ void ils_merge_broadcast(const int* incumbents, int offset, int P, int island, int* tours,
                                               int* poss, int* bests, int* best_poss, long long* lengths,
                                               const long long* island_lengths, int* spans, int* next) {
    const int s = blockIdx.x;
    const long long row = (long long)s * N;
    const int* incumbent = incumbents + (long long)(s < P ? s / island : s - P) * N;
    for (int p = threadIdx.x; p < N; p += blockDim.x) {
        const int c = incumbent[(p + offset) % N];
        if (s >= P) { next[(long long)(s - P) * N + p] = c; continue; }
        tours[row + p] = c; bests[row + p] = c; poss[row + c] = p; best_poss[row + c] = p;
    }
    if (s < P && threadIdx.x == 0) { lengths[s] = island_lengths[s / island]; spans[2 * s] = N; spans[2 * s + 1] = -1; }
}

// ---- ILS-RKBI-blocks: random-k best improvement (ils3opt.rkbi_descent), several blocks per solution. Each LS step
// is two launches: ils_rkbi_sample (grid P x B: block b of solution s takes samples b * blockDim + t, stepping by
// B * blockDim, and keeps the first of the smallest deltas) and ils_rkbi_apply (a block per solution: the best
// over the B blocks, applied, or the solution's descent ended). The host repeats them until no solution is active.

#define RKBI_TAG (1ULL << 62)
#ifndef RKBI_THREADS  // a power of two; the CPU simulation of the tests takes fewer
#define RKBI_THREADS 128
#endif

__device__ __forceinline__ unsigned long long rkbi_id(int it, int step) {
    return RKBI_TAG + (unsigned long long)it * (1ULL << 31) + (unsigned long long)step;
}

__device__ bool sample_positions(const unsigned long long* key, unsigned long long idx, long long q, int& i, int& j,
                                 int& k) {
    int p0 = (int)(draw_uniform(key, (long long)idx, 3 * q) * N);
    int p1 = (int)(draw_uniform(key, (long long)idx, 3 * q + 1) * N);
    int p2 = (int)(draw_uniform(key, (long long)idx, 3 * q + 2) * N);
    int t;
    if (p0 > p1) { t = p0; p0 = p1; p1 = t; }
    if (p1 > p2) { t = p1; p1 = p2; p2 = t; }
    if (p0 > p1) { t = p0; p0 = p1; p1 = t; }
    i = p0; j = p1; k = p2;
    return p0 < p1 && p1 < p2;
}

// three_opt.case_delta
__device__ long long case_delta(const double* xy, const int* tour, int i, int j, int k, int c) {
    const int a = tour[i], b = tour[i + 1], cc = tour[j], d = tour[j + 1], e = tour[k], f = tour[(k + 1) % N];
    const long long ab = dist(xy, a, b), cd = dist(xy, cc, d), ef = dist(xy, e, f);
    switch (c) {
        case 0: return dist(xy, a, cc) + dist(xy, b, d) - ab - cd;
        case 1: return dist(xy, cc, e) + dist(xy, d, f) - cd - ef;
        case 2: return dist(xy, a, e) + dist(xy, b, f) - ab - ef;
        case 3: return (long long)dist(xy, a, cc) + dist(xy, b, e) + dist(xy, d, f) - ab - cd - ef;
        case 4: return (long long)dist(xy, a, d) + dist(xy, e, b) + dist(xy, cc, f) - ab - cd - ef;
        case 5: return (long long)dist(xy, a, d) + dist(xy, e, cc) + dist(xy, b, f) - ab - cd - ef;
        default: return (long long)dist(xy, a, e) + dist(xy, d, b) + dist(xy, cc, f) - ab - cd - ef;
    }
}

// three_opt.apply_case, by a team.
template <class T> __device__ void apply_case(int* tour, int* pos, int i, int j, int k, int c, int* dirty) {
    const int a = tour[i], b = tour[i + 1], cc = tour[j], d = tour[j + 1], e = tour[k], f = tour[(k + 1) % N];
    if (c == 0) flip<T>(tour, pos, a, b, cc, d, dirty);
    else if (c == 1) flip<T>(tour, pos, cc, d, e, f, dirty);
    else if (c == 2) flip<T>(tour, pos, a, b, e, f, dirty);
    else if (c == 3) { flip<T>(tour, pos, a, b, cc, d, dirty); flip<T>(tour, pos, b, d, e, f, dirty); }
    else {
        flip<T>(tour, pos, a, b, e, f, dirty);
        if (c == 6) flip<T>(tour, pos, d, cc, b, f, dirty);
        else {
            flip<T>(tour, pos, a, e, d, cc, dirty);
            if (c == 4) flip<T>(tour, pos, e, cc, b, f, dirty);
        }
    }
}

__device__ __forceinline__ bool before(long long d1, int c1, long long d2, int c2) {
    return d1 < d2 || (d1 == d2 && (unsigned)c1 < (unsigned)c2);  // code -1 (none) sorts last
}

// Iteration it's start: positions and current length (it 0), or the double bridge; the solution made active.
extern "C" __global__ void ils_rkbi_prepare(const double* __restrict__ xy, unsigned long long seed, int* tours,
                                            int* poss, const long long* lengths, long long* current, int* active,
                                            int it) {
    const int s = blockIdx.x;
    const unsigned long long key[2] = {seed, (unsigned long long)s};
    int* tour = tours + (long long)s * N;
    int* pos = poss + (long long)s * N;
    long long delta = 0;
    if (it == 0) {
        for (int c = threadIdx.x; c < N; c += blockDim.x) pos[tour[c]] = c;
        __syncthreads();
    } else {
        int ends[8];
        delta = perturb<Block>(xy, key, it, tour, pos, ends, nullptr, 0, 0);  // no range: ils_rkbi_accept copies rows
    }
    if (threadIdx.x == 0) { current[s] = lengths[s] + delta; active[s] = 1; }
}

extern "C" __global__ void ils_rkbi_sample(const double* __restrict__ xy, unsigned long long seed, const int* tours,
                                           const int* active, int it, int step, int samples, long long* part_delta,
                                           int* part_code) {
    __shared__ long long sd[RKBI_THREADS];
    __shared__ int sc[RKBI_THREADS];
    const int s = blockIdx.x, b = blockIdx.y, B = gridDim.y, t = threadIdx.x;
    if (!active[s]) return;
    const unsigned long long key[2] = {seed, (unsigned long long)s};
    const unsigned long long idx = rkbi_id(it, step);
    const int* tour = tours + (long long)s * N;
    long long best = 0;
    int code = -1;
    for (int q = b * RKBI_THREADS + t; q < samples; q += B * RKBI_THREADS) {
        int i, j, k;
        if (!sample_positions(key, idx, q, i, j, k)) continue;
        for (int c = 0; c < 7; ++c) {
            const long long d = case_delta(xy, tour, i, j, k, c);
            if (d < best) { best = d; code = 8 * q + c; }
        }
    }
    sd[t] = best; sc[t] = code;
    __syncthreads();
    for (int half = RKBI_THREADS / 2; half > 0; half /= 2) {
        if (t < half && before(sd[t + half], sc[t + half], sd[t], sc[t])) { sd[t] = sd[t + half]; sc[t] = sc[t + half]; }
        __syncthreads();
    }
    if (t == 0) { part_delta[(long long)s * B + b] = sd[0]; part_code[(long long)s * B + b] = sc[0]; }
}

extern "C" __global__ void ils_rkbi_apply(unsigned long long seed, int* tours, int* poss, int* active,
                                          long long* current, int it, int step, const long long* part_delta,
                                          const int* part_code, int B) {
    const int s = blockIdx.x;
    if (!active[s]) return;
    long long best = 0;
    int code = -1;
    for (int b = 0; b < B; ++b) {  // every thread reduces the B candidates: the same answer in each
        const long long d = part_delta[(long long)s * B + b];
        const int c = part_code[(long long)s * B + b];
        if (c >= 0 && before(d, c, best, code)) { best = d; code = c; }
    }
    if (code < 0) {
        __syncthreads();  // every thread has read active[s] before it changes
        if (threadIdx.x == 0) active[s] = 0;
        return;
    }
    const unsigned long long key[2] = {seed, (unsigned long long)s};
    int i, j, k;
    sample_positions(key, rkbi_id(it, step), code / 8, i, j, k);
    apply_case<Block>(tours + (long long)s * N, poss + (long long)s * N, i, j, k, code % 8, nullptr);
    if (threadIdx.x == 0) current[s] += best;
}

// ils3opt.ils_solution's acceptance: a tour not longer than the best replaces it, else the best comes back.
extern "C" __global__ void ils_rkbi_accept(int* tours, int* poss, int* bests, int* best_poss, long long* lengths,
                                           const long long* current) {
    const int s = blockIdx.x;
    const long long row = (long long)s * N;
    const bool better = current[s] <= lengths[s];
    __syncthreads();
    if (better) {
        copy<Block>(bests + row, tours + row);
        copy<Block>(best_poss + row, poss + row);
        if (threadIdx.x == 0) lengths[s] = current[s];
    } else {
        copy<Block>(tours + row, bests + row);
        copy<Block>(poss + row, best_poss + row);
    }
}
