"""Tests of kiwi-peer: the kiwipeer package, and its entry point kiwi_peer.py as a command.
Run: scripts/peers/kiwi-peer test  (or, inside the venv,
python -m unittest discover -s scripts/peers/tests)."""

import os
import shlex
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
PEERS = os.path.dirname(HERE)
SCRIPT = os.path.join(PEERS, "kiwi_peer.py")
FAKE = os.path.join(HERE, "fake_solver.py")
sys.path.insert(0, PEERS)

from kiwipeer import constraints_format, kiwi_solving, solutions  # noqa: E402

needs_kiwi = unittest.skipIf(kiwi_solving.kiwisolver is None, "kiwisolver is not installed")

# The example of the spec (docs/constraints-format.md).
EXAMPLE = """\
# Simple Label and Text Field, root 375 wide, margins 16
edit root.width = 375 @999
label.left == 16                              # Name Label.Leading = Superview.LeadingMargin
field.left + field.width == root.width - 16   # Name Text Field.Trailing = Superview.TrailingMargin
field.left == label.left + label.width + 8    # Name Text Field.Leading = Name Label.Trailing + Standard
label.width >= 80 @750                        # label compression resistance
label.width <= 80 @251                        # label content hugging
field.width >= 97 @750                        # field compression resistance
field.width <= 97 @250                        # field content hugging
"""
EXAMPLE_SOLUTION = {"root.width": 375.0, "label.left": 16.0, "field.left": 104.0,
                    "field.width": 255.0, "label.width": 80.0}


def run(*args, stdin=None):
    return subprocess.run([sys.executable, SCRIPT, *args], input=stdin, capture_output=True, text=True)


def solution_text(values: dict) -> str:
    return "".join(f"{name} = {value!r}\n" for name, value in values.items())


class TempFiles(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def write(self, name: str, text: str) -> str:
        path = os.path.join(self.dir.name, name)
        with open(path, "w") as f:
            f.write(text)
        return path


class ParserErrors(TempFiles):
    """Each kind of malformed line is reported at its line and column."""

    CASES = [
        # (line 3 of the file, expected column, words expected in the message)
        ("x == 3 $", 8, "unexpected character '$'"),
        ("x + y ~ 3", 7, "unexpected character '~'"),
        ("x =< 3", 3, "unknown relation '=<'"),
        ("x = 3", 3, "unknown relation '='"),
        ("x != 3", 3, "unknown relation '!='"),
        ("x + 3", 6, "expected a relation"),
        ("x == 3 == 4", 8, "exactly one relation"),
        ("x == 3 @1001", 9, "priority 1001 is out of range"),
        ("x == 3 @0", 9, "priority 0 is out of range"),
        ("x == 3 @-5", 9, "priority -5 is out of range"),
        ("edit w = 3 @0.0", 13, "out of range"),
        ("x == nan", 6, "'nan' is not allowed"),
        ("edit x = nan", 10, "'nan' is not allowed"),
        ("x == -inf @250", 7, "'inf' is not allowed"),
        ("x == 0x10", 6, "hexadecimal"),
        ("x == 1e999", 6, "out of range"),
        ("x == 1e", 6, "malformed number '1e'"),
        ("x == 1.2.3", 6, "malformed number"),
        ("edit x = 3 @1000", 13, "cannot be required"),
        ("edit x = 3 @750 extra", 17, "unexpected 'extra' after the priority"),
        ("x == 3 @750 y", 13, "unexpected 'y' after the priority"),
        ("x == 3 4", 8, "unexpected '4' after the constraint"),
        ("x == y z", 8, "unexpected 'z' after the constraint"),
        ("x * y == 3", 5, "expected a number after '*'"),
        ("2 * 3 == x", 5, "expected a variable name after '*'"),
        ("+x == 3", 1, "expected a number or a variable name"),
        ("x + - 3 == 0", 5, "expected a number or a variable name"),
        ("== 3", 1, "expected a number or a variable name"),
        ("x ==", 5, "found end of line"),
        ("edit x == 3", 8, "expected '=' after the edit variable's name"),
        ("edit = 3", 6, "expected the edit variable's name"),
        ("x == 3 @", 9, "expected a priority"),
    ]

    def test_each_malformed_line_at_its_line_and_column(self):
        for line, column, words in self.CASES:
            with self.subTest(line=line):
                text = f"# a comment\nok == 1   # fine\n{line}\nnever == 2\n"
                with self.assertRaises(constraints_format.ParseError) as raised:
                    constraints_format.parse_text(text, "f.constraints")
                error = raised.exception
                self.assertEqual((error.line, error.column), (3, column), error.message)
                self.assertIn(words, error.message)

    def test_duplicate_edit_variable(self):
        with self.assertRaises(constraints_format.ParseError) as raised:
            constraints_format.parse_text("edit x = 1\n\nedit  x = 2\n", "f")
        self.assertEqual((raised.exception.line, raised.exception.column), (3, 7))

    def test_command_line_form_and_status(self):
        path = self.write("bad.constraints", "x == 1\n\ny =< 2 @10\n")
        done = run("solve", path)
        self.assertEqual(done.returncode, 2)
        self.assertEqual(done.stdout, "")
        self.assertEqual(done.stderr.strip(), f"{path}:3:3: error: unknown relation '=<': expected ==, <= or >=")

    def test_leftmost_problem_is_reported(self):
        with self.assertRaises(constraints_format.ParseError) as raised:
            constraints_format.parse_text("x === 3 $\n", "f")
        self.assertEqual(raised.exception.column, 3)


class Parsing(unittest.TestCase):
    def test_terms_signs_and_priorities(self):
        system = constraints_format.parse_text(
            "x == -3 * y + 2*z - -1 @ 500 # c\n- x - 3 >= -y * 2.5e0\nedit == 4\nedit  v = -.5\n", "f")
        first, second, third, edit = system.statements
        self.assertEqual(first.terms, {"x": 1.0, "y": 3.0, "z": -2.0})
        self.assertEqual((first.constant, first.relation, first.priority), (-1.0, "==", 500.0))
        self.assertEqual(second.terms, {"x": -1.0, "y": 2.5})
        self.assertEqual((second.constant, second.relation, second.priority), (-3.0, ">=", 1000.0))
        self.assertEqual((third.kind, third.terms, third.constant), ("constraint", {"edit": 1.0}, -4.0))
        self.assertEqual((edit.kind, edit.name, edit.value, edit.priority), ("edit", "v", -0.5, 999.0))
        self.assertEqual(system.variables, ["x", "y", "z", "edit", "v"])

    def test_cancelled_variable_still_exists(self):
        system = constraints_format.parse_text("q == q + 0 * r\n", "f")
        self.assertEqual(system.variables, ["q", "r"])
        self.assertEqual(system.statements[0].terms, {})

    def test_strength_map_keeps_order_below_required(self):
        for levels in ([250.0], [250.0, 251.0], [1.0, 250.0, 251.0, 500.0, 750.0, 999.0],
                       [float(p) for p in range(1, 1000)]):
            strengths = kiwi_solving.strength_map(levels + [1000.0])
            values = [strengths[p] for p in sorted(levels)]
            self.assertNotIn(1000.0, strengths)
            self.assertTrue(all(a < b for a, b in zip(values, values[1:])))
            self.assertGreaterEqual(values[0], 1.0)
            self.assertLessEqual(values[-1], 1e9)
            self.assertLess(values[-1], 1001001000.0)

    def test_values_print_round_trip_and_without_negative_zero(self):
        self.assertEqual(solutions.format_value(-0.0), "0.0")
        for value in (0.1 + 0.2, 1e-300, 255.00000000000003, -17.25, 1e16):
            self.assertEqual(float(solutions.format_value(value)), value)


@needs_kiwi
class Solving(TempFiles):
    def test_spec_example(self):
        done = run("solve", self.write("example.constraints", EXAMPLE))
        self.assertEqual(done.returncode, 0, done.stderr)
        solution = solutions.parse_solution(done.stdout)
        self.assertEqual(solution.order, list(EXAMPLE_SOLUTION))
        for name, value in EXAMPLE_SOLUTION.items():
            self.assertTrue(solutions.within_tolerance(solution.values[name], value), (name, solution.values[name]))

    def test_standard_input(self):
        for path in ("-", "/dev/stdin"):
            done = run("solve", path, stdin=EXAMPLE)
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertEqual(len(done.stdout.splitlines()), 5)

    def test_unsatisfiable_names_its_line_and_conflicts(self):
        path = self.write("unsat.constraints", "a == 10\nb == a + 5\nc >= 3 @300\nc == b - a\nd == 7\n  c <= 4\n")
        done = run("solve", path)
        self.assertEqual(done.returncode, 1)
        self.assertEqual(done.stdout, "")
        self.assertIn(f"{path}:6:3: error: unable to satisfy required constraint 'c <= 4'", done.stderr)
        self.assertIn("lines 2, 4", done.stderr)


@needs_kiwi
class Comparing(TempFiles):
    def kiwi_solution(self, constraints_path):
        done = run("solve", constraints_path)
        self.assertEqual(done.returncode, 0, done.stderr)
        return self.write("kiwi.txt", done.stdout)

    def test_same_answer_matches(self):
        path = self.write("example.constraints", EXAMPLE)
        ours = self.write("ours.txt", solution_text(EXAMPLE_SOLUTION))
        done = run("compare", path, ours, self.kiwi_solution(path), "--names", "sparse,kiwisolver", "--header")
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        lines = done.stdout.splitlines()
        self.assertEqual(len(lines), 3)
        self.assertIn("| match", lines[2])

    def test_perturbed_answer_is_a_mismatch(self):
        path = self.write("example.constraints", EXAMPLE)
        perturbed = dict(EXAMPLE_SOLUTION, **{"field.width": 254.0})
        done = run("compare", path, self.write("ours.txt", solution_text(perturbed)), self.kiwi_solution(path))
        self.assertEqual(done.returncode, 1)
        self.assertIn("mismatch", done.stdout)
        self.assertIn("A violates required line 4", done.stdout)
        self.assertIn("1 (field.width)", done.stdout)

    def test_worse_but_feasible_answer_fails_with_peer_better(self):
        path = self.write("example.constraints", EXAMPLE)
        worse = dict(EXAMPLE_SOLUTION, **{"label.width": 81.0, "field.left": 105.0, "field.width": 254.0})
        done = run("compare", path, self.write("ours.txt", solution_text(worse)), self.kiwi_solution(path))
        self.assertEqual(done.returncode, 1)
        self.assertIn("lexicographic-difference: B better", done.stdout)
        self.assertIn("@251", done.stdout)

    def test_missing_variable_is_a_mismatch(self):
        path = self.write("example.constraints", EXAMPLE)
        partial = dict(EXAMPLE_SOLUTION)
        del partial["label.left"]
        done = run("compare", path, self.write("ours.txt", solution_text(partial)), self.kiwi_solution(path))
        self.assertEqual(done.returncode, 1)
        self.assertIn("A lacks label.left", done.stdout)

    def lexicographic_case(self):
        """One constraint at 251 against 1,001 conflicting ones at 250. Lexicographic priorities
        keep the 251 one (x = 10); kiwisolver's weighted sum gives up the 251 one when 1,001
        times the strength of 250 outweighs the strength of 251. With only two levels the map
        puts them 1e9 apart, so three more levels (on variables of their own) bring the ratio
        between neighbours down to 1e9 ** (1/4) = 178."""
        lines = ["f500 == 1 @500", "f750 == 2 @750", "edit f999 = 3", "x == 10 @251"]
        lines += ["x == 0 @250"] * 1001
        path = self.write("lexicographic.constraints", "\n".join(lines) + "\n")
        strengths = kiwi_solving.strength_map([250.0, 251.0, 500.0, 750.0, 999.0])
        self.assertGreater(1001 * strengths[250.0], strengths[251.0])
        by_hand = self.write("lexicographic.txt", "f500 = 1.0\nf750 = 2.0\nf999 = 3.0\nx = 10.0\n")
        return path, by_hand

    def test_weighted_sum_against_lexicographic(self):
        path, by_hand = self.lexicographic_case()
        kiwi = self.kiwi_solution(path)
        self.assertAlmostEqual(solutions.read_solution(kiwi).values["x"], 0.0)
        done = run("compare", path, by_hand, kiwi, "--names", "ours,kiwisolver")
        self.assertEqual(done.returncode, 0, done.stdout)
        self.assertIn("lexicographic-difference: ours better", done.stdout)
        self.assertNotIn("| match", done.stdout)
        # The other way round, kiwisolver's answer as ours fails.
        done = run("compare", path, kiwi, by_hand)
        self.assertEqual(done.returncode, 1)
        self.assertIn("lexicographic-difference: B better", done.stdout)


@needs_kiwi
class Crosschecking(TempFiles):
    def test_table_and_status(self):
        example = self.write("example.constraints", EXAMPLE)
        unsat = self.write("unsat.constraints", "x == 1\nx == 2\n")
        perturbed = self.write("perturbed.txt", solution_text(dict(EXAMPLE_SOLUTION, **{"label.left": 17.0})))
        python = shlex.quote(sys.executable)
        itself = f"kiwi={python} {shlex.quote(SCRIPT)} solve {{file}}"
        wrong = f"wrong={python} {shlex.quote(FAKE)} --output {shlex.quote(perturbed)} {{file}}"
        done = subprocess.run([sys.executable, SCRIPT, "crosscheck", "--solver-command", itself,
                               "--solver-command", wrong, example, unsat], capture_output=True, text=True)
        self.assertEqual(done.returncode, 1, done.stdout + done.stderr)
        rows = [line for line in done.stdout.splitlines() if line.startswith("| ")][2:]
        self.assertEqual(len(rows), 4)
        verdicts = {(cells[1], os.path.basename(cells[0])): cells[4] for cells in
                    ([c.strip() for c in row.strip("|").split("|")] for row in rows)}
        self.assertTrue(verdicts[("kiwi", "example.constraints")].startswith("match"))
        self.assertTrue(verdicts[("wrong", "example.constraints")].startswith("mismatch"))
        self.assertEqual(verdicts[("kiwi", "unsat.constraints")], "match (both unsatisfiable at line 2)")
        self.assertTrue(verdicts[("wrong", "unsat.constraints")].startswith("mismatch (wrong exited 0"))

    def test_all_matching_passes(self):
        example = self.write("example.constraints", EXAMPLE)
        itself = f"kiwi={shlex.quote(sys.executable)} {shlex.quote(SCRIPT)} solve {{file}}"
        done = run("crosscheck", "--solver-command", itself, example)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)


    def crosscheck(self, *args):
        done = run("crosscheck", *args)
        rows = [[c.strip() for c in line.strip().strip("|").split("|")]
                for line in done.stdout.splitlines() if line.startswith("| ")][2:]
        return done, {(cells[1], os.path.basename(cells[0])): cells[4] for cells in rows}

    def test_over_budget_and_memory_refusals_are_skipped_per_file(self):
        example = self.write("example.constraints", EXAMPLE)
        answer = self.write("answer.txt", solution_text(EXAMPLE_SOLUTION))
        python, fake = shlex.quote(sys.executable), shlex.quote(FAKE)
        slow = f"slow={python} {fake} --sleep 5 --output {shlex.quote(answer)} {{file}}"
        refusing = (f"big={python} {fake} --status 1 --stderr "
                    f"'{{file}}: error: the dense tableau would need 8193 rows, over its memory budget of 2147483648 bytes, "
                    f"and then some more words to pass 160 characters in all, which the table keeps whole' {{file}}")
        done, verdicts = self.crosscheck("--solver-command", slow, "--solver-command", refusing,
                                         "--budget", "slow=0.5", example)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.assertEqual(verdicts[("slow", "example.constraints")], "skipped (over the 0.5 s budget)")
        self.assertEqual(verdicts[("big", "example.constraints")],
                         "skipped (the dense tableau would need 8193 rows, over its memory budget of 2147483648 bytes, "
                         "and then some more words to pass 160 characters in all, which the table keeps whole)")
        self.assertIn("example.constraints: slow skipped: over the 0.5 s budget", done.stderr)
        self.assertIn("2 checks: 2 skipped", done.stdout)
        # Without a budget of its own, a run past --timeout is a mismatch.
        done, verdicts = self.crosscheck("--solver-command", slow, "--timeout", "0.5", example)
        self.assertEqual(done.returncode, 1)
        self.assertTrue(verdicts[("slow", "example.constraints")].startswith("mismatch (slow exited 124"))

    def test_pairwise_rows_pass_only_on_a_match(self):
        example = self.write("example.constraints", EXAMPLE)
        same = self.write("same.txt", solution_text(EXAMPLE_SOLUTION))
        # Worse but feasible: kiwisolver would call it a lexicographic difference, B better.
        worse = self.write("worse.txt", solution_text(dict(EXAMPLE_SOLUTION, **{
            "label.width": 81.0, "field.left": 105.0, "field.width": 254.0})))
        python, fake = shlex.quote(sys.executable), shlex.quote(FAKE)
        a = f"a={python} {fake} --output {shlex.quote(same)} {{file}}"
        b = f"b={python} {fake} --output {shlex.quote(same)} {{file}}"
        c = f"c={python} {fake} --output {shlex.quote(worse)} {{file}}"
        done, verdicts = self.crosscheck("--pairwise", "--solver-command", a, "--solver-command", b,
                                         "--solver-command", c, example)
        self.assertEqual(done.returncode, 1, done.stdout + done.stderr)
        self.assertEqual(verdicts[("b vs a", "example.constraints")], "match")
        self.assertTrue(verdicts[("c vs a", "example.constraints")].startswith("lexicographic-difference: a better"))
        self.assertIn("5 checks: 3 match, 1 lexicographic-difference (a better), "
                      "1 lexicographic-difference (kiwisolver better)", done.stdout)

    def test_bad_budget_and_missing_file_are_usage_errors(self):
        example = self.write("example.constraints", EXAMPLE)
        itself = f"kiwi={shlex.quote(sys.executable)} {shlex.quote(SCRIPT)} solve {{file}}"
        for budget in ("kiwi", "kiwi=0", "kiwi=x", "other=5"):
            done = run("crosscheck", "--solver-command", itself, "--budget", budget, example)
            self.assertEqual(done.returncode, 2, budget)
            self.assertIn("--budget", done.stderr)
        done = run("crosscheck", "--solver-command", itself, example + ".missing")
        self.assertEqual(done.returncode, 2)
        self.assertIn("no such file", done.stderr)


if __name__ == "__main__":
    unittest.main()
