"""Tests of scripts/heap-diff. Run: python3 -m unittest discover -s scripts/tests"""

import importlib.machinery
import importlib.util
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "heap-diff")
loader = importlib.machinery.SourceFileLoader("heap_diff", SCRIPT)
spec = importlib.util.spec_from_loader("heap_diff", loader)
heap_diff = importlib.util.module_from_spec(spec)
loader.exec_module(heap_diff)

# Two sites of the package (a table's growth, a list) under the allocator's frames, and a block
# no package frame reaches.
BEFORE = """desc: --depth=40
cmd: bench stress
time_unit: i
#-----------
snapshot=0
#-----------
time=1
mem_heap_B=1300
mem_heap_extra_B=0
mem_stacks_B=0
heap_tree=detailed
n3: 1300 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n2: 1000 0x1: swift_slowAlloc (in /lib/libswiftCore.so)
  n1: 600 0x2: $s10AutoLayout7IDTableV6insertys5Int32VxF (IDTable.swift:40)
   n0: 600 0x3: $s10AutoLayout0B6EngineC7installyyF (LayoutEngine.swift:233)
  n1: 400 0x4: $s9Cassowary6SolverV7rebuildyyF (Solver+Values.swift:80)
   n0: 400 0x5: main (main.swift:1)
 n0: 200 0x6: dlopen (in /lib/ld.so)
 n0: 100 in 3 places, all below massif's threshold (0.01%)
"""
AFTER = BEFORE.replace("mem_heap_B=1300", "mem_heap_B=1550").replace(
    "n2: 1000 0x1", "n2: 1250 0x1").replace("n1: 600 0x2", "n1: 850 0x2").replace(
    "n0: 600 0x3", "n0: 850 0x3").replace("n3: 1300", "n3: 1550")


class HeapDiffTests(unittest.TestCase):
    def write(self, directory, name, text):
        path = os.path.join(directory, name)
        with open(path, "w") as file:
            file.write(text)
        return path

    def test_blocks_are_charged_to_the_first_package_frame(self):
        with tempfile.TemporaryDirectory() as directory:
            heap, sites = heap_diff.sites(self.write(directory, "a.massif", BEFORE))
        self.assertEqual(heap, 1300)
        self.assertEqual(sites["$s10AutoLayout7IDTableV6insertys5Int32VxF (IDTable.swift:40)"],
                         600)
        self.assertEqual(sites["$s9Cassowary6SolverV7rebuildyyF (Solver+Values.swift:80)"], 400)
        self.assertEqual(sites["other"], 300)

    def test_only_the_sites_that_changed_are_listed(self):
        with tempfile.TemporaryDirectory() as directory:
            before = self.write(directory, "a.massif", BEFORE)
            after = self.write(directory, "b.massif", AFTER)
            _, old = heap_diff.sites(before)
            _, new = heap_diff.sites(after)
            rows = heap_diff.difference(old, new)
            self.assertEqual(rows, [
                ("$s10AutoLayout7IDTableV6insertys5Int32VxF (IDTable.swift:40)", 600, 850)])
            out = subprocess.run([sys.executable, SCRIPT, before, after, "--raw"],
                                 capture_output=True, text=True, check=True).stdout
        self.assertIn("heap: 1,300 B -> 1,550 B (+250 B); 1 sites changed", out)
        self.assertIn("| +250 | 600 | 850 |", out)

    def test_a_file_that_is_not_a_detailed_snapshot_exits_2(self):
        with tempfile.TemporaryDirectory() as directory:
            path = self.write(directory, "x.massif", "snapshot=0\nmem_heap_B=5\nheap_tree=empty\n")
            finished = subprocess.run([sys.executable, SCRIPT, path, path],
                                      capture_output=True, text=True)
        self.assertEqual(finished.returncode, 2)
        self.assertIn("not a detailed massif snapshot", finished.stderr)


if __name__ == "__main__":
    unittest.main()
