// Several searches in one launch (GpuEvaluator's lanes): blockIdx.y is the lane a block works for, and each
// lane's state arrays are lane 0's, STATE_BYTES further on. A kernel moves its state pointers with lane_state
// and its rows of F by the lane; a launch with one lane reads lane 0's.
template <typename T> __device__ __forceinline__ T* lane_state(T* p) {
    return (T*)((const char*)p + (size_t)blockIdx.y * STATE_BYTES);
}

// Elements i and j of a exchanged (a state's permutation, a row of a table).
template <typename T> __device__ __forceinline__ void exchange(T* a, int i, int j) {
    const T t = a[i];
    a[i] = a[j];
    a[j] = t;
}

// Rows r and s of the n x n matrix m exchanged, then its columns r and s, by the block's threads (QAP's and
// Q3AP's apply kernels: a swap's update of their state matrices).
__device__ void exchange_rows_columns(int* m, int n, int r, int s) {
    for (int t = threadIdx.x; t < n; t += blockDim.x) exchange(m, r * n + t, s * n + t);
    __syncthreads();
    for (int t = threadIdx.x; t < n; t += blockDim.x) exchange(m, t * n + r, t * n + s);
}
