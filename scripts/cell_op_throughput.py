"""Throughput of the candidate cell updates of the flowshop recursion on this GPU, in updates per
clock per SM: the compute floor of the neighborhood kernel follows from it. 8 independent chains
per thread and a full grid, so the number measures issue rate, not latency."""

import cupy

SRC = r"""
template <int V> __device__ __forceinline__ unsigned op(unsigned x, unsigned y, unsigned z);
template <> __device__ __forceinline__ unsigned op<0>(unsigned x, unsigned y, unsigned z) {
    return (unsigned)__viaddmax_s32((int)x, (int)y, (int)z); }                    // max(x+y, z), DPX
template <> __device__ __forceinline__ unsigned op<1>(unsigned x, unsigned y, unsigned z) {
    return (unsigned)(max((int)x, (int)z) + (int)y); }                             // max then add
template <> __device__ __forceinline__ unsigned op<2>(unsigned x, unsigned y, unsigned z) {
    return __float_as_uint(fmaxf(__uint_as_float(x) + __uint_as_float(y), __uint_as_float(z))); }
template <> __device__ __forceinline__ unsigned op<3>(unsigned x, unsigned y, unsigned z) {
    return __viaddmax_s16x2(x, y, z); }                                             // two 16-bit cells
template <int V>
__device__ void run(unsigned* out, int iters) {
    unsigned x[8], z[8], y = threadIdx.x & 7;
    for (int c = 0; c < 8; ++c) { x[c] = threadIdx.x + c; z[c] = blockIdx.x * c; }
    for (int it = 0; it < iters; ++it) {
#pragma unroll
        for (int c = 0; c < 8; ++c) x[c] = op<V>(x[c], y, z[c]);
#pragma unroll
        for (int c = 0; c < 8; ++c) z[c] = op<V>(z[c], y, x[c]);
    }
    unsigned s = 0;
    for (int c = 0; c < 8; ++c) s ^= x[c] ^ z[c];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
extern "C" __global__ void k0(unsigned* o, int n) { run<0>(o, n); }
extern "C" __global__ void k1(unsigned* o, int n) { run<1>(o, n); }
extern "C" __global__ void k2(unsigned* o, int n) { run<2>(o, n); }
extern "C" __global__ void k3(unsigned* o, int n) { run<3>(o, n); }
"""
mod = cupy.RawModule(code=SRC, options=("--std=c++17",))
props = cupy.cuda.runtime.getDeviceProperties(0)
sms, clock_ghz = props["multiProcessorCount"], props["clockRate"] / 1e6
blocks, threads, iters = sms * 8, 256, 4000
out = cupy.empty(blocks * threads, dtype=cupy.uint32)
names = ["viaddmax_s32 (DPX)", "max then add (2 ops)", "fp32 fmaxf(x+y,z)", "viaddmax_s16x2 (2 cells)"]
for v, name in enumerate(names):
    k = mod.get_function(f"k{v}")
    k((blocks,), (threads,), (out, cupy.int32(iters)))
    a, b = cupy.cuda.Event(), cupy.cuda.Event()
    a.record(); k((blocks,), (threads,), (out, cupy.int32(iters))); b.record(); b.synchronize()
    sec = cupy.cuda.get_elapsed_time(a, b) / 1e3
    updates = blocks * threads * iters * 16 * (2 if v == 3 else 1)
    rate = updates / sec
    print(f"{name:28s} {rate / 1e12:6.2f} T cell updates/s = {rate / sms / (clock_ghz * 1e9):6.1f} per clock per SM "
          f"(at the {clock_ghz:.2f} GHz max clock)")
