// A start's archive kept whole on the device for Pareto local search (resident.py): the members' solutions in a
// pool, slot[i], visited[i] and a stack of free rows. Needs the neighborhood's header and #define N_VARS (n);
// every kernel is one block of SCAN threads: the archive is small, and one block keeps the order.

// For the tile of members start .. start + SCAN - 1: this thread's rank among the flagged ones, and
// (through *in_tile) how many the whole tile flags. Ends with a barrier; warp_counts is scratch.
__device__ __forceinline__ int tile_rank(bool flag, int* warp_counts, int* in_tile) {
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    unsigned int ballot = __ballot_sync(0xffffffffu, flag);
    __syncthreads();  // the previous tile is done with warp_counts
    if (lane == 0) warp_counts[warp] = __popc(ballot);
    __syncthreads();
    int rank = __popc(ballot & ((1u << lane) - 1u)), total = 0;
    for (int w = 0; w < SCAN / 32; ++w) {
        rank += w < warp ? warp_counts[w] : 0;
        total += warp_counts[w];
    }
    *in_tile = total;
    return rank;
}

// The members that stay (not removed) keep their order in slot and visited; the pool rows of the
// removed ones go onto the free stack. counts = {members kept, free rows}.
__device__ void compact_members(long long* slot, unsigned char* visited, const long long* m_ptr,
                                const unsigned char* removed, long long* free_rows, long long* counts) {
    __shared__ int warp_counts[SCAN / 32];
    long long m = *m_ptr, kept = 0, freed = counts[1];
    for (long long start = 0; start < m; start += SCAN) {
        long long a = start + threadIdx.x;
        bool member = a < m, stays = member && !removed[a];
        long long s = member ? slot[a] : 0;
        unsigned char v = member ? visited[a] : 0;
        int n_stay, n_gone;
        int rank = tile_rank(stays, warp_counts, &n_stay);  // all reads of the tile are done here
        int gone = tile_rank(member && !stays, warp_counts, &n_gone);
        if (stays) {
            slot[kept + rank] = s;
            visited[kept + rank] = v;
        } else if (member) {
            free_rows[freed + gone] = s;
        }
        kept += n_stay;
        freed += n_gone;
    }
    if (threadIdx.x == 0) {
        counts[0] = kept;
        counts[1] = freed;
    }
}

// Member kept + t is accepted candidate t, unvisited, its solution the neighbor of x with that move,
// written in a free pool row; when they all fit in `capacity` (else the host grows the buffers and
// launches this again). Then *unvisited = the unvisited members, and *m_out = the members.
__device__ void append_members(
    int* X, long long* slot, unsigned char* visited, const int* x, const long long* surv, const long long* acc,
    const long long* n_acc, long long capacity, long long* free_rows, long long* counts, long long* unvisited,
    long long* m_out) {
    __shared__ int n_open;
    long long kept = counts[0], freed = counts[1], accepted = *n_acc;
    bool fits = kept + accepted <= capacity;
    if (fits) {
        for (long long t = threadIdx.x; t < accepted; t += SCAN) {
            slot[kept + t] = free_rows[freed - 1 - t];
            visited[kept + t] = 0;
        }
        __syncthreads();
        for (long long e = threadIdx.x; e < accepted * N_VARS; e += SCAN) {
            long long t = e / N_VARS;
            int k = (int)(e % N_VARS);
            Move mv = nbh_decode(surv[acc[t]], N_VARS);
            int source = k;
            if (k >= nbh_first_changed(mv)) {
                Segments g = nbh_segments(mv, N_VARS);
                int run = 0;
                while (k >= g.end[run]) ++run;
                source = k + g.offset[run];
            }
            X[slot[kept + t] * N_VARS + k] = x[source];
        }
    }
    __syncthreads();
    long long size = fits ? kept + accepted : kept;
    if (threadIdx.x == 0) n_open = 0;
    __syncthreads();
    int own = 0;
    for (long long a = threadIdx.x; a < size; a += SCAN) own += !visited[a];
    atomicAdd(&n_open, own);
    __syncthreads();
    if (threadIdx.x == 0) {
        *unvisited = n_open;
        *m_out = size;
        if (fits) counts[1] = freed - accepted;
    }
}

// The r-th unvisited member (in member order) of the first `size`, for every thread of the block.
__device__ long long unvisited_member(const unsigned char* visited, long long size, long long r) {
    __shared__ int warp_counts[SCAN / 32];
    __shared__ long long chosen;
    long long seen = 0;
    for (long long start = 0; start < size; start += SCAN) {
        long long a = start + threadIdx.x;
        bool open = a < size && !visited[a];
        int in_tile;
        int rank = tile_rank(open, warp_counts, &in_tile);
        if (open && seen + rank == r) chosen = a;
        seen += in_tile;
        if (seen > r) break;  // every thread sees the same seen
    }
    __syncthreads();
    return chosen;
}

// Member a marked visited, its solution and vector copied to out_x and out_f.
__device__ __forceinline__ void take_member(long long a, const int* X, const long long* slot,
                                            unsigned char* visited, const FVAL* F, int* out_x, FVAL* out_f) {
    for (int k = threadIdx.x; k < N_VARS; k += SCAN) out_x[k] = X[slot[a] * N_VARS + k];
    if (threadIdx.x < N_OBJ) out_f[threadIdx.x] = F[a * N_OBJ + threadIdx.x];
    if (threadIdx.x == 0) visited[a] = 1;
}

// The r-th unvisited member of the first `size`: marked visited, its solution and vector out.
extern "C" __global__ void __launch_bounds__(SCAN) pick_member(
    const int* X, const long long* slot, unsigned char* visited, const FVAL* F, const long long* size_ptr,
    const long long* r_ptr, int* out_x, FVAL* out_f) {
    take_member(unvisited_member(visited, *size_ptr, *r_ptr), X, slot, visited, F, out_x, out_f);
}

// Iterations of Pareto local search on the device (pls_device.py) keep ctl: the draw's seed, the iteration
// counter, the iteration that ends the batch, the overflow flag and the member the iteration explores.
#define CTL_SEED 0
#define CTL_COUNTER 1
#define CTL_LIMIT 2
#define CTL_OVERFLOW 3
#define CTL_CHOSEN 4

// An iteration's member, drawn as the host's pick_rank draws it: r = floor(u * unvisited), u the draw of key
// (seed, counter); taken as pick_member does, its solution to out_x and its vector to out_f; *active = 1
// and the counter advances. Without an unvisited member, with the batch done or after an overflow:
// *active = 0, and the iteration does nothing.
__device__ void draw_member(
    const int* X, const long long* slot, unsigned char* visited, const FVAL* F, const long long* size_ptr,
    const long long* unvisited_ptr, long long* ctl, int* active, int* out_x, FVAL* out_f) {
    const long long unvisited = *unvisited_ptr, counter = ctl[CTL_COUNTER];
    if (ctl[CTL_OVERFLOW] || unvisited == 0 || counter >= ctl[CTL_LIMIT]) {
        if (threadIdx.x == 0) *active = 0;
        return;
    }
    const unsigned long long key[2] = {(unsigned long long)ctl[CTL_SEED], (unsigned long long)counter};
    const long long a = unvisited_member(visited, *size_ptr, (long long)(draw_uniform(key, 0, 0) * (double)unvisited));
    take_member(a, X, slot, visited, F, out_x, out_f);
    if (threadIdx.x == 0) {
        *active = 1;
        ctl[CTL_CHOSEN] = a;
        ctl[CTL_COUNTER] = counter + 1;
    }
}

// Before the update: when the members that stay and the accepted do not fit in `capacity` rows, the
// iteration is undone (nothing removed, nothing accepted, its member unvisited again, the counter back)
// and the overflow flag ends the batch; the host grows the buffers and runs it again. Ends with a barrier.
__device__ void refuse_overflow(
    const long long* m_ptr, unsigned char* removed, long long* n_acc, long long capacity, unsigned char* visited,
    long long* ctl) {
    __shared__ unsigned long long n_removed;
    __shared__ bool refused;
    const long long m = *m_ptr;
    if (threadIdx.x == 0) n_removed = 0;
    __syncthreads();
    unsigned long long own = 0;
    for (long long a = threadIdx.x; a < m; a += SCAN) own += removed[a];
    atomicAdd(&n_removed, own);
    __syncthreads();
    if (threadIdx.x == 0) refused = m - (long long)n_removed + *n_acc > capacity;
    __syncthreads();
    if (refused) {
        for (long long a = threadIdx.x; a < m; a += SCAN) removed[a] = 0;
        __syncthreads();
        if (threadIdx.x == 0) {
            *n_acc = 0;
            ctl[CTL_OVERFLOW] = 1;
            visited[ctl[CTL_CHOSEN]] = 0;
            ctl[CTL_COUNTER] -= 1;
        }
    }
    __syncthreads();
}

// The solutions' update (compact, then append) with, where ctl is given (iterations on the device), the
// next iteration's draw.
__device__ void solutions_then_draw(
    const unsigned char* removed, int* X, long long* slot, unsigned char* visited, int* x, const long long* surv,
    const long long* acc, const long long* n_acc, long long capacity, long long* free_rows, long long* counts,
    long long* unvisited, long long* m, const FVAL* F, long long* ctl, int* active, FVAL* out_f) {
    compact_members(slot, visited, m, removed, free_rows, counts);
    __syncthreads();  // counts, slots and flags are whole
    append_members(X, slot, visited, x, surv, acc, n_acc, capacity, free_rows, counts, unvisited, m);
    if (ctl == nullptr) return;
    __syncthreads();  // x is read, the members and their count are whole
    draw_member(X, slot, visited, F, m, unvisited, ctl, active, x, out_f);
}

// The kernels: a batch's first draw; the appending alone (after the host grew the buffers); after the
// vectors' update, the solutions' (with the next draw where ctl is given); and a device iteration's whole
// settling. One launch for what would be several.
extern "C" __global__ void __launch_bounds__(SCAN) first_draw(
    const int* X, const long long* slot, unsigned char* visited, const FVAL* F, const long long* size_ptr,
    const long long* unvisited_ptr, long long* ctl, int* active, int* out_x, FVAL* out_f, long long* totals) {
    if (threadIdx.x < 2) totals[threadIdx.x] = 0;  // the filter's survivors and accepted (settle_iteration's)
    draw_member(X, slot, visited, F, size_ptr, unvisited_ptr, ctl, active, out_x, out_f);
}

extern "C" __global__ void __launch_bounds__(SCAN) append_only(
    int* X, long long* slot, unsigned char* visited, const int* x, const long long* surv, const long long* acc,
    const long long* n_acc, long long capacity, long long* free_rows, long long* counts, long long* unvisited,
    long long* m_out) {
    append_members(X, slot, visited, x, surv, acc, n_acc, capacity, free_rows, counts, unvisited, m_out);
}

extern "C" __global__ void __launch_bounds__(SCAN) update_solutions(
    const unsigned char* removed, int* X, long long* slot, unsigned char* visited, int* x, const long long* surv,
    const long long* acc, const long long* n_acc, long long capacity, long long* free_rows, long long* counts,
    long long* unvisited, long long* m, const FVAL* F, long long* ctl, int* active, FVAL* out_f) {
    solutions_then_draw(removed, X, slot, visited, x, surv, acc, n_acc, capacity, free_rows, counts, unvisited, m, F,
                        ctl, active, out_f);
}

// removed[a]: some accepted candidate dominates member a of F (*m_ptr, k), as filter.cu's mark_removed (whose
// tiles suit many blocks), for one block. Ends with a barrier.
__device__ void mark_removed_in_block(const FVAL* F, const long long* m_ptr, const FVAL* candidates,
                                      const long long* surv, const long long* acc, const long long* n_acc,
                                      unsigned char* removed) {
    const long long m = *m_ptr, total = *n_acc;
    for (long long a = threadIdx.x; a < m; a += SCAN) {
        FVAL f[N_OBJ];
        load_row(F, a, f);
        bool gone = false, eq;
        for (long long t = 0; !gone && t < total; ++t) gone = no_worse(candidates + surv[acc[t]] * N_OBJ, f, eq);
        removed[a] = gone;
    }
    __syncthreads();
}

// An iteration on the device after its filter (pls_device.py), in one launch: the members removed, refuse_overflow,
// the vectors' update (filter.cu's update_members_in), then the solutions' and the next draw; the filter's
// totals (survivors, accepted) back to 0 for the next iteration. The members' vectors are F.
extern "C" __global__ void __launch_bounds__(SCAN) settle_iteration(
    unsigned char* removed, const FVAL* candidates, int* X, long long* slot, unsigned char* visited, int* x,
    const long long* surv, const long long* acc, long long* totals, long long capacity, long long* free_rows,
    long long* counts, long long* unvisited, long long* m, FVAL* F, long long* ctl, int* active, FVAL* out_f) {
    long long* n_acc = totals + 1;
    mark_removed_in_block(F, m, candidates, surv, acc, n_acc, removed);
    refuse_overflow(m, removed, n_acc, capacity, visited, ctl);
    update_members_in(F, m, removed, candidates, surv, acc, n_acc, capacity);
    __syncthreads();  // the vectors are in place
    solutions_then_draw(removed, X, slot, visited, x, surv, acc, n_acc, capacity, free_rows, counts, unvisited, m, F,
                        ctl, active, out_f);
    __syncthreads();  // n_acc is read
    if (threadIdx.x < 2) totals[threadIdx.x] = 0;
}
