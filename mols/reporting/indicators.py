"""Quality indicators of a front against a reference set, in the reference set's normalised space (ideal 0, nadir
1; hypervolume up to HV_POINT on each objective)."""

from __future__ import annotations

import moocore
import numpy as np
from pymoo.indicators.gd import GD
from pymoo.indicators.gd_plus import GDPlus
from pymoo.indicators.hv import HV
from pymoo.indicators.igd import IGD
from pymoo.indicators.igd_plus import IGDPlus

from mols.archive import nondominated

HV_POINT = 1.1
INDICATORS = ("hv", "igd", "igd_plus", "gd", "gd_plus", "eps_add")


def reference_set(fronts: list[np.ndarray], published: np.ndarray | None = None) -> np.ndarray:
    """The non-dominated union of fronts (equal vectors once), and of the published exact front
    where there is one (then the reference set is that front, unless a run beats it)."""
    fronts = fronts if published is None else [*fronts, np.asarray(published)]
    union = np.concatenate([f for f in fronts if len(f)]) if any(len(f) for f in fronts) else np.empty((0, 0))
    return union[nondominated(union)] if len(union) else union


def bounds(reference: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Ideal and nadir points of the reference set."""
    return reference.min(axis=0), reference.max(axis=0)


def normalise(F: np.ndarray, ideal: np.ndarray, nadir: np.ndarray) -> np.ndarray:
    scale = np.where(nadir > ideal, nadir - ideal, 1.0)
    return (np.asarray(F, dtype=np.float64) - ideal) / scale


def indicators(F: np.ndarray, reference: np.ndarray, hv_point: float = HV_POINT) -> dict[str, float]:
    """hv (higher is better), igd, igd_plus, gd, gd_plus and eps_add (lower is better) of front F,
    all in the reference set's normalised space; NaN for an empty front."""
    if len(F) == 0:
        return dict.fromkeys(INDICATORS, float("nan"))
    ideal, nadir = bounds(reference)
    A, R = normalise(F, ideal, nadir), normalise(reference, ideal, nadir)
    return {
        "hv": float(HV(ref_point=np.full(A.shape[1], hv_point))(A)),
        "igd": float(IGD(R)(A)),
        "igd_plus": float(IGDPlus(R)(A)),
        "gd": float(GD(R)(A)),
        "gd_plus": float(GDPlus(R)(A)),
        "eps_add": float(moocore.epsilon_additive(A, ref=R)),
    }
