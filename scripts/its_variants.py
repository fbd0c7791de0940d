"""Which solution iterated tabu search perturbs (reports/qap/its_variants.txt): the run's own best
(mols' rule, `walk`), the best of all runs (`best`), or the best of all runs with a strength that
grows by one swap per run without improvement up to n / 2 and then starts again (`cycling`).
Gaps to the best known of seeds 0, 1, 2 on the GPU.  Usage: its_variants.py walk,best,cycling 1000000"""

import sys

import numpy as np

from mols.backends import prepare
from mols.bench.qap import best_known
from mols.neighborhoods import get_neighborhood
from mols.problems import load_problem
from mols.search.its import IteratedTabu

SWAP = get_neighborhood("swap")


class FromBest(IteratedTabu):
    growth = 0  # swaps added per run without improvement (cycling back to the base past n / 2)

    def _search(self) -> None:
        best, start, left, base = None, None, self.budget, self.strength
        while left:
            length = min(self.run_length, left)
            x, f = self._tabu(self.w, length, start)
            left -= length
            if best is None or self.w @ f < self.w @ best[1]:
                best, self.strength = (x, f), base
            elif self.growth:
                self.strength = self.strength + self.growth if self.strength < self.problem.n // 2 else base
            start = self.perturb(best[0])


class Cycling(FromBest):
    growth = 1


VARIANTS = {"walk": IteratedTabu, "best": FromBest, "cycling": Cycling}

if __name__ == "__main__":
    iterations, bks = int(sys.argv[2]), best_known()
    for variant in sys.argv[1].split(","):
        for instance in ("tai50a", "tai100a"):
            problem = load_problem("qap", instance)
            ev = prepare(problem, SWAP, "gpu")
            runs = [VARIANTS[variant](problem, SWAP, ev, iterations, np.random.default_rng(seed)).run()
                    for seed in range(3)]
            gaps = [round(float(100 * (int(r.archive.F[0, 0]) / bks[instance] - 1)), 3) for r in runs]
            print(variant, instance, iterations, "gaps %", gaps, "s", [round(r.wall_seconds, 1) for r in runs],
                  flush=True)
