"""The algorithms, one folder each with its host loop and its device half: tabu search, the descents (hill climbing,
iterated local search, iterated tabu search), Pareto local search and ILS-3opt."""
