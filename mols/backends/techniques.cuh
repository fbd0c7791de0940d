// The study variants of the GPU kernels (BackendSpec's generation and memory; README "GPU techniques"),
// compiled after the neighborhood's header only when a variant is asked for: the default kernels'
// source stays as it was.
//
// HOST_MOVES 1 (--generation host): the host builds every move (Neighborhood.moves: NBH_ARITY ints each,
// the layout of Move) and copies them to the device before each evaluation; nbh_decode reads move idx
// from that table instead of decoding the id. gpu.py points nbh_host_moves at the table in each module.
//
// MEMORY (--memory): 0 plain global loads (no __restrict__ and no __ldg: no read-only cache path); 1 the read-only
// cache (the kernels' const __restrict__ loads, no shared staging); 2 the instance data staged in shared
// memory by the kernels that can (stage_shared), the rest through the read-only cache.
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
