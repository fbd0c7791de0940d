// Several searches in one launch (GpuEvaluator's lanes): blockIdx.y is the search (the lane) a block
// works for, and each lane's state arrays are a copy of lane 0's, STATE_BYTES further on (one packed
// buffer per lane). A kernel moves its state pointers with lane_state and its rows of F by the lane;
// a launch with one lane (blockIdx.y = 0) reads lane 0's, as before.
template <typename T> __device__ __forceinline__ T* lane_state(T* p) {
    return (T*)((const char*)p + (size_t)blockIdx.y * STATE_BYTES);
}
