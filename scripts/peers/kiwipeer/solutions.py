"""Solutions: a solver's outcome, reading and printing NAME = VALUE solutions, error vectors and
the comparison tolerance, and the verdict on two solutions of one file.

Two solutions `match` when every value agrees within 1e-6 * max(1, |value|) (the spec's
tolerance). Otherwise each is scored against the file: required constraints first (a violation,
a missing or unknown variable, a non-finite value or output out of order is a `mismatch`), then
the summed error at each optional priority from the highest down; the first level that differs
decides, `lexicographic-difference`, naming the lexicographically better one. The verdict passes
when it is a match or the first solution (ours) is the better one. Equal scores with different
values are a `mismatch`: the file has several optimal solutions.
"""

from __future__ import annotations

import math
import re
import sys
from dataclasses import dataclass

from .constraints_format import Statement, System

TOLERANCE = 1e-6  # the spec's comparison tolerance: 1e-6 * max(1, |value|)


@dataclass
class Outcome:
    """What a solver said about a file: status 0 solved, 1 unsatisfiable, 2 malformed (or other)."""

    status: int
    stdout: str = ""
    message: str = ""
    system: System | None = None
    timed_out: bool = False


def format_value(value: float) -> str:
    return repr(0.0 if value == 0.0 else float(value))


SOLUTION_LINE = re.compile(
    r"^\s*([A-Za-z_][A-Za-z0-9_.]*)\s*=\s*"
    r"([+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|nan|inf|infinity))\s*$",
    re.IGNORECASE)


@dataclass
class Solution:
    values: dict
    order: list
    problems: list  # text problems (bad lines, duplicates)


def parse_solution(text: str) -> Solution:
    values, order, problems = {}, [], []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        m = SOLUTION_LINE.match(line)
        if not m:
            problems.append(f"line {number} is not NAME = VALUE: {line.strip()[:40]!r}")
            continue
        name, value = m.group(1), float(m.group(2))
        if name in values:
            problems.append(f"{name} is given twice")
            continue
        values[name] = value
        order.append(name)
    return Solution(values, order, problems)


def read_solution(path: str) -> Solution:
    if path == "-":
        return parse_solution(sys.stdin.read())
    with open(path, encoding="utf-8", errors="replace") as f:
        return parse_solution(f.read())


def violation(statement: Statement, values: dict) -> tuple:
    """(error, magnitude): the statement's error (|r| for ==, max(0, r) for <=, max(0, -r) for
    >=, with r = lhs - rhs) and the size of the numbers in it, sum |coefficient * value| +
    |constant|, against which a residual is judged."""
    r = statement.constant
    magnitude = abs(statement.constant)
    for name, c in statement.terms.items():
        v = values[name]
        r += c * v
        magnitude += abs(c * v)
    if statement.relation == "==":
        return abs(r), magnitude
    if statement.relation == "<=":
        return max(0.0, r), magnitude
    return max(0.0, -r), magnitude


@dataclass
class ErrorVector:
    required: float  # sum of scaled residuals of violated required constraints
    violated: list  # lines of the violated required constraints
    levels: dict  # optional priority -> (error sum, magnitude sum)


def error_vector(system: System, values: dict) -> ErrorVector:
    required, violated, levels = 0.0, [], {}
    for s in system.statements:
        error, magnitude = violation(s, values)
        if s.required:
            scaled = error / max(1.0, magnitude)
            if scaled > TOLERANCE:
                required += scaled
                violated.append(s.line)
        else:
            e, m = levels.get(s.priority, (0.0, 0.0))
            levels[s.priority] = (e + error, m + magnitude)
    return ErrorVector(required, violated, levels)


def within_tolerance(a: float, b: float) -> bool:
    return abs(a - b) <= TOLERANCE * max(1.0, abs(a), abs(b))


@dataclass
class Verdict:
    kind: str  # "match", "lexicographic-difference", "mismatch"
    detail: str = ""
    better: str = ""  # name of the lexicographically better solution
    variables: int = 0
    max_difference: float | None = None
    max_variable: str = ""
    passed: bool = False

    def text(self) -> str:
        head = self.kind + (f": {self.better} better" if self.better else "")
        return head + (f" ({self.detail})" if self.detail else "")

    def difference_text(self) -> str:
        if self.max_difference is None:
            return "-"
        if self.max_difference == 0.0:
            return "0"
        return f"{self.max_difference:.3g} ({self.max_variable})"


def short(items: list, limit: int = 3) -> str:
    more = len(items) - limit
    return ", ".join(items[:limit]) + (f" and {more} more" if more > 0 else "")


def compare_solutions(system: System, a: Solution, b: Solution, names=("A", "B")) -> Verdict:
    """Compares solution a (ours) with b (the peer) for system; see the module docstring."""
    verdict = Verdict("mismatch", variables=len(system.variables))
    problems, known = [], set(system.variables)
    for who, sol in zip(names, (a, b)):
        problems += [f"{who}: {p}" for p in sol.problems]
        missing = [n for n in system.variables if n not in sol.values]
        unknown = [n for n in sol.order if n not in known]
        bad = [n for n in sol.order if not math.isfinite(sol.values[n])]
        if missing:
            problems.append(f"{who} lacks {short(missing)}")
        if unknown:
            problems.append(f"{who} has unknown variables {short(unknown)}")
        if bad:
            problems.append(f"{who} has non-finite {short(bad)}")
        if not (missing or unknown) and sol.order != system.variables:
            problems.append(f"{who} is not in order of first appearance")
    common = [n for n in system.variables if n in a.values and n in b.values]
    worst, worst_name, differing = 0.0, "", []
    for name in common:
        x, y = a.values[name], b.values[name]
        d = abs(x - y) if math.isfinite(x) and math.isfinite(y) else math.inf
        if d > worst or (not worst_name and d == worst):
            worst, worst_name = d, name
        if not (math.isfinite(d) and within_tolerance(x, y)):
            differing.append(name)
    if common:
        verdict.max_difference, verdict.max_variable = worst, worst_name
    if problems:
        verdict.detail = "; ".join(problems)
        return verdict
    if not differing:
        verdict.kind, verdict.passed = "match", True
        return verdict
    x, y = a.values[worst_name], b.values[worst_name]
    differs = f"{len(differing)} of {len(common)} differ, most {worst_name}: {names[0]} {x!r}, {names[1]} {y!r}"
    ea, eb = error_vector(system, a.values), error_vector(system, b.values)
    broken = [f"{who} violates required line{'s' if len(e.violated) > 1 else ''} "
              f"{short([str(n) for n in e.violated])}"
              for who, e in zip(names, (ea, eb)) if e.violated]
    if broken:
        verdict.detail = "; ".join(broken) + "; " + differs
        return verdict
    for priority in sorted(set(ea.levels) | set(eb.levels), reverse=True):
        (xa, ma), (xb, mb) = ea.levels[priority], eb.levels[priority]
        tolerance = TOLERANCE * max(1.0, ma, mb)
        if abs(xa - xb) > tolerance:
            better = 0 if xa < xb else 1
            verdict.kind, verdict.better = "lexicographic-difference", names[better]
            verdict.passed = better == 0
            verdict.detail = (f"error at @{priority:g}: {names[0]} {xa:.6g}, {names[1]} {xb:.6g}; "
                              + differs)
            return verdict
    verdict.detail = "equal error vectors at every priority, several optimal solutions; " + differs
    return verdict
