"""Tests of scripts/soak's interrupts (and that a whole soak still writes its files).
Run: python3 -m unittest discover -s scripts/tests

Needs the bench binary, as test_faults.py ($BENCH, default .build/debug/bench; skipped without
it, failing when $CI is set)."""

import csv
import os
import signal
import sys
import time
import unittest

from test_faults import BenchTestCase, Running, live_processes, temporary_names

SOAK = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "soak")
HEADER = ["scene", "variant", "views", "solver", "seed", "operations"]


class SoakInterruptTests(BenchTestCase):
    """On SIGINT or SIGTERM soak ends its runs and keeps the finished ones' rows in
    OUTPUT.partial."""

    def setUp(self):
        super().setUp()
        self.root = self.temp_dir()
        # A copy of its own: the runs' processes are found by its path.
        self.soak_bench = self.copy_bench(os.path.join(self.root, "bin"))
        self.output = os.path.join(self.root, "soak.csv")
        self.logs = os.path.join(self.root, "logs")

    def start(self, *options):
        return Running(self, [sys.executable, SOAK, "--bench", self.soak_bench, *options,
                              "--output", self.output, "--log-dir", self.logs],
                       cwd=self.root, marker=self.root)

    def runs(self):
        return [command for _, command in live_processes(mentioning=self.soak_bench)
                if " stress " in command]

    def wait_for_runs(self, running, count):
        running.wait_until(lambda: len(self.runs()) >= count, 60,
                           f"{count} `bench stress` run(s) started")

    def check(self, running, status):
        """The exit status; no run left; no final CSV; the .partial file's rows; returns them."""
        result = running.finish()
        self.assertStatus(result, status, self.output + ".partial")
        running.assertNothingLeft(result, self.root)
        self.assertAbsent(self.output, result)
        partial = self.output + ".partial"
        self.assertTrue(os.path.isfile(partial), f"no {partial}:" + result.describe())
        with open(partial, newline="") as file:
            text = file.read()
        self.assertTrue(text.endswith("\n"), f"{partial} does not end with a newline:"
                        + result.describe())
        rows = list(csv.reader(text.splitlines()))
        self.assertEqual(rows[0][:len(HEADER)], HEADER, f"{partial} has no header:"
                         + result.describe())
        for row in rows[1:]:
            self.assertEqual(len(row), len(rows[0]), f"a cut row in {partial}: {row}"
                             + result.describe())
        self.assertEqual(temporary_names(self.root, allowed=(partial,)), [],
                         "scratch files left:" + result.describe())
        return rows[1:], result

    def interrupt_two_long_runs(self, send, status):
        """Two runs that would take minutes, interrupted by `send(pgid)`: exit `status`, and
        no row (neither run finished)."""
        running = self.start("--scenes", "flat,form", "--views", "50", "--operations", "200000",
                             "--seeds", "1,2", "--jobs", "2")
        self.wait_for_runs(running, 2)
        time.sleep(1)
        send(running.pgid)
        rows, result = self.check(running, status)
        self.assertEqual(rows, [], "rows of runs that did not finish:" + result.describe())

    def test_sigint_to_the_group(self):
        self.interrupt_two_long_runs(lambda pgid: os.killpg(pgid, signal.SIGINT), 130)

    def test_sigterm_to_soak_alone(self):
        self.interrupt_two_long_runs(lambda pgid: os.kill(pgid, signal.SIGTERM), 143)

    def test_the_finished_runs_rows_are_kept(self):
        # flat takes ~3 s in a debug build, form twice as long: the signal comes during form.
        running = self.start("--scenes", "flat,form", "--views", "50", "--operations", "200",
                             "--seeds", "1", "--jobs", "1")
        running.wait_until(lambda: "soak: [1/2]" in running.stderr, 60, "the first run finished")
        os.killpg(running.pgid, signal.SIGINT)
        rows, result = self.check(running, 130)
        self.assertEqual([(row[0], row[4]) for row in rows], [("flat", "1")],
                         "the finished run's row:" + result.describe())
        with open(os.path.join(self.logs, "form-50-seed1.log")) as file:
            self.assertIn("soak: interrupted", file.read())

    def test_a_whole_soak_writes_its_files(self):
        with open(self.output + ".partial", "w") as file:
            file.write("stale\n")
        markdown = os.path.join(self.root, "soak.md")
        running = self.start("--scenes", "flat", "--views", "20", "--operations", "20",
                             "--seeds", "1", "--markdown", markdown)
        result = running.finish(timeout=60)
        self.assertStatus(result, 0)
        self.assertTrue(os.path.isfile(self.output), "no CSV:" + result.describe())
        self.assertTrue(os.path.isfile(markdown), "no Markdown:" + result.describe())
        self.assertAbsent(self.output + ".partial", result)
        with open(self.output, newline="") as file:
            rows = list(csv.reader(file))
        self.assertEqual(len(rows), 2, "one run, one row:" + result.describe())
        self.assertEqual(rows[1][rows[0].index("result")], "ok", result.describe())


if __name__ == "__main__":
    unittest.main()
