// The cost of every Hamming-k neighbor of a PPP solution: the CUDA twin of cpu.py (the formula, the state
// and the window are in its docstring), the same integers. Prepended by the host: the Hamming header
// (NBH_ARITY, Move, nbh_decode, nbh_index) and #define N, M (A is M x N), G1, G2, VAL (int or long long)
// and BLOCK (a multiple of 32).
//
// One warp per neighbor: lane l takes the rows l, l + 32, ... (coalesced reads of Y, broadcast reads of the
// bit-packed columns ATB) and counts their new values Y'_i into the warp's histogram in shared memory,
// indexed by the value 1..N (Hamming 2: the moving rows by their old values, below); only the window's
// bins [lo, hi] are cleared and read. Then the lanes sum the window's |H(Y')_b - H(S)_b| and shuffles add
// the lanes' terms.

#define WARPS (BLOCK / 32)

__device__ __forceinline__ VAL warp_sum(VAL v) {
#pragma unroll
    for (int h = 16; h > 0; h >>= 1) v += __shfl_xor_sync(0xffffffffu, v, h);
    return v;
}

// Arguments: AT (N, M) int8, the columns of A (unused here: the CPU kernel's); HS (N + 1,) the histogram of
// S; ATB (N, W) uint32, W = ceil(M / 32), the columns of A as bits: bit l of word w of column j is
// A[32 w + l, j] < 0 (0 past M); the state: bits (N,), Y (M,) = A V, window (lo, hi, outside), H0 (N + 1,)
// = H(Y), NEG (1,) the sum of -Y_i over the negative Y_i; then F (n_moves - first,) receiving the costs of
// moves first .. n_moves - 1.
//
// Lane l takes the rows 32 w + l: the 32 lanes read the same word of a column (one broadcast of 4 bytes) and
// lane l keeps its bit. With u = that bit xor (V_j < 0) = [V_j A_ij < 0], flipping bit j adds
// -2 V_j A_ij = 4 u - 2 to Y_i.
//
// Hamming 2 (TRANSFER): Y_i moves by 4 u_0 + 4 u_1 - 4, so only the rows with u_0 = u_1 move (by +4 or -4,
// half of them): H(Y')_b = H0_b - (rows leaving b) + (rows going up from b - 4) + (rows going down from
// b + 4). The warp counts the moving rows by their old value v in [lo - 4, hi + 4], at index v - lo + 4,
// the ups in the low 16 bits and the downs in the high 16 bits (M < 65536), one atomic per moving row
// instead of one per row; the sign term is NEG plus the moving rows' changes.
#define W ((M + 31) / 32)
#define TRANSFER (NBH_ARITY == 2 && M < 65536)
#if TRANSFER
#define BINS (N + 9)
#else
#define BINS (N + 1)
#endif

extern "C" __global__ void __launch_bounds__(BLOCK) ppp_neighborhood(
    const signed char* __restrict__ AT, const int* __restrict__ HS, const unsigned* __restrict__ ATB,
    const signed char* __restrict__ bits, const int* __restrict__ Y, const int* __restrict__ window,
    const int* __restrict__ H0, const long long* __restrict__ NEG, VAL* __restrict__ F, long long n_moves,
    long long first)
{
    __shared__ int histograms[WARPS][BINS];
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
#if TRANSFER
    // hist[v - lo + 4] for v in [lo - 4, hi + 4] (hi - lo + 8 <= N + 7 even when hi < lo)
    for (int t = lane; t <= hi - lo + 8; t += 32) hist[t] = 0;
    __syncwarp();  // the bins are cleared before any lane counts
#pragma unroll 4
    for (int w = 0; w < W; ++w) {
        const int i = 32 * w + lane;
        const unsigned u0 = column[0][w] ^ flip[0], u1 = column[1][w] ^ flip[1];
        if (i < M && ((~(u0 ^ u1) >> lane) & 1u)) {  // u_0 = u_1: Y_i moves by 8 u_0 - 4
            const bool up = (u0 >> lane) & 1u;
            const int y = Y[i], y2 = up ? y + 4 : y - 4;
            negative += (y2 < 0 ? -y2 : 0) - (y < 0 ? -y : 0);
            if (y >= lo - 4 && y <= hi + 4) atomicAdd(&hist[y - lo + 4], up ? 1 : 0x10000);
        }
    }
    __syncwarp();  // every lane's counts are in before the bins are read
    for (int b = lo + lane; b <= hi; b += 32) {
        const int t = b - lo + 4, here = hist[t];
        const int h = H0[b] - (here & 0xffff) - (int)((unsigned)here >> 16) + (hist[t - 4] & 0xffff)
                      + (int)((unsigned)hist[t + 4] >> 16);
        const int d = h - HS[b];
        diff += d < 0 ? -d : d;
    }
    const VAL base = G1 * 2 * (VAL)NEG[0];
#else
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
    const VAL base = 0;
#endif
    const VAL total = warp_sum(G1 * 2 * negative + G2 * diff);  // |y| - y = -2 y where y < 0
    if (lane == 0) F[move - first] = total + base + G2 * (VAL)window[2];
}
