// The host side of the simulation: the population's arrays from files, the kernels launched as the Python
// launchers do (ils3opt_gpu.py), the results to files. Usage: sim P STRATEGY SEED SAMPLES WINDOW IT0 IT1 ...
// (strategy 0 fi-thread, 1 fi-block, 2 fi-block-shared, 3 rkbi; WINDOW > 0: each chunk a merged round's, whose
// spans are written too).
#include "shim.h"
#include "ils_sim.cu"
const int FI_THREADS = 24;  // fewer than the 40 candidates: a thread takes several, as a block of 64 would on K > 64
int main(int argc, char** argv) {
    const int P = atoi(argv[1]), strategy = atoi(argv[2]), samples = atoi(argv[4]), window = atoi(argv[5]);
    const unsigned long long seed = strtoull(argv[3], nullptr, 10);
    double* xy = load<double>("xy.bin", 2 * N);
    int* cand = load<int>("cand.bin", (size_t)N * K * 2);  // (city, distance) pairs
    int* tours = load<int>("tours.bin", (size_t)P * N);
    long long* lengths = load<long long>("lengths.bin", P);
    int *pos = (int*)calloc((size_t)P * N, 4), *bests = (int*)calloc((size_t)P * N, 4);
    int *best_pos = (int*)calloc((size_t)P * N, 4), *queues = (int*)calloc((size_t)P * N, 4);
    unsigned char* queued = (unsigned char*)calloc((size_t)P * N, 1);
    int* spans = (int*)calloc((size_t)P * 2, 4);
    for (int s = 0; s < P; ++s) { spans[2 * s] = N; spans[2 * s + 1] = -1; }
    const int B = 3;  // rkbi: blocks per solution
    long long *current = (long long*)calloc(P, 8), *part_delta = (long long*)calloc((size_t)P * B, 8);
    int *active = (int*)calloc(P, 4), *part_code = (int*)calloc((size_t)P * B, 4);
    for (int c = 6; c + 1 < argc; ++c) {
        const int a = atoi(argv[c]), b = atoi(argv[c + 1]);
        if (strategy < 3) {
            for (int s = 0; s < P; ++s) {
                blockIdx.x = s;
                if (strategy == 0) run_block(1, [&] { ils_fi_thread(xy, cand, seed, P, tours, pos, bests, best_pos, queues, queued, lengths, a, b, window, spans); });
                if (strategy == 1) run_block(FI_THREADS, [&] { ils_fi_block(xy, cand, seed, P, tours, pos, bests, best_pos, queues, queued, lengths, a, b, window, spans); });
                if (strategy == 2) run_block(FI_THREADS, [&] { ils_fi_block_shared(xy, cand, seed, P, tours, pos, bests, best_pos, queues, queued, lengths, a, b, window, spans); });
            }
            continue;
        }
        gridDim.y = B;
        for (int it = a; it < b; ++it) {
            for (int s = 0; s < P; ++s) { blockIdx.x = s; run_block(RKBI_THREADS, [&] { ils_rkbi_prepare(xy, seed, tours, pos, lengths, current, active, it); }); }
            for (int step = 0;; ++step) {
                int any = 0;
                for (int s = 0; s < P; ++s) any |= active[s];
                if (!any) break;
                for (int s = 0; s < P; ++s)
                    for (int g = 0; g < B; ++g) {
                        blockIdx.x = s; blockIdx.y = g;
                        run_block(RKBI_THREADS, [&] { ils_rkbi_sample(xy, seed, tours, active, it, step, samples, part_delta, part_code); });
                    }
                for (int s = 0; s < P; ++s) { blockIdx.x = s; run_block(RKBI_THREADS, [&] { ils_rkbi_apply(seed, tours, pos, active, current, it, step, part_delta, part_code, B); }); }
            }
            for (int s = 0; s < P; ++s) { blockIdx.x = s; run_block(RKBI_THREADS, [&] { ils_rkbi_accept(tours, pos, bests, best_pos, lengths, current); }); }
        }
    }
    save("out_bests.bin", bests, (size_t)P * N);
    save("out_lengths.bin", lengths, P);
    save("out_spans.bin", spans, (size_t)P * 2);
    return 0;
}
