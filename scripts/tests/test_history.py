"""Tests of `bench history` and `bench publish` as a user meets them from the shell: bad input
gets a clear message and exit 2 (64 for a bad option, 74 for an output that cannot be written),
and the store is left exactly as it was; two processes recording at once both land.

Run from the repository root, after `swift build --product bench`:

    python3 -m unittest discover -s scripts/tests -p test_history.py

It needs the bench binary ($BENCH, default .build/debug/bench under the repository root); the
read-only case mounts a tmpfs, so needs root. Without them its cases are skipped, or fail when
$CI is set (non-empty).
"""

import hashlib
import os
import shutil
import sqlite3
import subprocess
import tempfile
import unittest

from history_fixtures import ROOT, three_commits

BENCH = os.environ.get("BENCH") or os.path.join(ROOT, ".build", "debug", "bench")


def digest(path):
    with open(path, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()


class HistoryCommandTests(unittest.TestCase):
    maxDiff = None

    def setUp(self):
        if not os.access(BENCH, os.X_OK):
            self.skip_or_fail(f"no bench binary at {BENCH} (set BENCH, or run "
                              "`swift build --product bench`)")
        self.directory = os.path.realpath(tempfile.mkdtemp(prefix="bench-history-"))
        self.addCleanup(shutil.rmtree, self.directory, ignore_errors=True)
        self.runs = three_commits(self.directory)
        self.store = os.path.join(self.directory, "history.sqlite")

    def skip_or_fail(self, message):
        if os.environ.get("CI"):
            self.fail(message)
        self.skipTest(message)

    def bench(self, *arguments, timeout=120):
        return subprocess.run([BENCH, *arguments], capture_output=True, text=True,
                              timeout=timeout, cwd=self.directory)

    def assertStatus(self, result, status, *words):
        self.assertEqual(result.returncode, status,
                         f"exit {result.returncode}, wanted {status}\nstdout: {result.stdout}\n"
                         f"stderr: {result.stderr}")
        for word in words:
            self.assertIn(word, result.stderr)

    def record_first_run(self):
        self.assertStatus(self.bench("history", "add", "--store", self.store, self.runs[0]), 0)
        return digest(self.store)

    def runs_in_store(self):
        result = self.bench("history", "list", "--store", self.store, "--format", "csv")
        self.assertStatus(result, 0)
        return [line.split(",")[2] for line in result.stdout.splitlines()[1:]]

    def test_adding_the_same_run_twice_keeps_it_once(self):
        self.record_first_run()
        again = self.bench("history", "add", "--store", self.store, self.runs[0])
        self.assertStatus(again, 0)
        self.assertIn("0 run(s) added, 1 already there", again.stdout)
        self.assertEqual(self.runs_in_store(), ["run1"])

    def test_two_processes_adding_at_once_both_land(self):
        processes = [subprocess.Popen([BENCH, "history", "add", "--store", self.store, path],
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                     for path in self.runs]
        for process in processes:
            out, err = process.communicate(timeout=120)
            self.assertEqual(process.returncode, 0, err)
        self.assertEqual(sorted(self.runs_in_store()), ["run1", "run2", "run3"])

    def test_a_results_file_that_cannot_be_read_records_nothing(self):
        before = self.record_first_run()
        broken = os.path.join(self.directory, "broken.csv")
        with open(broken, "w") as handle:
            handle.write("scene,views\r\nform,12\r\n")
        for files in ([broken], [self.runs[1], broken], [self.runs[1], "missing.csv"]):
            result = self.bench("history", "add", "--store", self.store, *files)
            self.assertStatus(result, 2, "bench history add:")
            self.assertEqual(digest(self.store), before, files)

    def test_a_file_that_is_not_a_database_is_refused_unchanged(self):
        with open(self.store, "w") as handle:
            handle.write("this is not SQLite\n" * 100)
        before = digest(self.store)
        for command in (["add", self.runs[0]], ["list"], ["regressions"],
                        ["show", "--scene", "form", "--phase", "build"]):
            result = self.bench("history", *command[:1], "--store", self.store, *command[1:])
            self.assertStatus(result, 2, "not a history store")
            self.assertEqual(digest(self.store), before)
        result = self.bench("publish", "--store", self.store, "--output", "site")
        self.assertStatus(result, 2, "not a history store")
        self.assertFalse(os.path.exists(os.path.join(self.directory, "site")))

    def test_a_store_of_a_newer_schema_is_refused_unchanged(self):
        self.record_first_run()
        connection = sqlite3.connect(self.store)
        connection.execute("INSERT INTO grdb_migrations (identifier) VALUES ('v99: later')")
        connection.commit()
        connection.close()
        before = digest(self.store)
        for command in (["add", self.runs[1]], ["list"]):
            result = self.bench("history", *command[:1], "--store", self.store, *command[1:])
            self.assertStatus(result, 2, "newer bench", "v99: later")
            self.assertEqual(digest(self.store), before)

    def test_a_store_locked_past_the_wait_is_refused_unchanged(self):
        before = self.record_first_run()
        holder = sqlite3.connect(self.store, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
        try:
            result = self.bench("history", "add", "--store", self.store, "--wait", "0.3",
                                self.runs[1])
            self.assertStatus(result, 2, "locked by another process")
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        self.assertEqual(digest(self.store), before)
        self.assertEqual(self.runs_in_store(), ["run1"])

    def test_a_read_only_store_is_refused_unchanged(self):
        folder = os.path.join(self.directory, "mounted")
        self.mount_tmpfs(folder)
        self.store = os.path.join(folder, "history.sqlite")
        before = self.record_first_run()
        self.remount_read_only(folder)
        result = self.bench("history", "add", "--store", self.store, self.runs[1])
        self.assertStatus(result, 2, "cannot be written")
        self.assertEqual(digest(self.store), before)
        # Reading a read-only store works.
        self.assertEqual(self.runs_in_store(), ["run1"])

    def test_reading_a_missing_store_creates_nothing(self):
        for command in (["list"], ["regressions"], ["show", "--scene", "form", "--phase", "build"]):
            result = self.bench("history", *command[:1], "--store", self.store, *command[1:])
            self.assertStatus(result, 2, "no history store here")
            self.assertFalse(os.path.exists(self.store))

    def test_bad_options_are_usage_errors(self):
        self.record_first_run()
        before = digest(self.store)
        for command in (
            ["show", "--scene", "froms", "--phase", "build"],
            ["show", "--scene", "form", "--phase", "build", "--variant", "two"],
            ["show", "--scene", "form", "--phase", "build", "--metric", "checksum"],
            ["regressions", "--tolerance", "-1"],
            ["list", "--format", "xml"],
        ):
            result = self.bench("history", *command[:1], "--store", self.store, *command[1:])
            self.assertStatus(result, 64)
            self.assertTrue(result.stderr.strip(), command)
            self.assertEqual(digest(self.store), before)

    def test_publish_refuses_bad_options_and_folders_it_did_not_write(self):
        self.record_first_run()
        for option in (["--minimum-time=-1"], ["--minimum-time", "1e20"], ["--tolerance", "nan"],
                       ["--ratio-threshold=-0.5"]):
            result = self.bench("publish", "--store", self.store, "--output", "site", *option)
            self.assertStatus(result, 64)
            self.assertFalse(os.path.exists(os.path.join(self.directory, "site")), option)
        # A folder with files of its own, the working directory among them, is never replaced.
        mine = os.path.join(self.directory, "mine")
        os.makedirs(mine)
        with open(os.path.join(mine, "notes.txt"), "w") as handle:
            handle.write("keep me")
        for output, cwd in ((mine, self.directory), (".", mine)):
            result = subprocess.run([BENCH, "publish", "--store", self.store, "--output", output],
                                    capture_output=True, text=True, timeout=120, cwd=cwd)
            self.assertStatus(result, 2, "an earlier publish did not write")
            self.assertEqual(os.listdir(mine), ["notes.txt"])
        # A store path that is a folder is named as one.
        result = self.bench("history", "list", "--store", self.directory)
        self.assertStatus(result, 2, "is a folder, not a history store")

    def test_import_refuses_a_folder_that_is_not_a_repository_and_a_damaged_store(self):
        result = self.bench("history", "import", "--store", self.store, "--repository",
                            self.directory)
        self.assertStatus(result, 2, "is not a git repository")
        self.assertFalse(os.path.exists(self.store))
        with open(self.store, "w") as handle:
            handle.write("not SQLite either\n" * 50)
        before = digest(self.store)
        result = self.bench("history", "import", "--store", self.store, "--repository", ROOT)
        self.assertStatus(result, 2, "not a history store")
        self.assertEqual(digest(self.store), before)

    def test_show_names_what_it_cannot_find(self):
        self.record_first_run()
        result = self.bench("history", "show", "--store", self.store, "--scene", "form",
                            "--phase", "build", "--views", "77")
        self.assertStatus(result, 2, "no cell of form in phase build")
        result = self.bench("history", "show", "--store", self.store, "--scene", "form",
                            "--phase", "build", "--machine", "a toaster")
        self.assertStatus(result, 2, "no runs on machine 'a toaster'")

    def test_regressions_are_the_changes_between_the_commits(self):
        for path in self.runs:
            self.assertStatus(self.bench("history", "add", "--store", self.store, path), 0)
        result = self.bench("history", "regressions", "--store", self.store, "--format", "csv")
        self.assertStatus(result, 0)
        lines = result.stdout.splitlines()
        self.assertEqual(lines[0], "commit,previous,cell,figure,before,after,machine")
        found = [line.split(",") for line in lines[1:]]
        figures = {(fields[0], fields[3]) for fields in found}
        self.assertIn(("bbbbbbb", "allocated_bytes"), figures)
        self.assertIn(("bbbbbbb", "checksum"), figures)
        self.assertIn(("bbbbbbb", "status"), figures)
        for fields in found:
            if fields[3] == "allocated_bytes":
                self.assertTrue(fields[2].startswith("form/standard/"), fields)
                self.assertIn("/sparse/", fields[2])
            if fields[3] == "checksum":
                self.assertEqual(fields[2], "chain/standard/50/sparse/incremental/build")
            if fields[3] == "status":
                self.assertTrue(fields[2].startswith("stack-grid/standard/100/plan/"), fields)
        # Nothing changed in the deterministic figures from the second commit to the third.
        self.assertFalse(any(fields[0] == "ccccccc" and not fields[3].startswith("time")
                             for fields in found))

    def mount_tmpfs(self, folder):
        if os.geteuid() != 0:
            self.skip_or_fail("mounting a tmpfs needs root")
        os.makedirs(folder)
        mounted = subprocess.run(["mount", "-t", "tmpfs", "tmpfs", folder], capture_output=True,
                                 text=True)
        if mounted.returncode != 0:
            self.skip_or_fail(f"cannot mount a tmpfs: {mounted.stderr.strip()}")
        self.addCleanup(subprocess.run, ["umount", "-l", folder], capture_output=True)

    def remount_read_only(self, folder):
        remounted = subprocess.run(["mount", "-o", "remount,ro", folder], capture_output=True,
                                   text=True)
        if remounted.returncode != 0:
            self.skip_or_fail(f"cannot remount read-only: {remounted.stderr.strip()}")

    def test_publish_replaces_a_site_and_leaves_it_whole_when_it_cannot_write(self):
        for path in self.runs:
            self.assertStatus(self.bench("history", "add", "--store", self.store, path), 0)
        folder = os.path.join(self.directory, "mounted")
        self.mount_tmpfs(folder)
        site = os.path.join(folder, "site")
        self.assertStatus(self.bench("publish", "--store", self.store, "--output", site), 0)
        with open(os.path.join(site, "stale.html"), "w") as handle:
            handle.write("from an older publish")
        self.assertStatus(self.bench("publish", "--store", self.store, "--output", site), 0)
        self.assertFalse(os.path.exists(os.path.join(site, "stale.html")),
                         "publish keeps pages of an older site")
        pages = {name: digest(os.path.join(site, name)) for name in os.listdir(site)}
        self.remount_read_only(folder)
        result = self.bench("publish", "--store", self.store, "--output", site)
        self.assertStatus(result, 74, "bench publish")
        self.assertEqual({name: digest(os.path.join(site, name)) for name in os.listdir(site)},
                         pages)


if __name__ == "__main__":
    unittest.main()
