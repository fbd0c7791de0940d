"""What a run is, for a report: its problem, instance (content hash, else name), objectives and budget. Runs that
agree on all four form a group, with its own reference set and rows; each group gets a short, filesystem-safe label."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import count

from mols.reporting.runs import Run
from mols.results import safe_name

BUDGETS = {"i": "iterations", "e": "evaluations", "T": "time", "goal": "target", "R": "restarts"}  # as folder_name


def _number(value) -> str:
    return f"{value:.12g}" if isinstance(value, float) else str(value)


def budget_items(config: dict) -> tuple[tuple[str, str], ...]:
    """The limits a run's config sets, as (letter, value) pairs in BUDGETS' order; a target of several objectives
    reads 1_2 (its values joined by _)."""
    given = {letter: config.get(field) for letter, field in BUDGETS.items()}
    return tuple((letter, "_".join(map(_number, value)) if isinstance(value, list | tuple) else _number(value))
                 for letter, value in given.items() if value is not None)


def budget(config: dict) -> int | str:
    """A run's budget as its config states it: the iterations alone as a number, else every limit as text
    (e.g. "i1000 e50000 T2.5", "i10000 goal2294")."""
    items = budget_items(config)
    return int(config["iterations"]) if [k for k, _ in items] == ["i"] else " ".join(k + v for k, v in items)


@dataclass(frozen=True)
class GroupKey:
    """What a run is. The instance is its content where run.json records it (instance_sha256), else its name:
    an older run is never pooled with a hashed one of that name, as nothing says that they read one file."""

    problem: str
    identity: tuple[str, str]  # ("sha256", hex digest) or ("name", instance name)
    objectives: tuple[str, ...]
    budget: tuple[tuple[str, str], ...]

    @classmethod
    def of(cls, run: Run) -> GroupKey:
        sha = run.manifest.get("instance_sha256")
        return cls(run.problem, ("sha256", sha) if sha else ("name", run.instance), run.objectives,
                   budget_items(run.manifest["config"]))

    @property
    def hashed(self) -> bool:
        return self.identity[0] == "sha256"

    @property
    def content(self) -> str:
        """The label's part that tells instances of one name apart: a prefix of the hash."""
        return self.identity[1][:8] if self.hashed else "nohash"


@dataclass
class Group:
    """The runs of one GroupKey (rows per algorithm and backend, over seeds), under a unique label."""

    key: GroupKey
    label: str
    runs: list[Run]

    @property
    def instance(self) -> str:
        """The instance's name for display (several, joined by =, where files of one content had other names)."""
        return " = ".join(names(self.runs))

    def summary(self) -> dict[str, str]:
        """What the group's runs share, as report.md's table of groups shows it."""
        sha = self.key.identity[1][:12] + "…" if self.key.hashed else "not recorded (older run.json)"
        return {"group": self.label, "problem": self.key.problem, "instance": self.instance, "content sha256": sha,
                "objectives": ", ".join(self.key.objectives),
                "budget": " ".join(k + v for k, v in self.key.budget) or "none recorded", "runs": str(len(self.runs))}

    def describe(self) -> str:
        s = self.summary()
        return (f"{s['problem']} instance {s['instance']} (content sha256 {s['content sha256']}), objectives "
                f"{s['objectives']}, budget {s['budget']}: {s['runs']} run(s)")


def names(runs: list[Run]) -> list[str]:
    return sorted({run.instance for run in runs})


# The parts a label may add to the instance's name, and the parts two groups must share for the part to tell them
# apart: the content differs whenever the problem does (the hash covers the problem's name), so it is shown only
# between groups of one problem.
PARTS = {"problem": (lambda key: safe_name(key.problem), ()),
         "content": (lambda key: key.content, ("problem",)),
         "objectives": (lambda key: "obj-" + "+".join(map(safe_name, key.objectives)), ()),
         "budget": (lambda key: "-".join(k + safe_name(v) for k, v in key.budget) or "nobudget", ())}


def _shown(keys: list[GroupKey]) -> list[str]:
    """The parts (as labels write them) that differ between two of the keys (which share an instance name) that
    agree on the parts' `within`."""
    shown = []
    for part, (write, within) in PARTS.items():
        values: dict[tuple, set] = {}
        for key in keys:
            values.setdefault(tuple(getattr(key, w) for w in within), set()).add(write(key))
        shown += [part] if any(len(v) > 1 for v in values.values()) else []
    return shown


def _labels(by_key: dict[GroupKey, list[Run]]) -> list[str]:
    """The instance's name, followed by what tells the group apart from the others of that name (e.g. nug12-qap,
    fl_ok-1a2b3c4d, 020_10_01-obj-makespan+total_tardiness, 020_10_01-i1000), and a number where that is not
    enough. Names are compared without case, as some file systems do."""
    first = {key: safe_name(names(runs)[0]) or "instance" for key, runs in by_key.items()}
    labels = []
    for key, name in first.items():
        alike = [k for k, n in first.items() if n.lower() == name.lower()]
        labels.append("-".join([name, *(PARTS[part][0](key) for part in _shown(alike))]))
    counts = Counter(label.lower() for label in labels)
    used = set(counts)
    for i, label in enumerate(labels):
        if counts[label.lower()] > 1:  # names that differ only in characters that safe_name replaces
            number = next(n for n in count(1) if f"{label}-{n}".lower() not in used)
            labels[i] = f"{label}-{number}"
            used.add(labels[i].lower())
    return labels


def group_runs(runs: list[Run]) -> list[Group]:
    """The runs by GroupKey, in the order of the groups' labels; a group's runs in the order given."""
    by_key: dict[GroupKey, list[Run]] = {}
    for run in runs:
        by_key.setdefault(GroupKey.of(run), []).append(run)
    groups = [Group(key, label, group) for (key, group), label in zip(by_key.items(), _labels(by_key))]
    return sorted(groups, key=lambda group: group.label)


def _not_compared(group: Group) -> str | None:
    """Why nothing in the group is compared: one run, or one algorithm and backend (no rank test, no EAF
    difference); None where something is."""
    labels = sorted({run.label for run in group.runs})
    if len(group.runs) == 1:
        return f"one run ({group.runs[0].folder}), nothing to compare it with"
    return f"{len(group.runs)} runs of {labels[0]} alone: no rank test or EAF difference" if len(labels) == 1 else None


def group_notes(groups: list[Group]) -> list[str]:
    """One line per group that could not be compared, and per group kept apart from a same-named one only for lack
    of a recorded hash; each names the other groups of its instance's name, where its runs might be expected."""
    notes = []
    for group in groups:
        others = [g for g in groups if g is not group and g.instance == group.instance]
        labels = ", ".join(g.label for g in others)
        if not group.key.hashed and any(g.key.hashed and g.key.problem == group.key.problem for g in others):
            notes.append(f"group {group.label}: its run.json files predate instance_sha256, so its runs are kept "
                         f"apart from those of {labels}, which may or may not be of the same instance")
        why = _not_compared(group)
        if why:
            also = f"; other runs of {group.instance}: {labels}" if others else ""
            notes.append(f"group {group.label}: {why}{also}")
    return notes
