// The host side of qap_rots_round's simulation (tests/problems/test_qap_rots_round_source.py): each walk's block in
// turn, its threads C++ threads (shim.h). Usage: rots_sim WALKS THREADS SLOTS EVERY; reads A.bin, AT.bin, B.bin and
// the walks' perms, costs, lefts, tenures, lengths, thresholds, best_perms and best_costs (.bin), writes them back,
// and used.bin: the bytes of dynamic shared memory a block wrote.
#include "shim.h"
#include <cstring>
#define __launch_bounds__(x)
static long long g_round_smem[1 << 19];
#include "rots_sim.cu"
int main(int argc, char** argv) {
    const int walks = atoi(argv[1]), threads = atoi(argv[2]), slots = atoi(argv[3]);
    const long long every = atoll(argv[4]), n = N_FAC;
    const int* A = load<int>("A.bin", n * n);
    const int* AT = load<int>("AT.bin", n * n);
    const int* B = load<int>("B.bin", n * n);
    int* perms = load<int>("perms.bin", walks * n);
    VAL* costs = load<VAL>("costs.bin", walks);
    int* lefts = load<int>("lefts.bin", walks * n * n);
    const long long* tenures = load<long long>("tenures.bin", (size_t)walks * slots);
    const long long* lengths = load<long long>("lengths.bin", walks);
    VAL* thresholds = load<VAL>("thresholds.bin", walks);
    int* best_perms = load<int>("best_perms.bin", walks * n);
    VAL* best_costs = load<VAL>("best_costs.bin", walks);
    long long used = 0;  // the bytes of shared memory the blocks wrote, up to the last (perm's end)
    for (int w = 0; w < walks; ++w) {
        blockIdx.x = w;
        memset(g_round_smem, 0xA5, sizeof(g_round_smem));
        run_block(threads, [&] { qap_rots_round(A, AT, B, perms, costs, lefts, tenures, slots, every, lengths,
                                                thresholds, best_perms, best_costs); });
        const unsigned char* bytes = (const unsigned char*)g_round_smem;
        long long end = sizeof(g_round_smem);
        while (end > 0 && bytes[end - 1] == 0xA5) --end;
        used = std::max(used, end);
    }
    save("used.bin", &used, 1);
    save("perms.bin", perms, walks * n);
    save("costs.bin", costs, walks);
    save("lefts.bin", lefts, walks * n * n);
    save("thresholds.bin", thresholds, walks);
    save("best_perms.bin", best_perms, walks * n);
    save("best_costs.bin", best_costs, walks);
    return 0;
}
