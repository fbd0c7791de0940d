"""The descents over tabu search's score: hill climbing, iterated local search and iterated tabu search."""
