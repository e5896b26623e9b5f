"""The `.constraints` format: its own tokenizer and parser, the System and Statement it reads a file
into, and parse errors with their messages.

The format is LayoutBench's solver-neutral text format (the spec is
"docs/constraints-format.md"). This parser is independent of the Swift one, so that a file reads
the same way twice before two solvers' answers are compared.

Reading the format (choices where the spec leaves room)
-------------------------------------------------------
- A NUMBER token carries its sign only when the sign touches the digits: `x + -3` and
  `x * -2` are numbers -3 and -2, `x + - 3` is an error. A leading `-` (with or without a space)
  negates the first term; a leading `+` is accepted only as the sign of a number.
- `nan`, `inf` and `infinity` (any case) are errors wherever they appear, also as a term, and so
  are hexadecimal literals (`0x10`) and numbers that overflow a Double (`1e999`).
- A line is an edit statement when it starts with `edit` followed by a name (or by nothing, `=`
  or a number, which is then an error); otherwise `edit` is an ordinary variable name.
- The same variable made an edit variable twice is an error (exit 2), as kiwisolver would refuse it.
- Columns count characters from 1; a tab is one column.
"""

from __future__ import annotations

import math
import re
import sys
from dataclasses import dataclass, field

REQUIRED = 1000.0
EDIT_DEFAULT_PRIORITY = 999.0

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
