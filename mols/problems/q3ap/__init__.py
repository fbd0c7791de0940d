"""The quadratic three-dimensional assignment problem (Q3AP), searched with swaps on a pair of permutations: the
general form (6-index costs and a linear term) and the product form, its compact special case."""

from __future__ import annotations

from mols.problems.q3ap.general import Q3apGeneralInstance, from_product, random_general, random_name
from mols.problems.q3ap.general_io import read_instance, write_general
from mols.problems.q3ap.instance import (
    Q3apInstance,
    from_nugent,
    instance_table,
    read_q3ap,
    resolve_q3ap,
    write_q3ap,
)
from mols.problems.q3ap.model import Q3ap, Q3apGeneral, Q3apModel


def load_q3ap(instance: str) -> Q3apModel:
    """The Q3AP of a file of either form (a path, or a bundled name such as nug12) or of random:N:SEED, a random
    instance in general form."""
    random = random_name(instance)
    if random is not None:
        return Q3apGeneral(random_general(*random))
    read = read_instance(resolve_q3ap(instance))
    return Q3ap(read) if isinstance(read, Q3apInstance) else Q3apGeneral(read)


__all__ = ["Q3ap", "Q3apGeneral", "Q3apGeneralInstance", "Q3apInstance", "Q3apModel", "from_nugent", "from_product",
           "instance_table", "load_q3ap", "random_general", "read_instance", "read_q3ap", "write_general",
           "write_q3ap"]
