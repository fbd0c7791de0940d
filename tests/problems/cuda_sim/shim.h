// Runs ils3opt.cu's kernels on the CPU (tests/problems/test_ils3opt_source.py): a block is `threads` C++ threads
// meeting at a std::barrier for __syncthreads, __shared__ variables are statics (one block at a time), and the
// rounding intrinsics are the plain operations (compiled without contraction, as the GPU's _rn ones).
#include <algorithm>
#include <barrier>
#include <cmath>
#include <cstdio>
#include <cstdlib>
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
