// The combinatorial number system's binomials and inverse, shared by the headers that number subsets (hamming.cuh,
// three_exchange.cuh): the CUDA twins of hamming.binomial and hamming.largest.
__device__ __forceinline__ long long nbh_binomial(long long c, int q) {
    if (c < q) return 0;
    if (q == 1) return c;
    if (q == 2) return c * (c - 1) / 2;
    return c * (c - 1) * (c - 2) / 6;
}

// The largest c with C(c, q) <= rest: a root as the estimate, corrected in integers (a step or two at most).
__device__ __forceinline__ long long nbh_largest(long long rest, int q) {
    if (q == 1) return rest;
    long long c = q == 2 ? (long long)((1.0 + sqrt(1.0 + 8.0 * (double)rest)) / 2.0)
                         : (long long)pow(6.0 * (double)rest, 1.0 / 3.0) + 1;
    c = max(c, (long long)(q - 1));
    while (nbh_binomial(c, q) > rest) --c;
    while (nbh_binomial(c + 1, q) <= rest) ++c;
    return c;
}
