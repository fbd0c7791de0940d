// The host side of the general Q3AP's simulation (tests/problems/test_q3ap_general_source.py): every thread of
// q3ap_general_neighborhood in turn, for each lane, then q3ap_general_apply with a block of 32 threads per lane.
// Usage: q3ap_sim N_MOVES LANES COST_OFFSET; reads C.bin, b.bin, state.bin (the lanes' packed states), moves.bin
// and f.bin (a move and its cost per lane); writes F.bin and after.bin (the states after the moves).
#include "shim.h"
#define __launch_bounds__(x)
#include "q3ap_sim.cu"
int main(int argc, char** argv) {
    const long long n_moves = atoll(argv[1]);
    const int lanes = atoi(argv[2]);
    const long long cost_offset = atoll(argv[3]);
    const int* C = load<int>("C.bin", (size_t)(N_TRIPLES * N_TRIPLES));
    const int* b = load<int>("b.bin", (size_t)N_TRIPLES);
    char* state = load<char>("state.bin", (size_t)lanes * STATE_BYTES);
    const long long* moves = load<long long>("moves.bin", lanes);
    const VAL* f = load<VAL>("f.bin", lanes);
    VAL* F = (VAL*)calloc((size_t)lanes * n_moves, sizeof(VAL));
    int* x = (int*)state;
    VAL* cost = (VAL*)(state + cost_offset);
    for (int y = 0; y < lanes; ++y)
        for (long long bx = 0; bx * BLOCK < n_moves; ++bx)
            for (int tx = 0; tx < BLOCK; ++tx) {
                blockIdx = {(int)bx, y, 0};
                threadIdx.x = tx;
                q3ap_general_neighborhood(C, b, x, cost, F, n_moves);
            }
    save("F.bin", F, (size_t)lanes * n_moves);
    for (int y = 0; y < lanes; ++y)
        for (int tx = 0; tx < 32; ++tx) {
            blockIdx = {0, y, 0};
            threadIdx.x = tx;
            q3ap_general_apply(C, b, x, cost, moves, f);
        }
    save("after.bin", state, (size_t)lanes * STATE_BYTES);
    return 0;
}
