#!/usr/bin/env python3
"""A stand-in for a solver command in the crosscheck tests: prints a prepared answer.

    fake_solver.py --output FILE [--status N] [--stderr TEXT] [--sleep S] CONSTRAINTS_FILE

sleeps S seconds, prints FILE's text on stdout, TEXT on stderr and exits with N (default 0); it ignores
CONSTRAINTS_FILE except for checking that it exists, as a real solver would read it.
"""
import argparse
import os
import sys
import time

parser = argparse.ArgumentParser()
parser.add_argument("--output", default=None)
parser.add_argument("--status", type=int, default=0)
parser.add_argument("--stderr", default="")
parser.add_argument("--sleep", type=float, default=0.0)
parser.add_argument("file")
args = parser.parse_args()
if not os.path.exists(args.file):
    sys.exit(f"fake_solver: no file {args.file}")
time.sleep(args.sleep)
if args.output:
    with open(args.output) as f:
        sys.stdout.write(f.read())
if args.stderr:
    print(args.stderr, file=sys.stderr)
sys.exit(args.status)
