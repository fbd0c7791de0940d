"""What a user of the installed package relies on: a quick start (light imports, Numba kernels loaded from the disk
cache), bundled instances found from any folder, clear errors for missing extras."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from mols.jit import cached_njit, closure_key

HEAVY = ("pandas", "cupy", "dask", "distributed", "matplotlib", "numba", "numpy", "scipy")
LOADED = f"import sys; print(json.dumps(sorted(m for m in {HEAVY!r} if m in sys.modules)))"


def loaded_by(code: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", f"import json\n{code}\n{LOADED}"], capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_import_mols_loads_no_numerical_library():
    assert loaded_by("import mols") == []


def test_mols_help_loads_no_numerical_library():
    help_then = ("import runpy\nsys.argv = ['mols', '--help']\ntry:\n    runpy.run_module('mols', run_name='__main__')\n"
                 "except SystemExit:\n    pass")
    assert loaded_by("import sys\n" + help_then) == []


KERNEL_HITS = """
import json, sys
import mols
from mols.neighborhoods import get_neighborhood
problem = mols.load_problem("flowshop", "020_05_01")
evaluator = mols.prepare(problem, get_neighborhood(sys.argv[1]), "cpu")
evaluator.evaluate(problem.encoding.initial())
stats = problem.kernels.cpu_kernel(evaluator.nbh).stats
print(json.dumps([sum(stats.cache_hits.values()), sum(stats.cache_misses.values())]))
"""


def kernel_cache(neighborhood: str, cache_dir) -> list[int]:
    """(hits, misses) of the flowshop's kernel, made by its factory, in a fresh process."""
    done = subprocess.run([sys.executable, "-c", KERNEL_HITS, neighborhood], capture_output=True, text=True,
                          check=True, env={**os.environ, "NUMBA_CACHE_DIR": str(cache_dir)})
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_kernel_made_by_a_factory_loads_from_the_cache_in_the_next_process(tmp_path):
    assert kernel_cache("insertion", tmp_path) == [0, 1]  # compiled, saved
    assert kernel_cache("insertion", tmp_path) == [1, 0]  # loaded: no compilation
    assert kernel_cache("swap", tmp_path) == [0, 1]  # what it closes over is part of the key


NEIGHBORS = """
import json, sys
import numpy as np
from mols.neighborhoods import get_neighborhood
x = np.array([3, 0, 2, 1], dtype=np.int32)
print(json.dumps([get_neighborhood(name).apply_many(x, np.arange(3)).tolist() for name in sys.argv[1:]]))
"""


def neighbors(names: list[str], cache_dir) -> list:
    """The first neighbors under each neighborhood, made by base._moved's closures, in a fresh process."""
    done = subprocess.run([sys.executable, "-c", NEIGHBORS, *names], capture_output=True, text=True, check=True,
                          env={**os.environ, "NUMBA_CACHE_DIR": str(cache_dir)})
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_closures_of_one_factory_compiled_in_two_processes_load_as_themselves(tmp_path):
    """Each the first closure compiled in its process, they had one symbol: a process loading both from the cache
    ran the first one's code for both."""
    alone = [neighbors([name], tmp_path)[0] for name in ("insertion", "swap")]
    assert alone[0] != alone[1]
    assert neighbors(["swap", "insertion"], tmp_path) == alone[::-1]


def test_closure_keys_name_what_a_kernel_closes_over():
    def make(k):
        @cached_njit
        def times(x):
            return x * k

        return times

    assert make(3)(2) == 6 and make(4)(2) == 8
    assert closure_key(make(3).py_func) == closure_key(make(3).py_func) != closure_key(make(4).py_func)


def test_kernels_saved_at_once_by_two_processes_each_load_their_own(tmp_path, monkeypatch):
    """Two processes (Dask workers) saving different kernels of one function into its cache at once: without the
    lock both took data file 1, and one key then loaded the other's kernel."""
    import threading

    from mols.jit import LockedCacheFile

    first, second = (LockedCacheFile(str(tmp_path), "kernel", ("stamp", 1)) for _ in range(2))
    other = threading.Thread(target=second.save, args=("key-b", b"kernel b"))
    save_index = LockedCacheFile._save_index

    def slow_save(self, overloads):  # the first process has read the index and chosen its file when the second saves
        if self is first:
            other.start()
            other.join(timeout=0.5)
        save_index(self, overloads)

    monkeypatch.setattr(LockedCacheFile, "_save_index", slow_save)
    first.save("key-a", b"kernel a")
    other.join()
    assert first.load("key-a") == b"kernel a" and second.load("key-b") == b"kernel b"


def test_a_closure_over_an_array_is_refused_rather_than_cached_under_a_wrong_key():
    table = np.arange(3)
    with pytest.raises(TypeError, match="ndarray"):
        @cached_njit
        def lookup(i):
            return table[i]


def test_a_missing_extra_is_one_line_naming_it_with_exit_code_1(monkeypatch):
    from typer.testing import CliRunner

    import mols.extras
    from mols.cli import app

    monkeypatch.setattr(mols.extras, "find_spec", lambda module: None if module in ("dask", "distributed") else 1)
    result = CliRunner().invoke(app, ["multistart", "--scheduler", "tcp://127.0.0.1:1", "-k", "2", "020_10_01",
                                      "-b", "cpu", "-i", "5"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "pip install 'mols[dask]'" in " ".join(result.output.split())


def test_a_results_folder_named_after_its_instance_does_not_hide_the_instance(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from mols.cli import app

    monkeypatch.chdir(tmp_path)
    for extra in ([], ["--overwrite"]):  # the second run is read while the first's folder stands in the way
        result = CliRunner().invoke(app, ["run", "KC10-2fl-1uni", "-p", "mqap", "-b", "cpu", "-i", "3",
                                          "-o", "KC10-2fl-1uni", *extra])
        assert result.exit_code == 0, result.output
    assert (tmp_path / "KC10-2fl-1uni" / "front.csv").is_file()


def test_without_output_a_second_run_takes_the_next_free_folder_and_says_so(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from mols.cli import app

    monkeypatch.chdir(tmp_path)
    runs = [CliRunner().invoke(app, ["run", "020_05_01", "-b", "cpu", "-i", "3"]) for _ in range(3)]
    assert [r.exit_code for r in runs] == [0, 0, 0]
    name = "020_05_01-pls-nondominated-insertion-i3-cpu-s0"
    assert sorted(p.name for p in (tmp_path / "results").iterdir() if p.is_dir()) == [name, f"{name}-2", f"{name}-3"]
    assert f"this one goes to results/{name}-2" in "".join(runs[1].output.split("\n"))
    explicit = CliRunner().invoke(app, ["run", "020_05_01", "-b", "cpu", "-i", "3", "-o", f"results/{name}"])
    assert explicit.exit_code == 1 and "--overwrite" in explicit.output  # an explicit -o is never redirected
