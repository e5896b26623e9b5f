"""Cross-checking solver commands against kiwisolver: running each command on each file (with its
time budget), judging its outcome against kiwisolver's, and the rows of the crosscheck table.

A solver command is a template, NAME=COMMAND, whose `{file}` is replaced by the file's path (a
template without `{file}` gets the path appended); it prints NAME = VALUE lines and exits 0, or
exits 1 (unsatisfiable) or 2 (malformed) with FILE:LINE:COLUMN: error: ... on stderr, as
`kiwi-peer solve` does. Both sides failing with the same status at the same line is a match. A run
past its solver's --budget, or one refused because its message says "over its memory budget"
(the dense tableau), is skipped with the reason in its row, and does not fail the check.
"""

from __future__ import annotations

import math
import os
import re
import shlex
import subprocess
import sys

from .kiwi_solving import solve_path
from .solutions import Outcome, Verdict, compare_solutions, parse_solution

CROSSCHECK_HEADERS = ["file", "solver", "variables", "max difference", "verdict"]


def error_location(message: str):
    m = re.search(r":(\d+):(\d+): error:", message)
    return int(m.group(1)) if m else None


def first_line(text: str) -> str:
    for line in text.splitlines():
        if line.strip():
            return line.strip()[:160]
    return ""


def compare_outcomes(system, ours: Outcome, kiwi: Outcome, names) -> Verdict:
    variables = len(system.variables) if system else 0
    if ours.status == 0 and kiwi.status == 0:
        return compare_solutions(system, parse_solution(ours.stdout), parse_solution(kiwi.stdout), names)
    what = {1: "unsatisfiable", 2: "malformed"}
    if ours.status == kiwi.status and ours.status in what:
        la, lb = error_location(ours.message), error_location(kiwi.message)
        if la is not None and lb is not None and la != lb:
            return Verdict("mismatch", f"both {what[ours.status]}, {names[0]} at line {la}, "
                                       f"{names[1]} at line {lb}", variables=variables)
        where = f" at line {lb}" if lb is not None else ""
        return Verdict("match", f"both {what[ours.status]}{where}", variables=variables, passed=True)

    def said(who, o):
        text = first_line(o.message) or first_line(o.stdout)
        return f"{who} exited {o.status}" + (f": {text}" if text and o.status != 0 else "")

    return Verdict("mismatch", f"{said(names[0], ours)}; {said(names[1], kiwi)}", variables=variables)


def parse_solver_command(text: str) -> tuple:
    name, sep, rest = text.partition("=")
    if sep and re.fullmatch(r"[A-Za-z0-9_.+-]+", name) and rest.strip():
        return name, rest
    words = shlex.split(text)
    return (os.path.basename(words[0]) if words else text), text


def run_solver_command(template: str, path: str, timeout: float) -> Outcome:
    argv = [word.replace("{file}", path) for word in shlex.split(template)]
    if "{file}" not in template:
        argv.append(path)
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return Outcome(124, message=f"timed out after {timeout:g} s", timed_out=True)
    except OSError as error:
        return Outcome(127, message=f"cannot run {argv[0]}: {error.strerror or error}")
    return Outcome(done.returncode, stdout=done.stdout, message=done.stderr)


def expand_files(items: list) -> list:
    files = []
    for item in items:
        if os.path.isdir(item):
            files += sorted(os.path.join(item, f) for f in os.listdir(item) if f.endswith(".constraints"))
        else:
            files.append(item)
    return files


def parse_budgets(items: list, solvers: list) -> dict:
    """--budget NAME=SECONDS items -> {name: seconds}; raises ValueError with the reason."""
    names, budgets = {name for name, _ in solvers}, {}
    for item in items:
        name, sep, seconds = item.partition("=")
        try:
            value = float(seconds) if sep else math.nan
        except ValueError:
            value = math.nan
        if not (value > 0 and math.isfinite(value)):
            raise ValueError(f"--budget takes NAME=SECONDS with SECONDS > 0, not {item!r}")
        if name not in names:
            raise ValueError(f"--budget {item}: no --solver-command named {name!r}")
        budgets[name] = value
    return budgets


MEMORY_BUDGET = re.compile(r"over its memory budget", re.IGNORECASE)


def skip_reason(outcome: Outcome, budget) -> str:
    """Why a solver's run is skipped rather than judged: it ran past its time budget, or it
    refused the file for its memory budget (the dense solver's 2 GiB tableau). "" otherwise."""
    if outcome.timed_out and budget is not None:
        return f"over the {budget:g} s budget"
    if outcome.status != 0 and MEMORY_BUDGET.search(outcome.message):
        line = next(l for l in outcome.message.splitlines() if MEMORY_BUDGET.search(l))
        return line.strip().split(": error: ")[-1]
    return ""


def summary_line(verdicts: list) -> str:
    counts = {}
    for v in verdicts:
        key = v.kind + (f" ({v.better} better)" if v.better else "")
        counts[key] = counts.get(key, 0) + 1
    order = sorted(counts, key=lambda k: (["match", "lexicographic-difference", "skipped",
                                           "mismatch"].index(k.split(" ")[0]), k))
    return f"{len(verdicts)} checks: " + ", ".join(f"{counts[k]} {k}" for k in order)


def check_files(files: list, solvers: list, budgets: dict, timeout: float, pairwise: bool = False,
                progress: bool = False) -> tuple:
    """Runs each solver (NAME, TEMPLATE) on each file and judges its outcome against
    kiwisolver's; returns the table's rows and their verdicts. A solver without a budget gets
    `timeout` seconds a run. Skipped runs are said on stderr as they happen, and with progress
    every verdict is. With pairwise, each further solver is also compared with the first: they
    run the same algorithm, so only a match passes."""
    rows, verdicts = [], []

    def add(path, name, system, verdict):
        verdicts.append(verdict)
        rows.append([path, name, verdict.variables if system else "-",
                     verdict.difference_text(), verdict.text()])
        if progress:
            print(f"{path} {name}: {verdict.text()[:120]}", file=sys.stderr, flush=True)

    for path in files:
        kiwi = solve_path(path)
        system = kiwi.system  # None when the file is malformed or unreadable
        variables = len(system.variables) if system else 0
        answers = []  # (name, outcome) of the solvers that were not skipped
        for name, template in solvers:
            budget = budgets.get(name)
            ours = run_solver_command(template, path, budget if budget is not None else timeout)
            reason = skip_reason(ours, budget)
            if reason:
                print(f"{path}: {name} skipped: {reason}", file=sys.stderr, flush=True)
                add(path, name, system, Verdict("skipped", reason, variables=variables, passed=True))
                continue
            answers.append((name, ours))
            add(path, name, system, compare_outcomes(system, ours, kiwi, (name, "kiwisolver")))
        if pairwise and system is not None:
            # Our solvers against each other: they run the same algorithm, so anything but a
            # match (even another optimal solution) is worth a look.
            first = answers[0] if answers and answers[0][0] == solvers[0][0] else None
            for name, outcome in answers:
                if first is None or name == first[0]:
                    continue
                verdict = compare_outcomes(system, outcome, first[1], (name, first[0]))
                verdict.passed = verdict.kind == "match"
                add(path, f"{name} vs {first[0]}", system, verdict)
    return rows, verdicts
