"""`mols bench peers` on the CPU with tiny budgets: every run's score matches the solution it returned, the times to
the targets agree with the scores per budget, the report says it, missing peers are skipped, bad flags named; on the
device, the same checks with mols on the GPU (and on two GPUs where there are)."""

from __future__ import annotations

import math
import sys

import numpy as np
import pytest
from typer.testing import CliRunner

from mols.bench import peers
from mols.bench.peers_jobs import Settings
from mols.bench.peers_report import write_report
from mols.problems import load_problem
from mols.problems.tsp.instance import optimal_lengths
from mols.problems.tsp.model import tour_lengths
from tests.bench.spreads import markdown_spreads

BUDGETS = (0.2, 0.5)


def run_bench(plan: dict, backend: str, gpus: int = 1, seeds: int = 2) -> list[dict]:
    settings = Settings(BUDGETS, seeds, backend, gpus, lkh_timeout=60.0, cores=2)
    records, skipped = peers.run(plan, settings)
    assert skipped == [], skipped  # the test extra installs every peer
    return records


def check_tours(records: list[dict], instance: str) -> None:
    """Each tour is a permutation whose length is the run's last value; every gap is its value's, and >= 0."""
    problem, optimum = load_problem("tsp", instance), optimal_lengths()[instance]
    for r in records:
        assert r["note"] is None and r["points"], r
        tour = np.asarray(r["final"])
        assert sorted(tour.tolist()) == list(range(problem.n))
        assert tour_lengths(problem.xy[0], tour[None], problem.att)[0] == r["points"][-1][1]
        values = [value for _, value in r["points"]]
        assert values == sorted(values, reverse=True) and values[-1] >= optimum  # best so far, never below the optimum
    for row in peers.budget_rows(records, BUDGETS):
        if not math.isnan(row["score"]):
            assert row["score"] >= 0 and row["score"] == pytest.approx(100 * (row["value"] / optimum - 1))


def check_continuous(records: list[dict], instance: str) -> None:
    """Each final point lies in the box and evaluates to the run's last value (mols': its kernels', within 1e-9)."""
    problem = load_problem("weierstrass", instance)
    for r in records:
        assert r["note"] is None and r["points"], r
        x = np.asarray(r["final"])
        assert x.shape == (problem.n,) and np.all(np.abs(x) <= 1.0)
        assert problem.evaluate(x)[0] == pytest.approx(r["points"][-1][1], rel=1e-9, abs=1e-9)


def check_targets(records: list[dict]) -> None:
    """A run at or below a target by a budget reached it by then, and the reverse (a run of one budget alone,
    fast-tsp's: by its own seconds)."""
    for (domain, _, _, _), group in peers.by_seed(records).items():
        for target in peers.DOMAINS[domain].targets:
            reached = peers.reach(group, target)
            for r in group:
                for budget in BUDGETS:
                    score, point = peers.score_at(r, budget), peers.point_at(r, budget)
                    if score is None or math.isnan(score):
                        continue
                    if r["budget"] is None:
                        assert (score <= target) == (reached <= budget), (r["contestant"], budget, target)
                    elif score <= target:
                        assert reached <= point[0]


def test_scores_match_the_solutions_and_the_targets_agree(tmp_path):
    plan = {"tsp": ["kroA100"], "continuous": ["5"], "flowshop": ["020_05_01"]}
    records = run_bench(plan, "cpu")
    contestants = {(r["domain"], r["contestant"]) for r in records}
    assert contestants == {("tsp", "mols"), ("tsp", "fast-tsp"), ("tsp", "elkai"), ("continuous", "mols"),
                           ("continuous", "cma"), ("continuous", "scipy"), ("flowshop", "mols"),
                           ("flowshop", "nsga2"), ("flowshop", "nsga3")}
    check_tours([r for r in records if r["domain"] == "tsp" and r["points"]], "kroA100")
    assert len([r for r in records if r["contestant"] == "fast-tsp"]) == 2 * len(BUDGETS)  # a run per seed and budget
    check_continuous([r for r in records if r["domain"] == "continuous"], "5")
    check_targets(records)
    shares = [row["score"] for row in peers.budget_rows(records, BUDGETS) if row["domain"] == "flowshop"]
    assert all(0 <= share <= 1 for share in shares) and max(shares) > 0
    md = write_report(records, plan, Settings(BUDGETS, 2, "cpu", cores=2), [], {"cpu": "test"}, tmp_path)
    text = md.read_text()
    for line in ("### kroA100: 100 cities, optimum 21,282", "| contestant | runs | 0.2 s | 0.5 s |",
                 "| contestant | 1 % | 0.5 % | 0.2 % | 0.1 % | 0.05 % | optimum |", "| fast-tsp | 2 |",
                 "| elkai | 1 |", "| cma | 2 |", "| nsga3 | 2 |", "one single-threaded job per core"):
        assert line in text, line
    assert markdown_spreads(text)
    assert {path.name for path in tmp_path.iterdir()} >= {"peers.md", "peers.csv", "peers-summary.csv",
                                                          "peers-targets.csv", "peers-targets-summary.csv"}


def test_the_qap_domain_scores_the_elite_and_its_against_the_best_known():
    records = run_bench({"qap": ["tai12a"]}, "cpu")
    assert {r["contestant"] for r in records} == {"mols", "mols its"}
    problem, best = load_problem("qap", "tai12a"), peers.DOMAINS["qap"].score
    for r in records:  # each final permutation costs the run's last value, never below the best known (the optimum)
        assert r["note"] is None and r["points"], r
        x = np.asarray(r["final"])
        assert sorted(x.tolist()) == list(range(problem.n))
        assert problem.evaluate(x[None])[0, 0] == r["points"][-1][1] and best("tai12a", r["points"][-1][1]) >= 0
    check_targets(records)


def test_each_run_reaches_the_caller_as_it_ends():
    """The bench's report is rewritten from these after each run: a bench stopped later keeps them."""
    seen = []
    settings = Settings((0.2,), 1, "cpu", 1, lkh_timeout=60.0, cores=2)
    records, _ = peers.run({"qap": ["tai12a"]}, settings, lambda done, skipped: seen.append(list(done)))
    assert [len(done) for done in seen] == list(range(1, len(records) + 1))
    key = lambda r: (r["contestant"], r["seed"])
    assert sorted(seen[-1], key=key) == sorted(records, key=key)


def test_fast_tsp_on_several_threads_runs_alone_and_says_so(tmp_path):
    from mols.cli import app

    result = CliRunner().invoke(app, ["bench", "peers", "--domains", "tsp", "--instances", "kroA100", "--budgets", "0.3",
                                      "--seeds", "2", "-b", "cpu", "--fast-tsp-threads", "2", "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    text = (tmp_path / "peers.md").read_text()
    assert "fast-tsp on 2 threads, one run at a time" in text and "| fast-tsp | 2 |" in text
    assert "one thread only" not in text  # the installed fast-tsp (0.2) takes the threads


def test_missing_peers_are_skipped_and_mols_still_runs(tmp_path, monkeypatch):
    from mols.cli import app

    for module in ("fast_tsp", "elkai", "cma", "scipy"):
        monkeypatch.setitem(sys.modules, module, None)  # import fails, as where the peer is not installed
    result = CliRunner().invoke(app, ["bench", "peers", "--domains", "tsp,continuous", "--instances", "kroA100",
                                      "--dimensions", "2", "--budgets", "0.3", "--seeds", "1", "-b", "cpu",
                                      "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    for peer in ("fast-tsp", "elkai", "cma", "scipy"):
        assert f"{peer}: skipped, not installed (pip install 'mols[peers]')" in result.output
    text = (tmp_path / "peers.md").read_text()
    assert text.count("| mols | 1 |") == 2 and "| fast-tsp |" not in text and "| cma |" not in text


@pytest.mark.parametrize("flags, named", [
    (["--budgets", "0,1"], "--budgets"), (["--budgets", "one"], "--budgets"), (["--domains", "chess"], "--domains"),
    (["--instances", "nowhere"], "--instances"), (["--dimensions", "0"], "--dimensions"),
    (["--dimensions", "2000"], "--dimensions"), (["--flowshop", "nowhere"], "--flowshop"),
    (["--flowshop", ","], "--flowshop"), (["--qap", "nowhere"], "--qap"),
    (["--gpus", "2", "-b", "cpu"], "--gpus"), (["--seeds", "0"], "--seeds"), (["-b", "tpu"], "--backend"),
    (["--fast-tsp-threads", "0"], "--fast-tsp-threads"),
])
def test_bad_flags_are_named(flags, named, tmp_path):
    from mols.cli import app

    result = CliRunner().invoke(app, ["bench", "peers", *flags, "-o", str(tmp_path)])
    assert result.exit_code == 1 and named in result.output and "Traceback" not in result.output, result.output


@pytest.mark.gpu
def test_gpu_runs_match_their_solutions_and_targets():
    plan = {"tsp": ["lin318"], "continuous": ["10"], "flowshop": ["020_10_01"]}
    records = run_bench(plan, "gpu", seeds=1)
    check_tours([r for r in records if r["domain"] == "tsp" and r["points"]], "lin318")
    check_continuous([r for r in records if r["domain"] == "continuous"], "10")
    check_targets(records)
    assert all(r["points"] for r in records if r["contestant"] == "mols")


@pytest.mark.gpu
def test_two_gpus_run_the_same_checks():
    from mols.parallel.workers import visible_gpus

    if len(visible_gpus()) < 2:
        pytest.skip("needs two GPUs")
    records = run_bench({"tsp": ["lin318"], "continuous": ["10"]}, "gpu", gpus=2)
    check_tours([r for r in records if r["domain"] == "tsp" and r["points"]], "lin318")
    check_targets(records)
