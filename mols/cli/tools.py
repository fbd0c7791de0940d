"""`mols evaluate`, `mols instances`, `mols generate ppp` and `mols generate q3ap`, and `mols report`."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer

from mols.cli.console import BackendOpt, console, err_console, show_frame, show_table
from mols.cli.options import InstanceArg, NeighborhoodName, ProblemName, ProblemOpt
from mols.errors import MolsError, reason


def parse_solution(text: str | None, path: Path | None, problem):
    """The solution given by --solution or --solution-file (as front.csv writes it), or the encoding's
    initial one (the identity permutation)."""
    from mols.problems.io import read_text

    if text is not None and path is not None:
        raise MolsError("give --solution or --solution-file, not both")
    if path is not None:
        text = read_text(path)
    if text is None:
        return problem.encoding.initial()
    return problem.encoding.parse(text, "--solution")


def evaluate(
    instance: InstanceArg,
    problem: ProblemOpt = ProblemName.flowshop,
    solution: Annotated[str | None, typer.Option("--solution", "--perm", help="A solution as front.csv writes it, "
                                                 "e.g. the permutation '2 0 1 3' (default: the identity).")] = None,
    solution_file: Annotated[Path | None, typer.Option("--solution-file", "--perm-file",
                                                       help="A file holding the solution.")] = None,
    neighborhood: Annotated[NeighborhoodName | None, typer.Option(
        "--neighborhood", "-n", help="Evaluate this whole neighborhood instead of the solution alone.")] = None,
    backend: BackendOpt = "auto",
    seed: Annotated[int, typer.Option("--seed", "-s", min=0, help="A sampled neighborhood (crowns) is drawn "
                                      "with the key (SEED, 1): the same seed, the same neighbors.")] = 0,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write the result as CSV here.")] = None,
):
    """Evaluate a solution of an instance, or its whole neighborhood, and print or write the result."""
    import numpy as np

    import mols

    spec = mols.BackendSpec(backend.value).resolved()
    pb = mols.load_problem(problem.value, instance)
    x = parse_solution(solution, solution_file, pb)
    if neighborhood is None:
        F = pb.evaluate(x)[None, :]
        _show_or_write(_frame(pb, F, {"solution": [pb.encoding.format(x)]}), output,
                       f"{pb.name} instance {pb.instance_name} (size {pb.n})")
        return
    nbh = pb.neighborhood(neighborhood.value)
    evaluator = mols.prepare(pb, nbh, spec)
    key = np.array([seed, 1], dtype=np.uint64) if nbh.sampled else None
    evaluator.evaluate(x, key)  # warm-up: compilation stays out of the time below
    start = time.perf_counter()
    F = evaluator.evaluate(x, key)
    seconds = time.perf_counter() - start
    moves = nbh.moves(np.arange(len(F)), pb.n)
    names = "ijkl" if nbh.arity <= 4 else [f"m{q}" for q in range(nbh.arity)]
    frame = _frame(pb, F, {"id": np.arange(len(F)), **{names[q]: moves[:, q] for q in range(nbh.arity)}})
    title = (f"{nbh.name} neighborhood of {pb.instance_name}: {len(F)} neighbors in {seconds * 1e3:.3f} ms "
             f"on {evaluator.label} ({evaluator.device})")
    _show_or_write(frame, output, title, best_of=pb.objectives)


def _frame(pb, F, columns: dict):
    import pandas as pd

    return pd.DataFrame({**columns, **{name: F[:, k] for k, name in enumerate(pb.objectives)}})


def _show_or_write(frame, output: Path | None, title: str, best_of=()) -> None:
    if output is not None:
        try:
            frame.to_csv(output, index=False)
        except OSError as err:
            raise MolsError(f"--output {output}: {reason(err)}") from None
        console.print(f"{title}\nwrote {len(frame)} rows to {output}", highlight=False)
        return
    shown = frame.loc[sorted({int(frame[name].idxmin()) for name in best_of})] if best_of else frame
    show_table(title + (" — best neighbor per objective" if best_of else ""), list(frame.columns),
               [list(row) for row in shown.itertuples(index=False)])


def instances(of: Annotated[ProblemName | None, typer.Argument(help="Only this problem's (mols instances qap).",
                                                                show_default=False)] = None,
              problem: Annotated[ProblemName | None, typer.Option("--problem", "-p", help="The same, as a flag.")]
              = None):
    """List the bundled instances of every problem (or of one): sizes, and what is published with them."""
    from mols.problems import PROBLEMS

    if of and problem and of != problem:
        raise MolsError(f"two problems given, {of.value} and --problem {problem.value}: give one")
    chosen = problem or of
    for name, entry in PROBLEMS.items():
        if entry.instances is not None and (chosen is None or chosen.value == name):
            show_table(*entry.instances())


def generate_ppp(
    m: Annotated[int, typer.Argument(min=1, help="Rows of A (equations).")],
    n: Annotated[int, typer.Argument(min=1, help="Columns of A (bits of the secret).")],
    seed: Annotated[int | None, typer.Option("--seed", "-s", min=0, help="Seed of the draw (default: that of "
                                             "the bundled names, so 73 73 writes the instance 73-73).")] = None,
    output: Annotated[Path, typer.Option("--output", "-o", help="The instance file to write.")] = Path("ppp.txt"),
):
    """A permuted perceptron instance with a planted solution (format: mols/instances/ppp/SOURCE.md)."""
    from mols.problems.ppp import generate, write_ppp
    from mols.problems.ppp.instance import DEFAULT_SEED

    seed = DEFAULT_SEED if seed is None else seed
    instance = generate(m, n, seed)
    write_ppp(instance, output)
    console.print(f"wrote {instance.name} ({m} x {n}, seed {seed}, planted solution included) to {output}",
                  highlight=False)


def generate_q3ap(
    n: Annotated[int, typer.Argument(min=2, help="Positions (the size of each permutation).")],
    seed: Annotated[int, typer.Option("--seed", "-s", min=0, help="Seed of the draw.")] = 1,
    output: Annotated[Path, typer.Option("--output", "-o", help="The instance file to write: NumPy .npz where it ends "
                                         "in .npz, else text.")] = Path("q3ap.npz"),
):
    """A random general Q3AP instance, b and C drawn in 0..99, the instance random:N:SEED (format:
    mols/instances/q3ap/SOURCE.md)."""
    from mols.problems.q3ap import random_general, write_general

    instance = random_general(n, seed)
    write_general(instance, output)
    console.print(f"wrote {instance.name} (general form, n = {n}) to {output}", highlight=False)


def report(
    folders: Annotated[list[Path], typer.Argument(help="Results folders, or folders holding them (searched "
                                                  "recursively).")],
    output: Annotated[Path, typer.Option("--output", "-o", help="Report folder.")] = Path("results") / "report",
):
    """Indicators (pymoo), tables and plots over results folders; prints the summary.

    Runs are grouped by problem, instance (its content), objectives and budget; each group's reference set
    is the non-dominated union of its runs' fronts. Hypervolumes are compared pairwise over seeds within a
    group (Mann-Whitney U); bi-objective groups get attainment surfaces and EAF differences (moocore). Groups
    that could not be compared are named on stderr. A folder that cannot be read is named on stderr and left
    out; the others are still reported (exit code 1)."""
    from mols.reporting import write_report

    result = write_report(folders, output)
    for note in result.skipped + result.notes:
        err_console.print(f"note: {note}", highlight=False)
    show_frame(result.compact(), f"{len(result.runs)} run(s) in {len(result.groups)} group(s)")
    console.print(f"wrote {len(result.files)} files to {output}: report.md, runs.csv, summary.csv, plots",
                  highlight=False)
    if result.errors:
        raise MolsError("some results folders were left out:\n" + "\n".join(result.errors))
