// The cost of every Hamming-k neighbor of a PPP solution: the CUDA twin of cpu.py, the same integers. Prepended: the
// Hamming header and #define N, M (A is M x N), G1, G2, VAL and BLOCK (a multiple of 32). The kernels' arguments
// (the data, the state of cpu.fill_state, then F): docs/internals.md.

// A bit of a column j, xor (V_j < 0), is u = [V_j A_ij < 0]: flipping bit j adds -2 V_j A_ij = 4 u - 2 to Y_i.
#define W ((M + 31) / 32)
#define ROW_ARGS const signed char* __restrict__ AT, const int* __restrict__ HS, const unsigned* __restrict__ ATB, \
    const signed char* __restrict__ A, unsigned* __restrict__ SORTED, const signed char* __restrict__ bits, \
    const int* __restrict__ Y, const int* __restrict__ window, const int* __restrict__ order, \
    const int* __restrict__ levels, const int* __restrict__ ends, const int* __restrict__ residual, \
    const long long* __restrict__ NEG

// ppp_pack (Hamming 2, one thread per word w of column j): SORTED[w][j] holds the column's bits in the rows'
// sorted order, bit l for row order[32 w + l] (0 past M); the threads of a warp read one row's neighbouring
// bytes.
extern "C" __global__ void __launch_bounds__(BLOCK) ppp_pack(ROW_ARGS) {
    const int t = blockIdx.x * BLOCK + threadIdx.x;
    if (t >= W * N) return;
    const int w = t / N, j = t - w * N;
    unsigned word = 0;
    for (int l = 0; l < 32 && 32 * w + l < M; ++l)
        word |= (unsigned)(A[(long long)order[32 * w + l] * N + j] < 0) << l;
    SORTED[t] = word;
}

#if NBH_ARITY == 2
// Hamming 2, one thread per neighbor (j0, j1), in O(W + T). Y_i moves by 4 u_0 + 4 u_1 - 4: up by 4 where
// u_0 = u_1 = 1, down by 4 where both are 0. In the rows sorted by Y, the rows of value v_t = v0 + 2 t are
// ends[t - 1] .. ends[t] - 1 (ends[-1] = 0), so up_t and down_t, the rows of value v_t that go up and down,
// are differences of prefix counts of the words up = u_0 & u_1 and down = ~(u_0 | u_1) at ends[t]: the
// words are read once, in order, as t grows. Then H(Y')_{v_s} = H(Y)_{v_s} - up_s - down_s + up_(s-2) +
// down_(s+2): its term |H(Y')_v - H(S)_v| = |residual[s] - up_s - down_s + up_(s-2) + down_(s+2)| is known at
// t = s + 2, for v_s in 1..N (the values off the grid add outside2); the sign term moves each moving row's
// max(-y, 0). The loop's bounds are the state's, the same for every thread: no divergence.
__device__ __forceinline__ int negative_part(int y) { return y < 0 ? -y : 0; }

// --memory shared (MEMORY 2, backends/techniques.cuh): each block first stages SORTED in shared memory and
// reads it there; every thread runs it before any returns.
#if defined(MEMORY) && MEMORY == 2
#define PPP_STAGE_SORTED __shared__ unsigned shared_sorted[W * N]; \
    SORTED = const_cast<unsigned*>(stage_shared(shared_sorted, SORTED, W * N));
#else
#define PPP_STAGE_SORTED
#endif

extern "C" __global__ void __launch_bounds__(BLOCK) ppp_neighborhood(
    ROW_ARGS, VAL* __restrict__ F, long long n_moves, long long first)
{
    const long long move = first + (long long)blockIdx.x * BLOCK + threadIdx.x;
    PPP_STAGE_SORTED
    if (move >= n_moves) return;
    const Move mv = nbh_decode(move, N);
    const int j0 = nbh_index(mv, 0), j1 = nbh_index(mv, 1);
    const unsigned flip0 = bits[j0] ? 0u : 0xffffffffu, flip1 = bits[j1] ? 0u : 0xffffffffu;
    const int T = levels[0], v0 = levels[1];

    int w = 0, full_up = 0, full_down = 0;  // the words before w, counted
    unsigned up = 0, down = 0;              // word w (0 once w = W)
    {
        const unsigned u0 = SORTED[j0] ^ flip0, u1 = SORTED[j1] ^ flip1;
        up = u0 & u1;
        down = ~(u0 | u1);
    }
    int before_up = 0, before_down = 0;  // the prefix counts at ends[t - 1]
    int up1 = 0, up2 = 0, up3 = 0, up4 = 0, down1 = 0, down2 = 0;  // up_(t-1) .. up_(t-4), down_(t-1), down_(t-2)
    VAL negative = NEG[0], diff = 0;
    for (int t = 0; t < T + 2; ++t) {
        const int end = ends[t];
        while (w < (end >> 5)) {
            full_up += __popc(up);
            full_down += __popc(down);
            if (++w < W) {
                const unsigned u0 = SORTED[w * N + j0] ^ flip0, u1 = SORTED[w * N + j1] ^ flip1;
                up = u0 & u1;
                down = ~(u0 | u1);
            } else {
                up = down = 0;
            }
        }
        const unsigned below = (1u << (end & 31)) - 1u;  // the rows of word w before `end`
        const int at_up = full_up + __popc(up & below), at_down = full_down + __popc(down & below);
        const int up0 = at_up - before_up, down0 = at_down - before_down;
        before_up = at_up;
        before_down = at_down;
        const int v = v0 + 2 * t;
        negative += (VAL)up0 * (negative_part(v + 4) - negative_part(v))
                    + (VAL)down0 * (negative_part(v - 4) - negative_part(v));
        const int vs = v - 4;  // s = t - 2
        if (t >= 2 && vs >= 1 && vs <= N) {
            const int h = residual[t - 2] - up2 - down2 + up4 + down0;
            diff += h < 0 ? -h : h;
        }
        up4 = up3; up3 = up2; up2 = up1; up1 = up0;
        down2 = down1; down1 = down0;
    }
    F[move - first] = G1 * 2 * negative + G2 * (diff + (VAL)levels[2]);
}

#else
// Hamming 1 and 3, one warp per neighbor: lane l takes the rows l, l + 32, ... (coalesced reads of Y,
// broadcast reads of the words of ATB: the 32 lanes read the same word of a column and lane l keeps its
// bit) and counts their new values Y'_i into the warp's histogram in shared memory, indexed by the value
// 1..N; only the window's bins [lo, hi] are cleared and read. Then the lanes sum the window's
// |H(Y')_b - H(S)_b| and shuffles add the lanes' terms.
#define WARPS (BLOCK / 32)

__device__ __forceinline__ VAL warp_sum(VAL v) {
#pragma unroll
    for (int h = 16; h > 0; h >>= 1) v += __shfl_xor_sync(0xffffffffu, v, h);
    return v;
}

extern "C" __global__ void __launch_bounds__(BLOCK) ppp_neighborhood(
    ROW_ARGS, VAL* __restrict__ F, long long n_moves, long long first)
{
    __shared__ int histograms[WARPS][N + 1];
    const long long move = first + ((long long)blockIdx.x * BLOCK + threadIdx.x) / 32;
    if (move >= n_moves) return;  // the 32 lanes of a warp share the move: whole warps return
    const int lane = threadIdx.x % 32, lo = window[0], hi = window[1];
    int* hist = histograms[threadIdx.x / 32];

    const Move mv = nbh_decode(move, N);
    const unsigned* column[NBH_ARITY];
    unsigned flip[NBH_ARITY];
#pragma unroll
    for (int q = 0; q < NBH_ARITY; ++q) {
        const int j = nbh_index(mv, q);
        column[q] = ATB + (long long)j * W;
        flip[q] = bits[j] ? 0u : 0xffffffffu;  // V_j < 0: the sign of V_j A_ij is the opposite of A_ij's
    }

    VAL negative = 0;  // this lane's part of the sum of -Y'_i over the negative Y'_i
    VAL diff = 0;      // and of sum_b |H(Y')_b - H(S)_b| over the window
    for (int b = lo + lane; b <= hi; b += 32) hist[b] = 0;
    __syncwarp();  // the bins are cleared before any lane counts
#pragma unroll 4
    for (int w = 0; w < W; ++w) {
        const int i = 32 * w + lane;
        int up = 0;  // the number of flips adding +2 to Y_i (the others add -2)
#pragma unroll
        for (int q = 0; q < NBH_ARITY; ++q) up += ((column[q][w] ^ flip[q]) >> lane) & 1u;
        if (i < M) {
            const int y = Y[i] + 4 * up - 2 * NBH_ARITY;
            if (y < 0) negative -= y;
            else if (y >= lo && y <= hi) atomicAdd(&hist[y], 1);
        }
    }
    __syncwarp();  // every lane's counts are in before the bins are read
    for (int b = lo + lane; b <= hi; b += 32) {
        const int d = hist[b] - HS[b];
        diff += d < 0 ? -d : d;
    }
    const VAL total = warp_sum(G1 * 2 * negative + G2 * diff);  // |y| - y = -2 y where y < 0
    if (lane == 0) F[move - first] = total + G2 * (VAL)window[2];
}
#endif
