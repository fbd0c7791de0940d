"""mols inside pymoo (an optional import: `import mols` does not import pymoo): `MolsProblem`, any mols problem as a
pymoo Problem evaluated by mols' backend; `operators(problem)`, sampling, crossover and mutation that fit its
solutions; `PLS` and `TabuSearch`, mols' searches as pymoo Algorithms."""

from mols.pymoo.algorithm import PLS, Deadline, MolsSearch, TabuSearch, mols_budget
from mols.pymoo.problem import MolsProblem, operators

__all__ = ["PLS", "Deadline", "MolsProblem", "MolsSearch", "TabuSearch", "mols_budget", "operators"]
