// The study variants of the GPU kernels (BackendSpec's generation and memory; README "GPU techniques"),
// compiled after the neighborhood's header only when a variant is asked for, so the default kernels' source
// stays as it was: HOST_MOVES 1 (moves read from a table) and MEMORY 0-2 (docs/internals.md).
#if HOST_MOVES
__device__ const Move* nbh_host_moves;
#define nbh_decode(idx, n) (nbh_host_moves[idx])
#endif

#if defined(MEMORY) && MEMORY == 0
#define __restrict__
#define __ldg(p) (*(p))
#endif

// count values of src copied into the block's shared dst by all its threads; returns dst. Every thread of
// the block must call it (a barrier), before any of them returns.
template <typename T> __device__ __forceinline__ const T* stage_shared(T* dst, const T* src, int count) {
    for (int t = threadIdx.x; t < count; t += blockDim.x) dst[t] = src[t];
    __syncthreads();
    return dst;
}
