"""kiwisolver as an independent peer for LayoutBench's solvers.

Reads `.constraints` files (the solver-neutral text format of LayoutBench, see the spec
"docs/constraints-format.md"), solves them with kiwisolver, and compares solutions against each
other and solver commands' answers against kiwisolver's.

Run it through the wrapper scripts/peers/kiwi-peer, which makes a virtual environment with the
pinned kiwisolver on first use (under .build-peers/venv at the repository root):

    scripts/peers/kiwi-peer solve FILE                  # print NAME = VALUE per variable
    scripts/peers/kiwi-peer compare FILE SOL_A SOL_B [--names A,B] [--header]
    scripts/peers/kiwi-peer crosscheck --solver-command 'NAME=COMMAND {file}' ... FILES...
    scripts/peers/kiwi-peer test                        # the unit tests

Exit statuses: solve: 0 solved, 1 unsatisfiable, 2 malformed input (as in the spec).
compare and crosscheck: 0 when every answer matches kiwisolver or differs only where ours is the
lexicographically better one (crosscheck: or was skipped for its time or memory budget, which the
table says per file), 1 on any mismatch, 2 on bad usage or malformed input. solve and crosscheck:
3 when kiwisolver is not installed (solve still reports a malformed file, with 2; compare does not
need kiwisolver).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys

from .constraints_format import ParseError, format_parse_error, load_system
from .crosscheck import (CROSSCHECK_HEADERS, check_files, expand_files, parse_budgets,
                         parse_solver_command, summary_line)
from .kiwi_solving import kiwisolver, need_kiwi, solve_path, strength_map
from .markdown_table import print_table
from .solutions import compare_solutions, read_solution, short

COMPARE_HEADERS = ["file", "variables", "max difference", "verdict"]


def versions_note() -> str:
    return f"kiwisolver {kiwisolver.__version__} through Python {platform.python_version()}"


def command_solve(args) -> int:
    outcome = solve_path(args.file)
    if args.verbose and outcome.system is not None:
        for p, s in sorted(strength_map(outcome.system.optional_priorities()).items()):
            print(f"# priority {p:g} -> strength {s:.9g}", file=sys.stderr)
    sys.stdout.write(outcome.stdout)
    if outcome.message:
        print(outcome.message, file=sys.stderr)
    return outcome.status


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
    rows, verdicts = check_files(files, solvers, budgets, args.timeout, args.pairwise, args.progress)
    print_table(CROSSCHECK_HEADERS, rows)
    print(f"\n{summary_line(verdicts)}")
    return 0 if all(v.passed for v in verdicts) else 1


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

    args = parser.parse_args(argv)
    return args.run(args)
