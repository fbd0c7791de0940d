"""mols inside pymoo (an optional import: `import mols` does not import pymoo).

- `MolsProblem`: any mols problem as a pymoo Problem, whose populations mols' backend evaluates (on the GPU, the
  problem's population kernel where it has one);
- `operators(problem)`: sampling, crossover and mutation that fit its solutions, for NSGA2(**operators(problem));
- `PLS` and `TabuSearch`: mols' Pareto local search and aggregated tabu search as pymoo Algorithms, for
  pymoo.optimize.minimize; PLS(initial=res.pop) starts from another algorithm's last population.
"""

from mols.pymoo.algorithm import PLS, Deadline, MolsSearch, TabuSearch, mols_budget
from mols.pymoo.problem import MolsProblem, operators

__all__ = ["PLS", "Deadline", "MolsProblem", "MolsSearch", "TabuSearch", "mols_budget", "operators"]
