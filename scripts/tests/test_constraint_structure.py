"""Tests of scripts/constraint-structure. Run: python3 -m unittest discover -s scripts/tests"""

import importlib.machinery
import importlib.util
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "constraint-structure")
loader = importlib.machinery.SourceFileLoader("constraint_structure", SCRIPT)
spec = importlib.util.spec_from_loader("constraint_structure", loader)
structure_module = importlib.util.module_from_spec(spec)
loader.exec_module(structure_module)
from kiwipeer.constraints_format import parse_text  # noqa: E402  (the script put it on the path)


def figures(text):
    return structure_module.structure(parse_text(text, "test.constraints"))


class StructureTests(unittest.TestCase):
    def test_a_chain_is_fixed_by_propagation(self):
        result = figures("edit x0 = 0\nx1 == x0 + 1\nx2 == x1 + 1\n")
        self.assertEqual((result["by propagation"], result["by blocks"]), (2, 2))
        self.assertEqual((result["largest block"], result["free"], result["unmatched"]), (1, 0, 0))

    def test_equalities_that_need_each_other_form_a_block(self):
        # Two equal widths filling a known width: neither is fixed alone.
        result = figures("edit p = 10\na + b == p\na - b == 0\n")
        self.assertEqual(result["by propagation"], 0)
        self.assertEqual((result["by blocks"], result["largest block"], result["blocks > 1"]),
                         (2, 2, 1))

    def test_what_no_required_equality_fixes_is_free(self):
        result = figures("a + b == 10\na >= 3 @500\nc <= 4\n")
        self.assertEqual((result["by blocks"], result["free"]), (1, 2))
        self.assertEqual((result["required <=, >="], result["optional"]), (1, 1))
        self.assertEqual((result["components"], result["largest component"]), (2, 2))

    def test_a_redundant_equality_is_unmatched(self):
        result = figures("a == 1\na == 2\n")
        self.assertEqual((result["by blocks"], result["unmatched"]), (1, 1))

    def test_a_long_cycle_is_one_block(self):
        # x_i - x_(i+1) == 1 around a ring of 50 with a closing sum: one 50-variable block.
        lines = [f"x{i} - x{i + 1} == 1" for i in range(49)] + ["x0 + x49 == 100"]
        result = figures("\n".join(lines) + "\n")
        self.assertEqual((result["by blocks"], result["largest block"]), (50, 50))

    def test_fill_in_writes_determined_variables_over_the_free_ones(self):
        # top2 == top1 + h1 + 8 and top1 == 8 + h0: top2 written out is h0 + h1 (2 terms); the
        # inequality on top2 becomes one over h0 and h1, and the block (a, b) is solved at once.
        text = ("edit w = 100\ntop1 == h0 + 8\ntop2 == top1 + h1 + 8\ntop2 <= 300\n"
                "h0 >= 20 @750\na + b == w\na - b == 0\nc <= a @500\n")
        result = structure_module.fill_in(parse_text(text, "t"))
        self.assertEqual((result["rest"], result["terms as written"]), (3, 4))
        # top2 <= 300 -> h0 + h1 (2); h0 >= 20 (1); c <= a -> c, w (2).
        self.assertEqual((result["substituted"], result["largest substituted"]), (5, 2))
        self.assertEqual(result["one-variable"], 1)
        self.assertEqual(result["longest definition"], 2)

    def test_fill_in_counts_an_equality_left_over_as_rest(self):
        result = structure_module.fill_in(parse_text("x == 1\n2 * x == 2\ny >= x\n", "t"))
        self.assertEqual((result["rest"], result["substituted"]), (2, 1))

    def test_fill_in_refuses_dependent_equalities(self):
        with self.assertRaisesRegex(ValueError, "x, y are dependent"):
            structure_module.fill_in(parse_text("x == y + 1\nx - y == 1\n", "t"))

    def test_a_malformed_file_is_an_error_at_its_place(self):
        with tempfile.NamedTemporaryFile("w", suffix=".constraints", delete=False) as file:
            file.write("x == 1\ny == 2 +\n")
        try:
            finished = subprocess.run([sys.executable, SCRIPT, file.name], capture_output=True,
                                      text=True)
        finally:
            os.unlink(file.name)
        self.assertEqual(finished.returncode, 2)
        self.assertIn(f"{file.name}:2:9: error:", finished.stderr)


if __name__ == "__main__":
    unittest.main()
