"""Or-opt for the TSP (Numba; ils3opt.cu's OROPT code is its twin): a segment of 1 .. OR_MAX cities from a city moved
between a candidate of that city and the candidate's neighbour, reversed or not, carried out as two or three flips."""

from __future__ import annotations

from mols.algorithms.ils3opt.three_opt import between, dist, flip, step
from mols.jit import cached_njit

OR_MAX = 3  # the longest segment an Or-opt move carries


@cached_njit
def or_delta(xy, p, t1, s_end, q, c, d, att):
    """Length change of moving the segment t1 .. s_end (between p and q) between c and d, t1 next to c."""
    removed = dist(xy, p, t1, att) + dist(xy, s_end, q, att) + dist(xy, c, d, att)
    return dist(xy, p, q, att) + dist(xy, c, t1, att) + dist(xy, s_end, d, att) - removed


@cached_njit
def or_move(xy, cand, tour, pos, t1, att, move):
    """The first improving Or-opt move from t1 (direction of the segment forward then backward, its length 1 ..
    OR_MAX, t1's candidates c in list order (three_opt.candidate_table's) while d(t1, c) is below the removal's
    gain, d after then before c):
    move (6,) = p, t1, s_end, q, c, d; returns (found, forward, gain)."""
    k = cand.shape[1]
    for direction in range(2):
        fwd = direction == 0
        p = step(tour, pos, t1, not fwd)
        s_end = t1
        for length in range(1, OR_MAX + 1):
            if length > 1:
                s_end = step(tour, pos, s_end, fwd)
            q = step(tour, pos, s_end, fwd)
            g0 = dist(xy, p, t1, att) + dist(xy, s_end, q, att) - dist(xy, p, q, att)
            for a in range(k):
                c = cand[t1, a, 0]
                g1 = g0 - cand[t1, a, 1]
                if g1 <= 0:
                    break
                if c == p or c == q or between(pos, t1, c, s_end, fwd):
                    continue
                for side in range(2):
                    d = step(tour, pos, c, fwd if side == 0 else not fwd)
                    if d == p or d == q:  # c next to the segment's ends: a smaller move (of p or q) does it
                        continue
                    gain = g1 + dist(xy, c, d, att) - dist(xy, s_end, d, att)
                    if gain > 0:
                        move[0], move[1], move[2], move[3], move[4], move[5] = p, t1, s_end, q, c, d
                        return True, fwd, gain
    return False, True, 0


@cached_njit
def apply_or(tour, pos, move, fwd, dirty=None):
    """Carry out or_move's move: with d after c (direction fwd) the segment keeps its orientation (three flips,
    two for one city), else it is reversed (two)."""
    p, t1, s_end, q, c, d = move[0], move[1], move[2], move[3], move[4], move[5]
    if d == step(tour, pos, c, fwd):
        flip(tour, pos, p, t1, c, d, dirty)  # p c .. q s_end .. t1 d
        flip(tour, pos, p, c, q, s_end, dirty)  # p q .. c s_end .. t1 d
        if t1 != s_end:
            flip(tour, pos, c, s_end, t1, d, dirty)
    else:
        flip(tour, pos, p, t1, d, c, dirty)  # p d .. q s_end .. t1 c
        flip(tour, pos, p, d, q, s_end, dirty)  # p q .. d s_end .. t1 c
