// Runs CUDA kernels on the CPU (tests/problems/test_*_source.py): a block is `threads` C++ threads meeting at a
// std::barrier for __syncthreads (a warp's at one of its own for shuffles), __shared__ variables are statics (one
// block at a time), and the rounding intrinsics are the plain operations (compiled without contraction, as _rn's).
#include <algorithm>
#include <barrier>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>
#define __device__
#define __forceinline__ inline
#define __global__
#define __shared__ static
#define __restrict__
struct dim3s { int x, y, z; };
static thread_local dim3s threadIdx = {0, 0, 0};
static dim3s blockIdx = {0, 0, 0}, blockDim = {1, 1, 1}, gridDim = {1, 1, 1};
inline double __dsub_rn(double a, double b) { return a - b; }
inline double __dadd_rn(double a, double b) { return a + b; }
inline double __dmul_rn(double a, double b) { return a * b; }
inline double __ddiv_rn(double a, double b) { return a / b; }
inline double __dsqrt_rn(double a) { return std::sqrt(a); }
struct double2 { double x, y; };
inline double2 make_double2(double x, double y) { return {x, y}; }
static std::barrier<>* g_bar;
inline void __syncthreads() { g_bar->arrive_and_wait(); }
static std::vector<std::unique_ptr<std::barrier<>>> g_warp_bars;  // a block's warps: 32 threads, the last fewer
static unsigned long long g_lanes[1024];  // each thread's value in a shuffle
// Lane t ^ mask's v in lane t of each warp, every lane of it taking part (as the kernels' full masks ask).
template <class T> T __shfl_xor_sync(unsigned, T v, int mask) {
    static_assert(sizeof(T) <= sizeof(g_lanes[0]));
    const int t = threadIdx.x, from = t ^ mask;
    if ((from >> 5) != (t >> 5) || from >= blockDim.x) abort();  // outside the warp: undefined on a GPU
    std::memcpy(&g_lanes[t], &v, sizeof(T));
    g_warp_bars[t >> 5]->arrive_and_wait();
    T out;
    std::memcpy(&out, &g_lanes[from], sizeof(T));
    g_warp_bars[t >> 5]->arrive_and_wait();  // every lane has read before the next shuffle writes
    return out;
}
inline int atomicMin(int* a, int v) {
    int o = __atomic_load_n(a, __ATOMIC_SEQ_CST);
    while (v < o && !__atomic_compare_exchange_n(a, &o, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {}
    return o;
}
inline int atomicMax(int* a, int v) {
    int o = __atomic_load_n(a, __ATOMIC_SEQ_CST);
    while (v > o && !__atomic_compare_exchange_n(a, &o, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {}
    return o;
}
using std::max;
using std::min;
static int g_smem[1 << 20];  // the dynamic shared memory of ils_fi_block_shared
template <class F> void run_block(int threads, F f) {
    std::barrier<> bar(threads);
    g_bar = &bar;
    blockDim.x = threads;
    g_warp_bars.clear();
    for (int w = 0; w < threads; w += 32)
        g_warp_bars.push_back(std::make_unique<std::barrier<>>(std::min(32, threads - w)));
    std::vector<std::thread> team;
    for (int t = 0; t < threads; ++t) team.emplace_back([t, &f] { threadIdx.x = t; f(); });
    for (auto& t : team) t.join();
}
// The host side's arrays: read from and written to raw files.
template <class X> X* load(const char* name, size_t n) {
    X* a = (X*)calloc(n, sizeof(X));
    FILE* f = fopen(name, "rb");
    if (!f || fread(a, sizeof(X), n, f) != n) { fprintf(stderr, "cannot read %s\n", name); exit(2); }
    fclose(f);
    return a;
}
template <class X> void save(const char* name, const X* a, size_t n) {
    FILE* f = fopen(name, "wb");
    fwrite(a, sizeof(X), n, f);
    fclose(f);
}
