// Random numbers for sampled neighborhoods: the CUDA twin of draws.py (same bits). Guarded: a source may
// take it twice (a sampled neighborhood's header, and Pareto local search's draws).
#ifndef MOLS_DRAWS_CUH
#define MOLS_DRAWS_CUH
__device__ __forceinline__ unsigned long long draw_mix(unsigned long long z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

// A double in [0, 1) from the draw key (seed, counter), neighbor id and draw number q.
__device__ __forceinline__ double draw_uniform(const unsigned long long* key, long long id, long long q) {
    unsigned long long z = draw_mix(key[0] + 0x9E3779B97F4A7C15ULL);
    z = draw_mix(z ^ key[1]);
    z = draw_mix(z ^ (unsigned long long)id);
    z = draw_mix(z ^ (unsigned long long)q);
    return (double)(z >> 11) * 0x1.0p-53;
}
#endif
