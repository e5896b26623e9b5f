"""Solving a System with kiwisolver: the priority -> strength map, kiwisolver's constraints,
the solve itself, and the explanation of an unsatisfiable required constraint.

Priorities and kiwisolver's strengths
-------------------------------------
Auto Layout priorities are lexicographic: any error at priority 251 outweighs any amount of error
at 250. kiwisolver minimizes one weighted sum, sum(strength * error), with scalar strengths below
`required` (1,001,001,000); it cannot be lexicographic, so with enough errors at a low level it
trades them against one at a higher level. To stay as close to lexicographic as kiwisolver
allows, the distinct optional priorities of a file (constraints and edit variables) are sorted,
p_0 < p_1 < ... < p_(k-1), and p_i gets strength 10 ** (9 * i / (k - 1)): the lowest 1, the
highest 1e9 (just under required), geometrically spaced, which makes the smallest ratio between
two neighbouring levels as large as possible inside kiwisolver's own range (its weak..required
constants span the same 1..1e9). One level gets strength 1. Priority 1000 is kiwisolver's
required. The ratio between neighbours is 1e9 ** (1 / (k - 1)): 1e9 for two levels, 1000 for
four, 10 for ten. Where this weighting picks a different answer than lexicographic priorities,
`compare` reports a "lexicographic-difference" and says which answer is lexicographically better.

Unsatisfiable files
-------------------
An unsatisfiable required constraint is reported as FILE:LINE:COLUMN: error: ..., with the lines
of a minimal set of earlier required constraints it conflicts with (found by re-solving subsets;
given up after a few seconds on huge files).
"""

from __future__ import annotations

import sys
import time

from .constraints_format import (REQUIRED, ParseError, Statement, System, display_name,
                                 format_parse_error, load_system)
from .solutions import Outcome, format_value

try:
    import kiwisolver
except ImportError:  # parsing and `compare` work without it; solving needs it
    kiwisolver = None

MAX_OPTIONAL_STRENGTH = 1e9  # kiwisolver's required is 1,001,001,000


def strength_map(priorities) -> dict:
    """Optional Auto Layout priority -> kiwisolver strength, strictly order-preserving; see the
    module docstring. Priority 1000 is not in the map (it is kiwisolver's required)."""
    levels = sorted({p for p in priorities if p < REQUIRED})
    if len(levels) == 1:
        return {levels[0]: 1.0}
    top = len(levels) - 1
    return {p: MAX_OPTIONAL_STRENGTH ** (i / top) for i, p in enumerate(levels)}


def kiwi_strength(priority: float, strengths: dict) -> float:
    return kiwisolver.strength.required if priority >= REQUIRED else strengths[priority]


class Unsatisfiable(Exception):
    def __init__(self, statement: Statement):
        super().__init__(statement.text)
        self.statement = statement


def need_kiwi():
    if kiwisolver is None:
        print("kiwi_peer: kiwisolver is not installed; run through scripts/peers/kiwi-peer", file=sys.stderr)
        sys.exit(3)


def kiwi_constraint(statement: Statement, variables: dict, strength: float):
    expression = kiwisolver.Expression(
        [kiwisolver.Term(variables[name], c) for name, c in statement.terms.items()],
        statement.constant)
    return kiwisolver.Constraint(expression, statement.relation, strength)


class KiwiModel:
    """kiwisolver's variables and constraints for a system, and solvers built from them."""

    def __init__(self, system: System):
        need_kiwi()
        self.system = system
        self.strengths = strength_map(system.optional_priorities())
        self.variables = {name: kiwisolver.Variable(name) for name in system.variables}
        self.steps = []  # ("edit", variable, strength, value, st) or ("constraint", c, st)
        for s in system.statements:
            strength = kiwi_strength(s.priority, self.strengths)
            if s.kind == "edit":
                self.steps.append(("edit", self.variables[s.name], strength, s.value, s))
            else:
                self.steps.append(("constraint", kiwi_constraint(s, self.variables, strength), s))

    def build(self):
        """A new solver with every statement, in file order, and its values updated."""
        solver = kiwisolver.Solver()
        for step in self.steps:
            if step[0] == "edit":
                solver.addEditVariable(step[1], step[2])
                solver.suggestValue(step[1], step[3])
            else:
                try:
                    solver.addConstraint(step[1])
                except kiwisolver.UnsatisfiableConstraint:
                    raise Unsatisfiable(step[2]) from None
        solver.updateVariables()
        return solver

    def values(self) -> dict:
        return {name: v.value() for name, v in self.variables.items()}


def required_feasible(statements: list) -> bool:
    variables = {}
    for s in statements:
        for name in s.terms:
            variables.setdefault(name, kiwisolver.Variable(name))
    solver = kiwisolver.Solver()
    try:
        for s in statements:
            solver.addConstraint(kiwi_constraint(s, variables, kiwisolver.strength.required))
    except kiwisolver.UnsatisfiableConstraint:
        return False
    return True


def explain_conflict(system: System, failing: Statement, seconds: float = 5.0):
    """Lines of a minimal set of earlier required constraints that, with `failing`, cannot all
    hold; [] when `failing` cannot hold on its own; None when it took longer than `seconds`."""
    deadline = time.monotonic() + seconds
    if not required_feasible([failing]):
        return []
    earlier = [s for s in system.constraints if s.required and s.line < failing.line]
    # Only constraints connected to the failing one through shared variables can take part.
    reach, component, grew = set(failing.terms), [], True
    remaining = earlier
    while grew:
        grew, rest = False, []
        for s in remaining:
            if reach.intersection(s.terms):
                reach.update(s.terms)
                component.append(s)
                grew = True
            else:
                rest.append(s)
        remaining = rest
    candidates = sorted(component, key=lambda s: s.line)
    core = []
    while required_feasible([failing] + core):
        # The shortest prefix of candidates that, with the core, is infeasible: its last
        # constraint belongs to the conflict.
        lo, hi = 1, len(candidates)
        while lo < hi:
            if time.monotonic() > deadline:
                return None
            mid = (lo + hi) // 2
            if required_feasible([failing] + core + candidates[:mid]):
                lo = mid + 1
            else:
                hi = mid
        if not candidates:
            return None  # cannot happen when kiwisolver's answers are consistent
        core.append(candidates[lo - 1])
        candidates = candidates[: lo - 1]
    return sorted(s.line for s in core)


def unsatisfiable_message(system: System, failing: Statement) -> str:
    lines = explain_conflict(system, failing)
    where = f"{system.path}:{failing.line}:{failing.column}: error: "
    what = f"unable to satisfy required constraint '{failing.text}'"
    if lines is None:
        return where + what + "; it conflicts with the required constraints before it (not narrowed down in time)"
    if not lines:
        return where + what + "; it cannot hold on its own"
    listed = ", ".join(str(n) for n in lines)
    word = "line" if len(lines) == 1 else "lines"
    return where + what + f"; it conflicts with the required constraints on {word} {listed}"


def solve_path(path: str) -> Outcome:
    """kiwisolver's answer for a file: NAME = VALUE lines in order of first appearance (status 0),
    or the unsatisfiable (1) or malformed (2) message."""
    try:
        system = load_system(path)
    except ParseError as error:
        return Outcome(2, message=format_parse_error(error, path))
    except OSError as error:
        return Outcome(2, message=f"{display_name(path)}: error: {error.strerror or error}")
    model = KiwiModel(system)
    try:
        model.build()
    except Unsatisfiable as error:
        return Outcome(1, message=unsatisfiable_message(system, error.statement), system=system)
    values = model.values()
    out = "".join(f"{name} = {format_value(values[name])}\n" for name in system.variables)
    return Outcome(0, stdout=out, system=system)
