// The whole change neighborhood of a graph coloring, one thread per move: the CUDA twin of cpu.py. Prepended: the
// change header (Move, nbh_decode, nbh_new_value, NBH_K = the colors) and #define N_VERTICES and BLOCK. Arguments:
// the state x (N_VERTICES,), conf (N_VERTICES, NBH_K) and cost (1,) (cpu.py), then F (n_moves, 1).
extern "C" __global__ void __launch_bounds__(BLOCK) coloring_change(
    const int* __restrict__ x, const int* __restrict__ conf, const int* __restrict__ cost,
    int* __restrict__ F, long long n_moves)
{
    const long long t = (long long)blockIdx.x * BLOCK + threadIdx.x;
    if (t >= n_moves) return;
    const Move mv = nbh_decode(t, N_VERTICES);
    const int v = nbh_index(mv, 0), a = x[v], b = nbh_new_value(a, nbh_index(mv, 1));
    const int* row = conf + (long long)v * NBH_K;
    F[t] = cost[0] + row[b] - row[a];
}
