"""Results files for the history and dashboard tests: runs of three commits made from the
committed quick baseline, so that every scene kind, solver and phase is in them, with changes
between the commits that `bench history regressions` must find.

Kept apart from the tests so that both test modules make the same history.
"""

import csv
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BASELINE = os.path.join(ROOT, "results", "baseline-quick.csv")


def read_baseline():
    with open(BASELINE, newline="") as handle:
        reader = csv.DictReader(handle)
        return reader.fieldnames, list(reader)


def write_run(path, header, rows, run_id, commit, minute):
    """The rows as one run: `run_id` at `commit`, started at minute `minute` of a fixed day."""
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=header, lineterminator="\r\n")
        writer.writeheader()
        for row in rows:
            row = dict(row, run_id=run_id, commit=commit,
                       timestamp=f"2026-12-01T10:{minute:02d}:00Z")
            writer.writerow(row)


def three_commits(directory):
    """Writes run-1.csv, run-2.csv and run-3.csv into `directory` and returns their paths.

    - run 2 allocates 5 % more in every form cell of sparse (regressions), changes the checksum
      of the chain's sparse incremental build at 50 views, and skips stack-grid's plan resize at
      100 views;
    - run 3 drops every dense cell of the flat scene (a series that stops), and is otherwise
      run 2.
    """
    header, rows = read_baseline()
    first = [dict(row) for row in rows]
    second = []
    for row in rows:
        row = dict(row)
        measured = row["status"] == "ok"
        if measured and row["scene"] == "form" and row["solver"] == "sparse":
            row["allocated_bytes"] = str(int(int(row["allocated_bytes"]) * 1.05) + 100)
        if (measured and row["scene"] == "chain" and row["solver"] == "sparse"
                and row["mode"] == "incremental" and row["phase"] == "build"
                and row["views"] == "50"):
            row["checksum"] = "0123456789abcdef"
        if (measured and row["scene"] == "stack-grid" and row["solver"] == "plan"
                and row["phase"] == "resize" and row["views"] == "100"):
            row.update(status="skipped", note="skipped for the test", median_ns="0",
                       min_ns="0", p90_ns="0", max_ns="0", samples_ns="", checksum="",
                       allocated_bytes="", allocations="", retained_bytes="", peak_bytes="")
        second.append(row)
    third = [row for row in second if not (row["scene"] == "flat" and row["solver"] == "dense")]
    paths = []
    for index, (rows_of_run, commit) in enumerate(
            [(first, "aaaaaaa"), (second, "bbbbbbb"), (third, "ccccccc")], start=1):
        path = os.path.join(directory, f"run-{index}.csv")
        write_run(path, header, rows_of_run, f"run{index}", commit, index)
        paths.append(path)
    return paths
