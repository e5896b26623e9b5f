"""The Markdown tables that `compare` and `crosscheck` print."""

from __future__ import annotations

import sys


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
