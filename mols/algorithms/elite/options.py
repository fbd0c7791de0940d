"""The elite search's options (-a elite): walks side by side, the elite, rounds, Ro-TS tenure range and aspiration."""

from __future__ import annotations

import math
from dataclasses import dataclass

from mols.algorithms.descent.options import strength_option
from mols.errors import OptionError
from mols.search.options import SEARCH, AlgorithmOptions, keyed, option, parse_numbers

# Tenures drawn in [0.5 n, 1.5 n] (Taillard's Ro-TS: [0.9 n, 1.1 n]), an elite of 32 and half the walks restarted
# each round: lower than Ro-TS's range, an elite of 8 and a quarter on the GPU and on the CPU (reports/qap/)
DEFAULT_TENURES = (0.5, 1.5)
DEFAULT_ELITE = 32
MEMORIES = ("rots", "moves")  # Ro-TS's table of values' positions (rots.py), or the inverse moves (tabu's)
LAUNCHES = ("step", "round")  # a step of all walks at a time, or a round of each (device.py, qap/rots_round.py)


def tenure_range(tenures, n: int) -> tuple[int, int]:
    """The tenures drawn, in steps: [low n, high n] rounded outwards, at least 1."""
    low, high = tenures
    return max(1, math.floor(low * n)), max(1, math.ceil(high * n))


def parse_tenures(text: str | None) -> tuple[float, ...] | None:
    """The tenure range written as two numbers, low and high, in units of n ('0.9,1.1')."""
    return None if text is None else parse_numbers(text, "tenures")


@dataclass(frozen=True)
class EliteOptions(AlgorithmOptions):
    """-a elite: `walkers` tabu walks side by side in rounds of `period` steps; after each round the `replace` walks
    with the worst bests restart from perturbed copies of the elite (the `elite` best solutions found)."""

    walkers: int = option(32, "Elite: tabu walks side by side.", SEARCH, minimum=1,
                          folder=lambda v, config: None if v == 32 else f"W{v}")
    elite: int = option(DEFAULT_ELITE, "Elite: the best distinct solutions kept, from which restarted walks start.",
                        SEARCH, minimum=1, folder=lambda v, config: None if v == DEFAULT_ELITE else f"E{v}")
    replace: int | None = option(None, "Elite: walks restarted after each round, the worst (default: walkers / 2).",
                                 SEARCH, minimum=0, folder=keyed("x"))
    period: int | None = option(None, "Elite: steps of each walk per round; each round draws the walks' tenures "
                                "again (default: 10 n on the CPU; 30 n on the GPU, at least 12.5 M / n^2).", SEARCH,
                                minimum=1, folder=keyed("P"))
    tenures: tuple[float, ...] | None = option(None, "Elite: the range each walk's tenure is drawn in, in units of "
                                               "n, e.g. '0.8,1.2' (default: 0.5,1.5; Ro-TS's: 0.9,1.1).", SEARCH,
                                               cli=str,
                                               parse=parse_tenures, folder=lambda v, config: None if v is None
                                               else "tr" + "_".join(f"{t:g}" for t in v))
    aspiration: int | None = option(None, "Elite: a swap is forced at a round's end where it puts a value at a "
                                    "position it has not held for this many steps (default: 5 n^2; 0: never).",
                                    SEARCH, minimum=0, folder=keyed("a"))
    strength: int | None = strength_option()  # None: n / 10, at least 2
    tabu_memory: str | None = option(None, "Elite: the tabu memory, rots (Taillard's: a swap is tabu when both values "
                                "it places left there within the tenure) or moves (a move's inverse is tabu; "
                                "default: rots for swaps, else moves).", SEARCH, choices=MEMORIES,
                                folder=lambda v, config: None if v is None else v)
    launch: str | None = option(None, "Elite with Ro-TS's memory: the walks take a step at a time (step: on the GPU "
                                "one launch a step for all) or a whole round at once (round: on the GPU one launch a "
                                "round, a block a walk, QAP swaps up to 120-152 facilities; on the CPU a core a walk); "
                                "the same run either way, no target (default: round).",
                                SEARCH, choices=LAUNCHES, folder=lambda v, config: None if v is None else v)

    def __post_init__(self):
        super().__post_init__()
        if self.replace is not None and self.replace > self.walkers:
            raise OptionError("replace", f"must be at most {{walkers}} ({self.walkers}), got {self.replace}", "walkers")
        low_high = tuple(self.tenures or DEFAULT_TENURES)
        if len(low_high) != 2 or not 0 < low_high[0] <= low_high[1]:
            raise OptionError("tenures", f"must be two numbers 0 < low <= high (units of n), got {low_high}")
