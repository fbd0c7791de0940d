"""`mols bench startup`: how long a fresh `mols` process takes, for --help, `import mols` and a short run."""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from mols.bench.common import Spread, write_tables
from mols.environment import environment
from mols.errors import MolsError
from mols.markdown import markdown_list, markdown_table

RUN = ["run", "020_10_01", "-a", "tabu", "-i", "10"]  # the short run, 10 tabu iterations


def mols_command() -> list[str]:
    """The console script beside this Python (what a user types), else `python -m mols`."""
    script = Path(sys.executable).with_name("mols")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "mols"]


def cases(backends: list[str], folder: Path) -> dict[str, list[str]]:
    """name -> the command line it times; each run writes a folder of its own under `folder`."""
    made = {"mols --help": [*mols_command(), "--help"], "import mols": [sys.executable, "-c", "import mols"]}
    for backend in backends:
        made[f"mols {' '.join(RUN)} -b {backend}"] = [*mols_command(), *RUN, "-b", backend, "-o", str(folder / backend)]
    return made


def seconds(command: list[str]) -> float:
    """Wall time of the command in a fresh process (MolsError if it fails)."""
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode:
        raise MolsError(f"bench startup: {' '.join(command)} failed:\n{done.stderr[-2000:]}")
    return elapsed


def largest_imports(command: list[str], count: int = 8) -> list[dict]:
    """The top-level packages whose import took longest in one run of `command` (python -X importtime)."""
    python = command if command[0] == sys.executable else [sys.executable, "-m", "mols", *command[1:]]
    done = subprocess.run([python[0], "-X", "importtime", *python[1:]], capture_output=True, text=True, check=False)
    totals: dict[str, int] = {}
    for line in done.stderr.splitlines():
        parts = line.split("|")
        if line.startswith("import time:") and len(parts) == 3 and parts[1].strip().isdigit():
            name = parts[2].strip()
            if not parts[2].startswith("  "):  # an import at the top of the tree: its own and its children's time
                totals[name.split(".")[0]] = totals.get(name.split(".")[0], 0) + int(parts[1])
    ranked = sorted(totals.items(), key=lambda item: -item[1])[:count]
    return [{"package": name, "import ms": f"{us / 1e3:.0f}"} for name, us in ranked]


def run(backends: list[str], repeats: int, on_row: Callable[[dict], None] = lambda row: None
        ) -> tuple[list[dict], list[dict]]:
    """Medians and ranges of `repeats` fresh processes per case, the cases alternating; each run case once
    beforehand so that the caches (Numba's, CuPy's, the tuning file) are warm. Also the largest imports of a run."""
    with tempfile.TemporaryDirectory() as tmp:
        made = cases(backends, Path(tmp))
        overwrite = {name: [*command, "--overwrite"] if name.startswith("mols run") else command
                     for name, command in made.items()}
        for name, command in made.items():
            seconds(command)  # warm-up: compiles and fills the caches
        times: dict[str, list[float]] = {name: [] for name in made}
        for _ in range(repeats):
            for name, command in overwrite.items():
                times[name].append(seconds(command))
        rows = []
        for name, values in times.items():
            rows.append({"command": name, "runs": len(values), **Spread.of(values).columns("seconds")})
            on_row(rows[-1])
        imports = largest_imports(overwrite[next(name for name in made if name.startswith("mols run"))])
    return rows, imports


def write_report(rows: list[dict], imports: list[dict], folder: Path, repeats: int) -> Path:
    """folder/startup.md and startup.csv (each command's median, min and max seconds)."""
    shown = [{"command": r["command"], "s": Spread.read(r, "seconds").text(".3f"), "runs": r["runs"]} for r in rows]
    text = "\n\n".join([
        "# Start-up of a mols process",
        (f"Made by `mols bench startup`. Wall time of each command in a fresh process, median and range of "
         f"{repeats} runs, the commands alternating, after one warm-up run of each (warm Numba and CuPy caches)."),
        markdown_list(environment()), markdown_table(shown),
        "## The largest imports of the first run above (`python -X importtime`)", markdown_table(imports),
    ]) + "\n"
    return write_tables(folder, {"startup.csv": rows}, ("startup.md", text))
