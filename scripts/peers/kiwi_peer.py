#!/usr/bin/env python3
"""kiwisolver as an independent peer for LayoutBench's solvers.

Reads `.constraints` files (the solver-neutral text format of LayoutBench, see the spec
"docs/constraints-format.md"), solves them with kiwisolver, compares solutions against each
other, and times kiwisolver in the benchmark harness's CSV columns.

Run it through the wrapper beside it, which makes a virtual environment with the pinned
kiwisolver on first use (under .build-peers/venv at the repository root):

    scripts/peers/kiwi-peer solve FILE                  # print NAME = VALUE per variable
    scripts/peers/kiwi-peer compare FILE SOL_A SOL_B [--names A,B] [--header]
    scripts/peers/kiwi-peer crosscheck --solver-command 'NAME=COMMAND {file}' ... FILES...
    scripts/peers/kiwi-peer time FILE [--budget S] [--repetitions N] [--header] ...
    scripts/peers/kiwi-peer test                        # the unit tests

Exit statuses: solve: 0 solved, 1 unsatisfiable, 2 malformed input (as in the spec).
compare and crosscheck: 0 when every answer matches kiwisolver or differs only where ours is the
lexicographically better one (crosscheck: or was skipped for its time or memory budget, which the
table says per file), 1 on any mismatch, 2 on bad usage or malformed input.
time: 0 when the rows were written (ok or skipped), 2 on malformed input. Any command: 3 when
kiwisolver is not installed (malformed files are still reported, with 2).

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

Reading the format (own parser; choices where the spec leaves room)
-------------------------------------------------------------------
- A NUMBER token carries its sign only when the sign touches the digits: `x + -3` and
  `x * -2` are numbers -3 and -2, `x + - 3` is an error. A leading `-` (with or without a space)
  negates the first term; a leading `+` is accepted only as the sign of a number.
- `nan`, `inf` and `infinity` (any case) are errors wherever they appear, also as a term, and so
  are hexadecimal literals (`0x10`) and numbers that overflow a Double (`1e999`).
- A line is an edit statement when it starts with `edit` followed by a name (or by nothing, `=`
  or a number, which is then an error); otherwise `edit` is an ordinary variable name.
- The same variable made an edit variable twice is an error (exit 2), as kiwisolver would refuse it.
- Columns count characters from 1; a tab is one column.
- An unsatisfiable required constraint is reported as FILE:LINE:COLUMN: error: ..., with the lines
  of a minimal set of earlier required constraints it conflicts with (found by re-solving
  subsets; given up after a few seconds on huge files).
"""

from __future__ import annotations

import argparse
import csv
import datetime
import gc
import json
import math
import os
import platform
import re
import secrets
import shlex
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field

try:
    import kiwisolver
except ImportError:  # parsing and `compare` work without it; solving needs it
    kiwisolver = None

REQUIRED = 1000.0
EDIT_DEFAULT_PRIORITY = 999.0
MAX_OPTIONAL_STRENGTH = 1e9  # kiwisolver's required is 1,001,001,000
TOLERANCE = 1e-6  # the spec's comparison tolerance: 1e-6 * max(1, |value|)
LANDSCAPE_RATIO = 667.0 / 375.0

NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")
NUMBER_RE = re.compile(r"(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
NOT_NUMBERS = {"nan", "inf", "infinity"}
DIGITS = "0123456789"
WORD_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.")
RELATIONS = ("==", "<=", ">=")


# --------------------------------------------------------------------------------------------
# The model


class ParseError(Exception):
    def __init__(self, line: int, column: int, message: str):
        super().__init__(message)
        self.line, self.column, self.message = line, column, message


@dataclass
class Statement:
    """One constraint or edit statement, as `expression RELATION 0` with expression = lhs - rhs."""

    kind: str  # "constraint" or "edit"
    line: int
    column: int
    text: str  # the statement without its comment
    terms: dict  # variable name -> coefficient of lhs - rhs (zero coefficients dropped)
    constant: float  # constant of lhs - rhs
    relation: str  # "==", "<=", ">="
    priority: float
    name: str = ""  # edit variable
    value: float = 0.0  # edit suggestion

    @property
    def required(self) -> bool:
        return self.priority >= REQUIRED


@dataclass
class System:
    path: str  # as shown in messages
    variables: list = field(default_factory=list)  # names in order of first appearance
    statements: list = field(default_factory=list)

    @property
    def constraints(self):
        return [s for s in self.statements if s.kind == "constraint"]

    @property
    def edits(self):
        return [s for s in self.statements if s.kind == "edit"]

    def optional_priorities(self):
        return sorted({s.priority for s in self.statements if not s.required})


def display_name(path: str) -> str:
    return "<stdin>" if path == "-" else path


def read_text(path: str) -> str:
    """The file's text; `-` and /dev/stdin read standard input. Raises ParseError on bad UTF-8."""
    if path == "-":
        data = sys.stdin.buffer.read()
    else:
        with open(path, "rb") as f:
            data = f.read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        before = data[: error.start]
        line = before.count(b"\n") + 1
        column = len(before[before.rfind(b"\n") + 1 :].decode("utf-8", "replace")) + 1
        raise ParseError(line, column, "the file is not valid UTF-8") from None


# --------------------------------------------------------------------------------------------
# Parsing


@dataclass
class Token:
    kind: str  # NAME NUMBER OP REL AT END ERROR
    text: str
    column: int
    value: object = 0.0  # the number of a NUMBER, the message of an ERROR


def tokenize(text: str) -> list:
    """Tokens of one line (comment already removed). Bad characters become ERROR tokens, so the
    parser reports the leftmost problem of the line."""
    tokens, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        column = i + 1
        if c in " \t":
            i += 1
        elif c.isascii() and (c.isalpha() or c == "_"):
            m = NAME_RE.match(text, i)
            word = m.group()
            if word.lower() in NOT_NUMBERS:
                message = f"'{word}' is not allowed: nan, inf and hexadecimal numbers are errors"
                tokens.append(Token("ERROR", word, column, message))
            else:
                tokens.append(Token("NAME", word, column))
            i = m.end()
        elif c in DIGITS or (c == "." and i + 1 < n and text[i + 1] in DIGITS):
            m = NUMBER_RE.match(text, i)
            end = m.end()
            if end < n and (text[end] in WORD_CHARS):
                # a number glued to letters, dots or digits: 0x1p3, 1e, 1.2.3, 3x
                j = end
                while j < n and (text[j] in WORD_CHARS or
                                 (text[j] in "+-" and text[j - 1] in "eEpP")):
                    j += 1
                word = text[i:j]
                if word[:2].lower() == "0x":
                    message = f"hexadecimal numbers are not allowed: '{word}'"
                else:
                    message = f"malformed number '{word}'"
                tokens.append(Token("ERROR", word, column, message))
                i = j
                continue
            word = m.group()
            value = float(word)
            if math.isinf(value):
                tokens.append(Token("ERROR", word, column, f"number '{word}' is out of range"))
            else:
                tokens.append(Token("NUMBER", word, column, value))
            i = end
        elif c in "+-*":
            tokens.append(Token("OP", c, column))
            i += 1
        elif c in "=<>!":
            j = i
            while j < n and text[j] in "=<>!":
                j += 1
            tokens.append(Token("REL", text[i:j], column))
            i = j
        elif c == "@":
            tokens.append(Token("AT", c, column))
            i += 1
        else:
            tokens.append(Token("ERROR", c, column, f"unexpected character '{c}'"))
            i += 1
    tokens.append(Token("END", "", len(text) + 1))
    return tokens


def describe(token: Token) -> str:
    return "end of line" if token.kind == "END" else f"'{token.text}'"


class LineParser:
    def __init__(self, tokens: list, line: int):
        self.tokens, self.i, self.line = tokens, 0, line

    def peek(self, ahead: int = 0) -> Token:
        return self.tokens[min(self.i + ahead, len(self.tokens) - 1)]

    def take(self) -> Token:
        token = self.peek()
        if token.kind == "ERROR":
            self.fail(token, token.value)
        self.i += 1
        return token

    def fail(self, token: Token, message: str):
        if token.kind == "ERROR":
            message = token.value
        raise ParseError(self.line, token.column, message)

    def signed_number_ahead(self) -> bool:
        t, u = self.peek(), self.peek(1)
        if t.kind == "NUMBER":
            return True
        return (t.kind == "OP" and t.text in "+-" and u.kind == "NUMBER"
                and u.column == t.column + 1)

    def number(self, what: str) -> tuple:
        """A NUMBER with an optional sign touching its digits; returns (value, column)."""
        t = self.peek()
        if not self.signed_number_ahead():
            self.fail(t, f"expected {what}, found {describe(t)}")
        sign = 1.0
        if t.kind == "OP":
            self.take()
            sign = -1.0 if t.text == "-" else 1.0
        n = self.take()
        return sign * n.value, t.column

    def term(self, sign: float, terms: dict, appear: list) -> float:
        """Adds one term times sign to terms; returns its constant part."""
        t = self.peek()
        if self.signed_number_ahead():
            value, _ = self.number("a number")
            if self.peek().kind == "OP" and self.peek().text == "*":
                self.take()
                name = self.peek()
                if name.kind != "NAME":
                    self.fail(name, f"expected a variable name after '*', found {describe(name)}")
                self.take()
                appear.append(name.text)
                terms[name.text] = terms.get(name.text, 0.0) + sign * value
                return 0.0
            return sign * value
        if t.kind == "NAME":
            self.take()
            appear.append(t.text)
            coefficient = 1.0
            if self.peek().kind == "OP" and self.peek().text == "*":
                self.take()
                coefficient, _ = self.number("a number after '*' (terms are NUMBER * NAME or NAME * NUMBER)")
            terms[t.text] = terms.get(t.text, 0.0) + sign * coefficient
            return 0.0
        self.fail(t, f"expected a number or a variable name, found {describe(t)}")

    def expression(self, sign: float, terms: dict, appear: list) -> float:
        constant = 0.0
        first = sign
        t = self.peek()
        if t.kind == "OP" and t.text == "-" and not self.signed_number_ahead():
            self.take()
            first = -sign
        constant += self.term(first, terms, appear)
        while self.peek().kind == "OP" and self.peek().text in "+-":
            op = self.take()
            constant += self.term(sign if op.text == "+" else -sign, terms, appear)
        return constant

    def priority(self, default: float) -> tuple:
        if self.peek().kind != "AT":
            return default, None
        self.take()
        value, column = self.number("a priority after '@'")
        if not (0.0 < value <= REQUIRED):
            raise ParseError(self.line, column, f"priority {value:g} is out of range: priorities "
                             "must be greater than 0 and less than or equal to 1000")
        return value, column

    def end(self, after: str):
        t = self.peek()
        if t.kind == "END":
            return
        if t.kind == "ERROR":
            self.fail(t, "")
        if t.kind == "REL" and after == "the constraint":
            self.fail(t, f"unexpected {describe(t)}: a constraint has exactly one relation")
        self.fail(t, f"unexpected {describe(t)} after {after}")


def parse_line(text: str, line: int):
    """The statement on one line (comment removed), or None for a blank line."""
    tokens = tokenize(text)
    if tokens[0].kind == "END":
        return None
    p = LineParser(tokens, line)
    first, second = tokens[0], p.peek(1)
    start = first.column
    source = text.strip()
    if first.kind == "NAME" and first.text == "edit" and (
            second.kind in ("NAME", "END", "NUMBER", "ERROR") or (second.kind == "REL" and second.text == "=")):
        p.take()
        name = p.peek()
        if name.kind != "NAME":
            p.fail(name, f"expected the edit variable's name after 'edit', found {describe(name)}")
        p.take()
        eq = p.peek()
        if not (eq.kind == "REL" and eq.text == "="):
            p.fail(eq, f"expected '=' after the edit variable's name, found {describe(eq)}")
        p.take()
        value, _ = p.number("the suggested value (a number)")
        priority, column = p.priority(EDIT_DEFAULT_PRIORITY)
        if priority >= REQUIRED:
            raise ParseError(line, column, f"edit variable {name.text} cannot be required "
                             "(priority 1000); use at most 999")
        p.end("the priority" if column else "the suggested value")
        return Statement("edit", line, start, source, {name.text: 1.0}, -value, "==", priority,
                         name=name.text, value=value), [name.text]

    terms, appear = {}, []
    constant = p.expression(1.0, terms, appear)
    rel = p.peek()
    if rel.kind == "REL":
        if rel.text not in RELATIONS:
            p.fail(rel, f"unknown relation '{rel.text}': expected ==, <= or >=")
        p.take()
    elif rel.kind == "END":
        p.fail(rel, "expected a relation (==, <= or >=), found end of line")
    else:
        p.fail(rel, f"expected '+', '-' or a relation (==, <= or >=), found {describe(rel)}")
    constant += p.expression(-1.0, terms, appear)
    priority, column = p.priority(REQUIRED)
    p.end("the priority" if column else "the constraint")
    terms = {k: v for k, v in terms.items() if v != 0.0}
    return Statement("constraint", line, start, source, terms, constant, rel.text, priority), appear


def parse_text(text: str, path: str) -> System:
    system = System(display_name(path))
    seen, edited = set(), {}
    for number, raw in enumerate(text.split("\n"), start=1):
        if raw.endswith("\r"):
            raw = raw[:-1]
        cut = raw.find("#")
        parsed = parse_line(raw if cut < 0 else raw[:cut], number)
        if parsed is None:
            continue
        statement, appear = parsed
        if statement.kind == "edit":
            if statement.name in edited:
                name_column = raw.index(statement.name, statement.column + 3) + 1
                raise ParseError(number, name_column, f"{statement.name} is already an edit "
                                 f"variable (line {edited[statement.name]})")
            edited[statement.name] = number
        for name in appear:
            if name not in seen:
                seen.add(name)
                system.variables.append(name)
        system.statements.append(statement)
    return system


def load_system(path: str) -> System:
    """Parses a file; raises ParseError or OSError."""
    return parse_text(read_text(path), path)


def format_parse_error(error: ParseError, path: str) -> str:
    return f"{display_name(path)}:{error.line}:{error.column}: error: {error.message}"


# --------------------------------------------------------------------------------------------
# Solving with kiwisolver


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
    """kiwisolver objects for a system, made once so that timing measures only the solver."""

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


def format_value(value: float) -> str:
    return repr(0.0 if value == 0.0 else float(value))


@dataclass
class Outcome:
    """What a solver said about a file: status 0 solved, 1 unsatisfiable, 2 malformed (or other)."""

    status: int
    stdout: str = ""
    message: str = ""
    system: System | None = None
    timed_out: bool = False


def solve_path(path: str) -> Outcome:
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


def command_solve(args) -> int:
    outcome = solve_path(args.file)
    if args.verbose and outcome.system is not None:
        for p, s in sorted(strength_map(outcome.system.optional_priorities()).items()):
            print(f"# priority {p:g} -> strength {s:.9g}", file=sys.stderr)
    sys.stdout.write(outcome.stdout)
    if outcome.message:
        print(outcome.message, file=sys.stderr)
    return outcome.status


# --------------------------------------------------------------------------------------------
# Comparing solutions


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


def format_table(headers: list, rows: list, header: bool = True) -> str:
    """A Markdown table (pipes, padded columns); with header=False only the rows."""
    def cell(value) -> str:
        return str(value).replace("|", "\\|").replace("\n", " ")

    body = [[cell(v) for v in row] for row in rows]
    heads = [cell(h) for h in headers]
    widths = [max([len(heads[i])] + [len(r[i]) for r in body]) for i in range(len(heads))]

    def line(values):
        return "| " + " | ".join(v.ljust(w) for v, w in zip(values, widths)) + " |"

    lines = []
    if header:
        lines += [line(heads), "| " + " | ".join("-" * w for w in widths) + " |"]
    lines += [line(r) for r in body]
    return "\n".join(lines)


def print_table(headers: list, rows: list, header: bool = True, file=None):
    print(format_table(headers, rows, header), file=file or sys.stdout)


COMPARE_HEADERS = ["file", "variables", "max difference", "verdict"]
CROSSCHECK_HEADERS = ["file", "solver", "variables", "max difference", "verdict"]


def command_compare(args) -> int:
    names = tuple(n.strip() for n in args.names.split(","))
    if len(names) != 2 or not all(names):
        print("kiwi_peer compare: --names takes two names, A,B", file=sys.stderr)
        return 2
    try:
        system = load_system(args.file)
    except ParseError as error:
        print(format_parse_error(error, args.file), file=sys.stderr)
        return 2
    try:
        a, b = read_solution(args.solution_a), read_solution(args.solution_b)
    except OSError as error:
        print(f"kiwi_peer compare: {error.filename}: {error.strerror}", file=sys.stderr)
        return 2
    verdict = compare_solutions(system, a, b, names)
    print_table(COMPARE_HEADERS, [[system.path, verdict.variables, verdict.difference_text(),
                                   verdict.text()]], header=args.header)
    return 0 if verdict.passed else 1


# --------------------------------------------------------------------------------------------
# Cross-checking solver commands against kiwisolver


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


def command_crosscheck(args) -> int:
    need_kiwi()
    if not args.solver_command:
        print("kiwi_peer crosscheck: give at least one --solver-command NAME=TEMPLATE", file=sys.stderr)
        return 2
    solvers = [parse_solver_command(t) for t in args.solver_command]
    try:
        budgets = parse_budgets(args.budget, solvers)
    except ValueError as error:
        print(f"kiwi_peer crosscheck: {error}", file=sys.stderr)
        return 2
    files = expand_files(args.files)
    if not files:
        print("kiwi_peer crosscheck: no files", file=sys.stderr)
        return 2
    missing = [f for f in files if not os.path.exists(f)]
    if missing:
        print(f"kiwi_peer crosscheck: no such file: {short(missing)}", file=sys.stderr)
        return 2
    rows, verdicts = [], []

    def add(path, name, system, verdict):
        verdicts.append(verdict)
        rows.append([path, name, verdict.variables if system else "-",
                     verdict.difference_text(), verdict.text()])
        if args.progress:
            print(f"{path} {name}: {verdict.text()[:120]}", file=sys.stderr, flush=True)

    for path in files:
        kiwi = solve_path(path)
        system = kiwi.system  # None when the file is malformed or unreadable
        variables = len(system.variables) if system else 0
        answers = []  # (name, outcome) of the solvers that were not skipped
        for name, template in solvers:
            budget = budgets.get(name)
            ours = run_solver_command(template, path, budget if budget is not None else args.timeout)
            reason = skip_reason(ours, budget)
            if reason:
                print(f"{path}: {name} skipped: {reason}", file=sys.stderr, flush=True)
                add(path, name, system, Verdict("skipped", reason, variables=variables, passed=True))
                continue
            answers.append((name, ours))
            add(path, name, system, compare_outcomes(system, ours, kiwi, (name, "kiwisolver")))
        if args.pairwise and system is not None:
            # Our solvers against each other: they run the same algorithm, so anything but a
            # match (even another optimal solution) is worth a look.
            first = answers[0] if answers and answers[0][0] == solvers[0][0] else None
            for name, outcome in answers:
                if first is None or name == first[0]:
                    continue
                verdict = compare_outcomes(system, outcome, first[1], (name, first[0]))
                verdict.passed = verdict.kind == "match"
                add(path, f"{name} vs {first[0]}", system, verdict)
    print_table(CROSSCHECK_HEADERS, rows)
    print(f"\n{summary_line(verdicts)}")
    return 0 if all(v.passed for v in verdicts) else 1


# --------------------------------------------------------------------------------------------
# Timing


CSV_COLUMNS = ["run_id", "timestamp", "commit", "machine", "scene", "variant", "views", "variables",
               "constraints", "solver", "mode", "phase", "repetitions", "median_ns", "min_ns",
               "p90_ns", "max_ns", "allocations", "allocated_bytes", "retained_bytes",
               "peak_bytes", "instructions", "checksum", "status", "note"]


def width_edits(system: System) -> list:
    return [s for s in system.edits if s.name.endswith(".width")]


def measure_cell(system: System, phase: str, repetitions: int, landscape_width,
                 stop_after: float = math.inf) -> dict:
    """Runs in the child process: nanosecond samples of one phase, or a skip reason. After
    stop_after seconds of timed work it stops repeating (keeping at least one sample)."""
    model = KiwiModel(system)
    samples = []

    def enough() -> bool:
        return sum(samples) >= stop_after * 1e9

    try:
        if phase == "build":
            for _ in range(repetitions):
                if samples and enough():
                    break
                gc.collect()
                gc.disable()
                start = time.perf_counter_ns()
                solver = model.build()
                stop = time.perf_counter_ns()
                gc.enable()
                samples.append(stop - start)
                del solver
            return {"status": "ok", "samples": samples}
        widths = width_edits(system)
        if not widths:
            return {"status": "skipped", "reason": "no edit variable whose name ends in .width"}
        solver = model.build()
        portrait = [(model.variables[s.name], s.value) for s in widths]
        landscape = [(v, landscape_width if landscape_width is not None else w * LANDSCAPE_RATIO)
                     for v, w in portrait]
        for targets in (landscape, portrait):  # untimed warm-up
            for v, w in targets:
                solver.suggestValue(v, w)
            solver.updateVariables()
        gc.collect()
        gc.disable()
        for i in range(repetitions):
            if samples and enough():
                break
            targets = landscape if i % 2 == 0 else portrait
            start = time.perf_counter_ns()
            for v, w in targets:
                solver.suggestValue(v, w)
            solver.updateVariables()
            samples.append(time.perf_counter_ns() - start)
        gc.enable()
        return {"status": "ok", "samples": samples}
    except Unsatisfiable as error:
        return {"status": "skipped", "reason": f"unsatisfiable required constraint on line {error.statement.line}"}


def command_time_cell(args) -> int:
    """Internal: the child of `time`. Reads the file's text on stdin, prints JSON."""
    text = sys.stdin.read()
    system = parse_text(text, args.path)
    result = measure_cell(system, args.phase, args.repetitions, args.landscape_width, args.stop_after)
    print(json.dumps(result))
    return 0


def summarize(samples: list) -> dict:
    ordered = sorted(samples)
    n = len(ordered)
    return {"median_ns": int(round(statistics.median(ordered))), "min_ns": ordered[0],
            "p90_ns": ordered[max(0, math.ceil(0.9 * n) - 1)], "max_ns": ordered[-1]}


def git_commit(root: str) -> str:
    try:
        head = subprocess.run(["git", "-C", root, "rev-parse", "--short=12", "HEAD"],
                              capture_output=True, text=True, timeout=10)
        if head.returncode != 0:
            return ""
        dirty = subprocess.run(["git", "--no-optional-locks", "-C", root, "status", "--porcelain",
                                "--untracked-files=no"], capture_output=True, text=True, timeout=30)
        return head.stdout.strip() + ("-dirty" if dirty.returncode == 0 and dirty.stdout.strip() else "")
    except (OSError, subprocess.TimeoutExpired):
        return ""


def machine_description() -> str:
    memory = ""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    memory = f" {round(int(line.split()[1]) / 1024 / 1024)} GiB"
                    break
    except OSError:
        pass
    return f"{platform.machine()} {os.cpu_count()} cores{memory}"


def versions_note() -> str:
    return f"kiwisolver {kiwisolver.__version__} through Python {platform.python_version()}"


def command_time(args) -> int:
    try:
        text = read_text(args.file)
        system = parse_text(text, args.file)
    except ParseError as error:
        print(format_parse_error(error, args.file), file=sys.stderr)
        return 2
    except OSError as error:
        print(f"{display_name(args.file)}: error: {error.strerror or error}", file=sys.stderr)
        return 2
    if args.repetitions < 1:
        print("kiwi_peer time: --repetitions must be at least 1", file=sys.stderr)
        return 2
    if not (args.budget > 0 and math.isfinite(args.budget)):
        print("kiwi_peer time: --budget must be a number of seconds above 0", file=sys.stderr)
        return 2
    need_kiwi()
    now = datetime.datetime.now(datetime.timezone.utc)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    common = {
        "run_id": args.run_id or f"kiwi-{now:%Y%m%dT%H%M%SZ}-{secrets.token_hex(3)}",
        "timestamp": now.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "commit": args.commit if args.commit is not None else git_commit(root),
        "machine": args.machine or machine_description(),
        "scene": args.scene or os.path.splitext(os.path.basename(display_name(args.file)))[0],
        "variant": args.variant or "",
        "views": 0 if args.views is None else args.views,
        "variables": len(system.variables),
        "constraints": len(system.constraints),
        "solver": "kiwisolver", "mode": "incremental",
    }
    writer = csv.writer(sys.stdout, lineterminator="\r\n")
    if args.header:
        writer.writerow(CSV_COLUMNS)
    build_over_budget = False
    for phase in ("build", "resize"):
        row = dict(common, phase=phase, repetitions=args.repetitions, status="ok", note=versions_note())
        argv = [sys.executable, os.path.abspath(__file__), "time-cell", "--path", args.file,
                "--phase", phase, "--repetitions", str(args.repetitions),
                "--stop-after", repr(args.budget / 4)]
        if args.landscape_width is not None:
            argv += ["--landscape-width", repr(args.landscape_width)]
        started = time.monotonic()
        try:
            if build_over_budget:  # resize builds first, untimed: it cannot finish either
                raise subprocess.TimeoutExpired(argv, args.budget)
            done = subprocess.run(argv, input=text, capture_output=True, text=True, timeout=args.budget)
            result = json.loads(done.stdout) if done.returncode == 0 else {
                "status": "skipped", "reason": f"the measuring process failed: {first_line(done.stderr)}"}
        except subprocess.TimeoutExpired:
            if build_over_budget:
                reason = f"over the {args.budget:g} s budget: so is the build it starts with"
            else:
                reason = (f"over the {args.budget:g} s budget (stopped after "
                          f"{time.monotonic() - started:.1f} s)")
                build_over_budget = phase == "build"
            result = {"status": "skipped", "reason": reason}
        except ValueError:
            result = {"status": "skipped", "reason": "the measuring process printed no result"}
        if result["status"] == "ok":
            row.update(summarize(result["samples"]), repetitions=len(result["samples"]))
        else:
            # The harness's skipped rows: zero repetitions and times, the reason in the note.
            row.update(status="skipped", repetitions=0, median_ns=0, min_ns=0, p90_ns=0, max_ns=0,
                       note=f"{versions_note()}; skipped: {result['reason']}")
        writer.writerow([row.get(column, "") for column in CSV_COLUMNS])
        sys.stdout.flush()
    return 0


# --------------------------------------------------------------------------------------------
# Command line


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="kiwi-peer", description=__doc__.split("\n\n")[0])
    parser.add_argument("--version", action="version", version=versions_note()
                        if kiwisolver is not None else "kiwisolver is not installed")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("solve", help="solve a .constraints file with kiwisolver")
    p.add_argument("file", help="the .constraints file; - or /dev/stdin reads standard input")
    p.add_argument("--verbose", action="store_true", help="print the priority -> strength map on stderr")
    p.set_defaults(run=command_solve)

    p = sub.add_parser("compare", help="compare two solutions of a file")
    p.add_argument("file")
    p.add_argument("solution_a", help="ours (NAME = VALUE lines)")
    p.add_argument("solution_b", help="the peer's (NAME = VALUE lines)")
    p.add_argument("--names", default="A,B", help="names of the two solutions, A,B")
    p.add_argument("--header", action="store_true", help="print the table header too")
    p.set_defaults(run=command_compare)

    p = sub.add_parser("crosscheck", help="run solver commands on files and check them against kiwisolver")
    p.add_argument("files", nargs="+", help=".constraints files or folders of them")
    p.add_argument("--solver-command", action="append", default=[], metavar="NAME=TEMPLATE",
                   help="a command that solves {file} and prints NAME = VALUE lines; repeatable")
    p.add_argument("--timeout", type=float, default=600.0,
                   help="seconds per solver run (600); a run past it is a mismatch")
    p.add_argument("--budget", action="append", default=[], metavar="NAME=SECONDS",
                   help="seconds for solver NAME's runs instead; a run past it is skipped "
                        "(said per file), not a mismatch; repeatable")
    p.add_argument("--pairwise", action="store_true",
                   help="also compare each other solver with the first (rows 'B vs A'); "
                        "only a match passes")
    p.add_argument("--progress", action="store_true", help="print each verdict on stderr as it comes")
    p.set_defaults(run=command_crosscheck)

    p = sub.add_parser("time", help="time kiwisolver's build and resize; CSV rows in the harness's columns")
    p.add_argument("file")
    p.add_argument("--budget", type=float, default=60.0,
                   help="seconds per cell (file x phase), 60; repeating stops after a quarter of it")
    p.add_argument("--repetitions", type=int, default=10, help="timed repetitions per phase, at most (10)")
    p.add_argument("--landscape-width", type=float, default=None,
                   help="the landscape root width (default: each .width edit value x 667/375)")
    p.add_argument("--scene", help="scene column (default: the file's name without extension)")
    p.add_argument("--variant", help="variant column")
    p.add_argument("--views", type=int, help="views column (default 0: not known)")
    p.add_argument("--run-id", help="run_id column (default: kiwi-TIMESTAMP-RANDOM)")
    p.add_argument("--commit", help="commit column (default: git rev-parse --short=12 HEAD, -dirty)")
    p.add_argument("--machine", help="machine column (default: architecture, cores, memory)")
    p.add_argument("--header", action="store_true", help="print the CSV header row first")
    p.set_defaults(run=command_time)

    p = sub.add_parser("time-cell", help="internal: the measuring child process of `time`")
    p.add_argument("--path", required=True)
    p.add_argument("--phase", choices=["build", "resize"], required=True)
    p.add_argument("--repetitions", type=int, required=True)
    p.add_argument("--landscape-width", type=float, default=None)
    p.add_argument("--stop-after", type=float, default=math.inf)
    p.set_defaults(run=command_time_cell)

    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
