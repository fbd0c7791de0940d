// Runs a kernel's blocks and threads one after another on the CPU (tests/problems/test_three_exchange_source.py):
// for kernels whose threads do not wait for one another, or that run with one thread a block. __shared__ variables
// are statics, the rounding intrinsics the plain operations (compiled without contraction, as the GPU's _rn ones);
// a warp shuffle aborts.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#define __device__
#define __forceinline__ inline
#define __global__
#define __shared__ static
#define __restrict__
#define __launch_bounds__(x)
#define __align__(x)
struct dim3s { int x, y, z; };
static dim3s threadIdx = {0, 0, 0}, blockIdx = {0, 0, 0}, blockDim = {1, 1, 1}, gridDim = {1, 1, 1};
inline double __dsub_rn(double a, double b) { return a - b; }
inline double __dadd_rn(double a, double b) { return a + b; }
inline double __dmul_rn(double a, double b) { return a * b; }
inline double __ddiv_rn(double a, double b) { return a / b; }
inline double __dsqrt_rn(double a) { return std::sqrt(a); }
struct double2 { double x, y; };
struct int4 { int x, y, z, w; };
inline void __syncthreads() {}
inline void __syncwarp() {}
template <class T> T __shfl_xor_sync(unsigned, T, int) { abort(); }
template <class T> T __shfl_up_sync(unsigned, T, int) { abort(); }
template <class T> T __shfl_sync(unsigned, T, int) { abort(); }
template <class T> T __ldg(const T* p) { return *p; }
inline int __viaddmax_s32(int a, int b, int c) { return std::max(a + b, c); }
using std::max;
using std::min;

// Argument q of the kernel: an array read from file aq.bin (its length in argv) and written back to oq.bin after.
template <class T> T* sim_load(int q, long long count) {
    char name[32];
    snprintf(name, sizeof name, "a%d.bin", q);
    T* a = (T*)calloc(count > 0 ? count : 1, sizeof(T));
    FILE* f = fopen(name, "rb");
    if (!f || (count > 0 && fread(a, sizeof(T), count, f) != (size_t)count)) { fprintf(stderr, "cannot read %s\n", name); exit(2); }
    fclose(f);
    return a;
}
template <class T> void sim_save(int q, const T* a, long long count) {
    char name[32];
    snprintf(name, sizeof name, "o%d.bin", q);
    FILE* f = fopen(name, "wb");
    fwrite(a, sizeof(T), count, f);
    fclose(f);
}
