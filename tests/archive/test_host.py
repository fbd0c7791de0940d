"""The host archive and its helpers against brute-force definitions, on small integer sets with many ties."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mols.archive import Archive, dominates, nondominated


def brute_dominates(a, b) -> bool:
    """a dominates b: no worse in every objective, better in one (all minimised)."""
    return bool(np.all(a <= b) and np.any(a < b))


def brute_nondominated(F) -> np.ndarray:
    """Row t kept iff no row dominates it and no earlier row equals it."""
    return np.array([not any(brute_dominates(F[s], F[t]) for s in range(len(F)))
                     and not any(np.array_equal(F[s], F[t]) for s in range(t))
                     for t in range(len(F))], dtype=bool)


class ReferenceArchive:
    """Insertion one candidate at a time, by the documented rule; members are (f, x, candidate id)."""

    def __init__(self):
        self.members: list[tuple[tuple, tuple, object]] = []

    def insert(self, f, x, tag) -> None:
        f = np.asarray(f)
        if any(np.all(np.asarray(g) <= f) for g, _, _ in self.members):  # weakly dominated (or equal)
            return
        self.members = [m for m in self.members if not brute_dominates(f, np.asarray(m[0]))]
        self.members.append((tuple(int(v) for v in f), tuple(int(v) for v in x), tag))

    def rows(self) -> set[tuple[tuple, tuple]]:
        return {(f, x) for f, x, _ in self.members}


def archive_rows(archive: Archive) -> set[tuple[tuple, tuple]]:
    return {(tuple(int(v) for v in f), tuple(int(v) for v in x)) for f, x in zip(archive.F, archive.X)}


def objective_sets(k_max: int = 3, size_max: int = 25, value_max: int = 3):
    """(k, F) with small values, so equal rows and weak dominance are common."""
    return st.integers(1, k_max).flatmap(lambda k: st.tuples(st.just(k), st.lists(
        st.lists(st.integers(0, value_max), min_size=k, max_size=k), min_size=0, max_size=size_max)))


def as_array(k, rows):
    return np.array(rows, dtype=np.int64).reshape(len(rows), k)


@settings(deadline=None)  # the first example may load or compile the Numba functions
@given(objective_sets())
def test_nondominated_equals_brute_force(case):
    F = as_array(*case)
    np.testing.assert_array_equal(nondominated(F), brute_nondominated(F))


@pytest.mark.parametrize("F, expected", [
    (np.empty((0, 3), dtype=np.int64), []),
    (np.array([[4, 2, 7]]), [True]),
    (np.full((5, 2), 3), [True, False, False, False, False]),
    (np.array([[1], [0], [0], [2]]), [False, True, False, False]),
])
def test_nondominated_edge_cases(F, expected):
    np.testing.assert_array_equal(nondominated(F), np.array(expected, dtype=bool))


@settings(deadline=None)
@given(objective_sets(), st.data())
def test_dominates_equals_brute_force(case, data):
    k, rows = case
    F = as_array(k, rows)
    f = np.array(data.draw(st.lists(st.integers(0, 3), min_size=k, max_size=k)), dtype=np.int64)
    expected = np.array([brute_dominates(row, f) for row in F], dtype=bool)
    np.testing.assert_array_equal(dominates(F, f), expected)


def test_dominates_is_strict():
    F = np.array([[1, 2], [1, 1], [0, 3], [2, 2]])
    np.testing.assert_array_equal(dominates(F, np.array([1, 2])), [False, True, False, False])


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 3), st.lists(st.lists(st.lists(st.integers(0, 3), min_size=3, max_size=3),
                                            max_size=12), min_size=1, max_size=4))
def test_add_equals_one_by_one_insertion(k, batches):
    """Several batches in a row, each on top of what the earlier ones left; every candidate has its
    own solution row, so which of two equal vectors stayed is visible in X."""
    archive, reference = Archive(k, 2), ReferenceArchive()
    tag = 0
    for batch in batches:
        F = np.array([row[:k] for row in batch], dtype=np.int64).reshape(len(batch), k)
        X = np.array([[tag + t, -(tag + t)] for t in range(len(batch))], dtype=np.int64).reshape(len(batch), 2)
        for t in range(len(batch)):
            reference.insert(F[t], X[t], tag + t)
        accepted = archive.add(F, X)
        assert archive_rows(archive) == reference.rows()
        present = {m[2] for m in reference.members}
        np.testing.assert_array_equal(accepted, [tag + t in present for t in range(len(batch))])
        tag += len(batch)
        assert len(archive.F) == len(archive.X) == len(archive.visited)
        # members mutually non-dominated and distinct
        assert nondominated(archive.F).all()


def test_equal_vector_keeps_the_member_already_there():
    archive = Archive(2, 3)
    archive.add(np.array([[3, 3]]), np.array([[0, 1, 2]]))
    accepted = archive.add(np.array([[3, 3], [5, 1]]), np.array([[2, 1, 0], [1, 0, 2]]))
    np.testing.assert_array_equal(accepted, [False, True])
    np.testing.assert_array_equal(archive.X[archive.F[:, 0] == 3], [[0, 1, 2]])


def test_equal_candidates_in_one_batch_keep_the_first():
    archive = Archive(2, 3)
    accepted = archive.add(np.array([[4, 4], [4, 4], [4, 4]]), np.array([[0, 1, 2], [1, 2, 0], [2, 0, 1]]))
    np.testing.assert_array_equal(accepted, [True, False, False])
    np.testing.assert_array_equal(archive.X, [[0, 1, 2]])


def test_dominating_candidate_replaces_members():
    archive = Archive(2, 1)
    archive.add(np.array([[5, 1], [3, 3], [1, 5]]), np.array([[0], [1], [2]]))
    accepted = archive.add(np.array([[2, 2], [3, 3]]), np.array([[3], [4]]))
    np.testing.assert_array_equal(accepted, [True, False])
    assert archive_rows(archive) == {((5, 1), (0,)), ((1, 5), (2,)), ((2, 2), (3,))}


def test_empty_batch_changes_nothing():
    archive = Archive(3, 4)
    archive.add(np.array([[1, 2, 3]]), np.array([[0, 1, 2, 3]]))
    accepted = archive.add(np.empty((0, 3), dtype=np.int64), np.empty((0, 4), dtype=np.int32))
    assert accepted.shape == (0,)
    assert len(archive) == 1


def test_visited_flags():
    archive = Archive(2, 1)
    archive.add(np.array([[5, 1], [3, 3], [1, 5]]), np.array([[0], [1], [2]]))
    assert not archive.visited.any()
    np.testing.assert_array_equal(archive.unvisited_ids(), [0, 1, 2])
    archive.visited[[0, 2]] = True  # (5, 1) and (1, 5) visited
    np.testing.assert_array_equal(archive.unvisited_ids(), [1])
    # (0, 9) enters; (4, 0) enters and removes (5, 1); (3, 3) survives unvisited, (1, 5) survives visited
    archive.add(np.array([[0, 9], [4, 0]]), np.array([[3], [4]]))
    flags = {int(x[0]): bool(v) for x, v in zip(archive.X, archive.visited)}
    assert flags == {1: False, 2: True, 3: False, 4: False}
    np.testing.assert_array_equal(archive.X[archive.unvisited_ids(), 0], [1, 3, 4])


def test_hold_takes_members_and_flags_as_given_and_copies_them():
    """A checkpoint's members held again: the same order, solutions and flags; marking one visited later leaves
    the state it came from as it was (it may be restored again)."""
    F, X, visited = np.array([[5, 1], [3, 3], [1, 5]]), np.array([[7], [8], [9]]), np.array([True, False, False])
    archive = Archive(2, 1)
    archive.hold(F, X, visited)
    np.testing.assert_array_equal(archive.unvisited_ids(), [1, 2])
    archive.visited[1] = True
    assert not visited[1]
    archive.add(np.array([[4, 0]]), np.array([[6]]))  # removes (5, 1); the pool grows past the rows held
    np.testing.assert_array_equal(archive.X[:, 0], [8, 9, 6])
    np.testing.assert_array_equal(archive.visited, [True, False, False])

@settings(max_examples=50, deadline=None)
@given(st.lists(st.lists(st.lists(st.integers(0, 4), min_size=3, max_size=3), max_size=15), min_size=1, max_size=6),
       st.data())
def test_members_stay_mutually_nondominated_and_keep_their_flags(batches, data):
    archive = Archive(3, 1)
    tag = 0
    for batch in batches:
        if len(archive):  # visit some members, then check that survivors keep the flag
            archive.visited[:] = data.draw(st.lists(st.booleans(), min_size=len(archive), max_size=len(archive)))
        before = {int(x[0]): bool(v) for x, v in zip(archive.X, archive.visited)}
        F = np.array(batch, dtype=np.int64).reshape(len(batch), 3)
        archive.add(F, np.arange(tag, tag + len(batch))[:, None])
        tag += len(batch)
        for x, v in zip(archive.X[:, 0], archive.visited):
            assert v == before.get(int(x), False)
        for a in range(len(archive)):
            for b in range(len(archive)):
                if a != b:
                    assert not np.array_equal(archive.F[a], archive.F[b])
                    assert not brute_dominates(archive.F[a], archive.F[b])


def test_solutions_follow_their_members_through_many_updates(rng):
    """The solution pool reuses the rows of removed members: X still pairs each member with its solution."""
    archive = Archive(2, 3, np.int64)
    F_model, X_model = np.empty((0, 2), np.int64), np.empty((0, 3), np.int32)
    for step in range(200):
        stay = rng.random(len(archive)) < 0.7
        new = int(rng.integers(0, 6))
        F_new = rng.integers(0, 1000, size=(new, 2))
        X_new = rng.integers(0, 1000, size=(new, 3)).astype(np.int32)
        archive.replace(stay, F_new, X_new)
        F_model, X_model = np.concatenate([F_model[stay], F_new]), np.concatenate([X_model[stay], X_new])
        np.testing.assert_array_equal(archive.F, F_model)
        np.testing.assert_array_equal(archive.X, X_model)
        if len(archive):
            i = int(rng.integers(len(archive)))
            np.testing.assert_array_equal(archive.solution(i), X_model[i])
