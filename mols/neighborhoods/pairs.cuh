// Pairs i < j of 0..n-1 from their triangular id (Propositions 1 and 2 of Luong, Melab & Talbi, IEEE TC
// 2013, corrected in integers): the CUDA twin of swap.decode, shared by the headers that number pairs.
__device__ __forceinline__ long long nbh_row_start(long long i, int n) {
    return i * n - i * (i + 1) / 2;
}

__device__ __forceinline__ void nbh_pair(long long idx, int n, int& pi, int& pj) {
    long long m = (long long)n * (n - 1) / 2;
    long long i = n - 2 - (long long)((sqrt(8.0 * (double)(m - idx - 1) + 1.0) - 1.0) / 2.0);
    i = min(max(i, 0LL), (long long)(n - 2));
    while (i > 0 && nbh_row_start(i, n) > idx) --i;
    while (i < n - 2 && nbh_row_start(i + 1, n) <= idx) ++i;
    pi = (int)i;
    pj = (int)(idx - i * (n - 1) + i * (i + 1) / 2 + 1);
}
