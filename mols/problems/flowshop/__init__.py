"""Permutation flowshop with due dates: instances and objectives."""
