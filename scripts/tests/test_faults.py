"""Fault injection against the `bench` binary: full file systems, unwritable and odd output paths,
interrupts, resource budgets and malformed input. Run: python3 -m unittest discover -s scripts/tests

The binary is $BENCH (default: .build/debug/bench of this repository). Without it the tests are
skipped, or fail when $CI is set. Mounting tmpfs needs root; those cases are skipped without it.
$BENCH_TEST_TIME_SCALE (default 1) multiplies every time limit, for a slow or loaded machine.

The contract (exit statuses): 0 ok; 1 a regression or a failed check (`solve`: unsatisfiable); 2
bad input or unreadable input files; 3 refused for a budget; 4 improvements only; 64 usage; 70
internal failure; 74 I/O failure; 130 interrupted by SIGINT, 143 by SIGTERM. Every message names
the file; stderr never shows a raw Foundation error. No file under a final name is ever
incomplete, and no temporary file is left behind, except `NAME.partial` of `bench run` (whole CSV
rows only, named on stderr).
"""

import csv
import os
import re
import resource
import shutil
import signal
import stat
import subprocess
import tempfile
import threading
import time
import unittest
import unittest.mock

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BENCH = os.path.abspath(os.environ.get("BENCH") or os.path.join(REPO, ".build", "debug", "bench"))
TIME_SCALE = float(os.environ.get("BENCH_TEST_TIME_SCALE") or 1)
# What a message must never show: Foundation's error descriptions.
FOREIGN_ERRORS = ("Error Domain", "NSCocoaErrorDomain", "Code=")
# A run that would take long (minutes in a debug build) if it measured before checking its output.
SLOW_RUN = ["run", "--scenes", "form", "--sizes", "1000", "--quiet"]
# A quick one (a few seconds in a debug build) whose CSV is about 12 KB, more than the 8 KiB a
# full file system or the file-size limit leaves: the CSV itself cannot be written whole.
SMALL_RUN = ["run", "--scenes", "flat", "--sizes", "20,50", "--solvers", "sparse,dense",
             "--modes", "incremental,full", "--repetitions", "3", "--warmup", "0", "--min-time",
             "0", "--rounds", "1", "--quiet"]


def seconds(limit):
    return limit * TIME_SCALE


def signal_name(status):
    try:
        return signal.Signals(-status).name
    except ValueError:
        return f"signal {-status}"


class Result:
    """A finished command: its arguments, exit status, output and how long it took."""

    def __init__(self, args, status, stdout, stderr, elapsed):
        self.args, self.status, self.stdout, self.stderr, self.elapsed = (
            args, status, stdout, stderr, elapsed)

    def describe(self):
        status = (f"killed by {signal_name(self.status)} (no exit status)" if self.status < 0
                  else f"exit status {self.status}")
        stderr = self.stderr if len(self.stderr) < 3000 else "…" + self.stderr[-3000:]
        return (f"\n  command: {' '.join(self.args)}\n  {status} after {self.elapsed:.1f} s"
                f"\n  stderr:\n{stderr.rstrip() or '  (empty)'}")


def process_table():
    """(pid, parent pid, pgid, state, command line) of every process, from /proc."""
    table = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as file:
                fields = file.read().rpartition(")")[2].split()
            with open(f"/proc/{entry}/cmdline", "rb") as file:
                command = file.read().replace(b"\0", b" ").decode(errors="replace").strip()
        except OSError:
            continue
        table.append((int(entry), int(fields[1]), int(fields[2]), fields[0], command))
    return table


def live_processes(pgid=None, mentioning=None, parent=None):
    """(pid, command line) of the processes (not zombies) in the group `pgid`, or whose command
    line contains `mentioning`, or whose parent is `parent`, other than this one."""
    return [(pid, command) for pid, ppid, group, state, command in process_table()
            if state != "Z" and pid != os.getpid()
            and ((pgid is not None and group == pgid)
                 or (mentioning is not None and mentioning in command)
                 or (parent is not None and ppid == parent))]


def kill_group(pgid):
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def set_file_size_limit(limit):
    """For preexec_fn: writes past `limit` bytes fail with EFBIG instead of killing the process
    (the ignored SIGXFSZ survives exec)."""
    def apply():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return apply


def temporary_names(directory, allowed=()):
    """The files under `directory` named like temporary files ('.x', 'x.tmp', 'x.partial'),
    except `allowed` (absolute paths)."""
    found = []
    for folder, folders, files in os.walk(directory):
        for name in files + folders:
            path = os.path.join(folder, name)
            if path in allowed:
                continue
            if name.startswith(".") or name.endswith((".tmp", ".partial")):
                found.append(path)
    return found


def listing(directory):
    """Every path under `directory`, relative to it."""
    paths = []
    for folder, folders, files in os.walk(directory):
        paths += [os.path.relpath(os.path.join(folder, name), directory)
                  for name in folders + files]
    return sorted(paths)


class BenchTestCase(unittest.TestCase):
    """Runs bench; helpers for the contract's assertions."""

    maxDiff = None

    def setUp(self):
        if not os.access(BENCH, os.X_OK):
            message = (f"no bench binary at {BENCH} (set BENCH, or run "
                       "`swift build --product bench`)")
            if os.environ.get("CI"):
                self.fail(message)
            self.skipTest(message)
        self.bench = BENCH

    def skip_or_fail(self, message):
        """Skips a case this machine cannot set up, except under CI (set `CI`), where a case
        that cannot run is a failure: CI runs as root and must run them all."""
        if os.environ.get("CI"):
            self.fail(message)
        self.skipTest(message)

    def temp_dir(self):
        directory = os.path.realpath(tempfile.mkdtemp(prefix="bench-faults-"))
        self.addCleanup(shutil.rmtree, directory, ignore_errors=True)
        return directory

    def copy_bench(self, directory):
        """A copy of the binary in `directory` (its own path marks its processes)."""
        os.makedirs(directory, exist_ok=True)
        path = os.path.join(directory, "bench")
        shutil.copy2(self.bench, path)
        return path

    def mount_tmpfs(self, directory, options):
        os.makedirs(directory, exist_ok=True)
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", directory],
                                 capture_output=True, text=True)
        if mounted.returncode != 0:
            self.skip_or_fail(f"cannot mount a tmpfs ({options}) at {directory} (needs root): "
                              f"{mounted.stderr.strip()}")
        self.addCleanup(self.unmount, directory)

    @staticmethod
    def unmount(directory):
        if subprocess.run(["umount", directory], capture_output=True).returncode != 0:
            subprocess.run(["umount", "-l", directory], capture_output=True)

    def bench_command(self, args, binary=None, cwd=None, stdin=None, stdout=None, preexec=None,
                      timeout=120):
        """Runs `binary args` (bench by default) in its own process group; returns a Result. A
        run past `timeout` seconds (scaled) is killed, with its group, and fails the test."""
        command = [binary or self.bench] + [str(arg) for arg in args]
        stdin_file = stdin
        if isinstance(stdin, str):
            stdin_file = subprocess.PIPE
        started = time.monotonic()
        process = subprocess.Popen(
            command, cwd=cwd, stdin=stdin_file if stdin_file is not None else subprocess.DEVNULL,
            stdout=stdout if stdout is not None else subprocess.PIPE, stderr=subprocess.PIPE,
            start_new_session=True, preexec_fn=preexec)
        timed_out = False
        try:
            out, err = process.communicate(
                input=stdin.encode() if isinstance(stdin, str) else None,
                timeout=seconds(timeout))
        except subprocess.TimeoutExpired:
            timed_out = True
            kill_group(process.pid)
            out, err = process.communicate()
        finally:
            # Whatever it left in its group (the group outlives its reaped leader only while a
            # member lives, so these are its own).
            if process.poll() is None or live_processes(process.pid):
                kill_group(process.pid)
                process.wait()
        result = Result(command, process.returncode, (out or b"").decode(errors="replace"),
                        (err or b"").decode(errors="replace"), time.monotonic() - started)
        if timed_out:
            self.fail(f"did not finish within {seconds(timeout):.0f} s (killed):"
                      + result.describe())
        self.assertNoForeignError(result)
        return result

    # Assertions.

    def assertNoForeignError(self, result):
        for fragment in FOREIGN_ERRORS:
            self.assertNotIn(fragment, result.stderr,
                             f"stderr shows a raw Foundation error ({fragment!r}):"
                             + result.describe())

    def assertStatus(self, result, status, *fragments):
        """Exit status `status`, and stderr contains every fragment."""
        self.assertEqual(result.status, status, f"expected exit status {status}:"
                         + result.describe())
        for fragment in fragments:
            self.assertIn(fragment, result.stderr,
                          f"stderr does not contain {fragment!r}:" + result.describe())

    def assertQuick(self, result, limit):
        self.assertLess(result.elapsed, seconds(limit),
                        f"took {result.elapsed:.1f} s, more than {seconds(limit):.0f} s (it "
                        "should fail before measuring):" + result.describe())

    def assertAbsent(self, path, result=None):
        self.assertFalse(os.path.lexists(path), f"{path} exists, and must not"
                         + (":" + result.describe() if result else ""))

    def assertNoTemporaryFiles(self, directory, result=None, allowed=()):
        found = temporary_names(directory, allowed)
        self.assertEqual(found, [], f"temporary files left in {directory}"
                         + (":" + result.describe() if result else ""))

    def assertWholeRows(self, path, result=None):
        """`path` holds a CSV of whole rows: a header, every line as many fields, a final
        newline."""
        context = ":" + result.describe() if result else ""
        self.assertTrue(os.path.isfile(path), f"{path} does not exist" + context)
        with open(path, newline="") as file:
            text = file.read()
        self.assertTrue(text.endswith("\n"), f"{path} does not end with a newline (a cut row): "
                        f"…{text[-200:]!r}" + context)
        rows = list(csv.reader(text.splitlines()))
        self.assertTrue(rows and rows[0] and rows[0][0] == "run_id",
                        f"{path} does not start with the header: {text[:200]!r}" + context)
        for number, row in enumerate(rows[1:], 2):
            self.assertEqual(len(row), len(rows[0]),
                             f"{path}:{number} has {len(row)} fields, the header "
                             f"{len(rows[0])}: {row}" + context)
        return rows


# A small results CSV, made once for the tests that read one.
_fixtures = {}


def setUpModule():
    _fixtures["directory"] = os.path.realpath(tempfile.mkdtemp(prefix="bench-faults-fixtures-"))


def tearDownModule():
    shutil.rmtree(_fixtures.pop("directory"), ignore_errors=True)


def small_results_csv(case):
    """A results CSV of a quick run (flat, 20 and 40 views, sparse): an absolute path."""
    if "results" not in _fixtures:
        path = os.path.join(_fixtures["directory"], "small.csv")
        result = case.bench_command(
            ["run", "--scenes", "flat", "--sizes", "20,40", "--solvers", "sparse", "--modes",
             "incremental", "--phases", "build,first-solve,resize", "--repetitions", "2",
             "--warmup", "0", "--min-time", "0", "--rounds", "1", "--quiet", "--output", path],
            cwd=_fixtures["directory"])
        case.assertStatus(result, 0)
        case.assertWholeRows(path, result)
        _fixtures["results"] = path
    return _fixtures["results"]


class FullFileSystemTests(BenchTestCase):
    """1. Writes that run out of space (an 8 KiB tmpfs) or past the file-size limit."""

    def check_run(self, directory, result, message):
        output = os.path.join(directory, "out.csv")
        partial = output + ".partial"
        self.assertStatus(result, 74, message)
        self.assertAbsent(output, result)
        self.assertWholeRows(partial, result)
        self.assertIn(partial, result.stderr, "stderr does not name the .partial file:"
                      + result.describe())
        self.assertNoTemporaryFiles(directory, result, allowed=(partial,))

    def check_export(self, directory, result, message):
        output = os.path.join(directory, "x.constraints")
        self.assertStatus(result, 74, message, output)
        self.assertAbsent(output, result)
        self.assertNoTemporaryFiles(directory, result)

    def full_tmpfs(self):
        directory = os.path.join(self.temp_dir(), "full")
        self.mount_tmpfs(directory, "size=8k")
        return directory

    def test_run_on_a_full_file_system(self):
        directory = self.full_tmpfs()
        result = self.bench_command(SMALL_RUN + ["--output", f"{directory}/out.csv"])
        self.check_run(directory, result, "No space left on device")

    def test_export_on_a_full_file_system(self):
        directory = self.full_tmpfs()
        result = self.bench_command(
            ["export", "form", "--views", "2000", "--output", f"{directory}/x.constraints"])
        self.check_export(directory, result, "No space left on device")

    def test_run_when_only_the_files_beside_the_csv_do_not_fit(self):
        # At 50 views alone the CSV (about 6 KB) fits, and the slopes CSV or the plots beside it
        # do not. The contract does not say whether the complete CSV stays: it may, whole.
        directory = self.full_tmpfs()
        output = f"{directory}/out.csv"
        args = SMALL_RUN[:]
        args[args.index("--sizes") + 1] = "50"
        result = self.bench_command(args + ["--output", output])
        self.assertStatus(result, 74, "No space left on device")
        if os.path.exists(output):
            self.assertWholeRows(output, result)
            self.assertNoTemporaryFiles(directory, result)
        else:
            self.assertWholeRows(output + ".partial", result)
            self.assertNoTemporaryFiles(directory, result, allowed=(output + ".partial",))

    def test_run_past_the_file_size_limit(self):
        directory = self.temp_dir()
        result = self.bench_command(SMALL_RUN + ["--output", f"{directory}/out.csv"],
                                    preexec=set_file_size_limit(8192))
        self.check_run(directory, result, "File too large")

    def test_export_past_the_file_size_limit(self):
        directory = self.temp_dir()
        result = self.bench_command(
            ["export", "form", "--views", "2000", "--output", f"{directory}/x.constraints"],
            preexec=set_file_size_limit(8192))
        self.check_export(directory, result, "File too large")


def full_device_problem(path="/dev/full"):
    """Why `path` is not the full device (character device 1, 7), or None."""
    try:
        status = os.lstat(path)
    except OSError as error:
        return f"{path}: {error.strerror}"
    if not stat.S_ISCHR(status.st_mode) or status.st_rdev != os.makedev(1, 7):
        return f"{path} is not the full device (character device 1, 7)"
    return None


def make_full_device(path):
    """Makes `path` the full device, replacing whatever is there (as root)."""
    if os.path.lexists(path):
        os.remove(path)
    os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 7))
    os.chmod(path, 0o666)


class DevFullTests(BenchTestCase):
    """2. /dev/full as the output file, and as standard output.

    As root, a rename of `x.partial` over /dev/full would replace the device with a regular file:
    the output case runs first on a device node of its own in a temporary folder, and /dev/full
    is put back if a run replaced it."""

    def setUp(self):
        super().setUp()
        problem = full_device_problem()
        if problem and os.geteuid() == 0:
            make_full_device("/dev/full")
            problem = full_device_problem()
        if problem:
            self.skip_or_fail(problem)
        self.addCleanup(self.restore_dev_full)

    def restore_dev_full(self):
        if full_device_problem():
            make_full_device("/dev/full")
            self.fail("/dev/full was replaced by the run (it has been made again)")

    def test_export_output_dev_full_is_a_usage_error(self):
        own = os.path.join(self.temp_dir(), "full")
        try:
            make_full_device(own)
        except OSError as error:
            self.skip_or_fail(f"cannot make a device node at {own}: {error.strerror}")
        for device in (own, "/dev/full"):
            result = self.bench_command(["export", "form", "--views", "100", "--output", device])
            replaced = full_device_problem(device)
            if replaced and device == "/dev/full":
                make_full_device(device)
            self.assertIsNone(replaced, "the run replaced the device:" + result.describe())
            self.assertStatus(result, 64, device, "not a regular file")

    def test_export_to_standard_output_on_dev_full(self):
        with open("/dev/full", "wb") as full:
            result = self.bench_command(["export", "form", "--views", "100"], stdout=full)
        self.assertStatus(result, 74, "standard output")

    def test_scenes_to_standard_output_on_dev_full(self):
        with open("/dev/full", "wb") as full:
            result = self.bench_command(["scenes"], stdout=full)
        self.assertStatus(result, 74, "standard output")


class ReadOnlyFolderTests(BenchTestCase):
    """3. Outputs in a read-only file system (as root, chmod would not stop the writes)."""

    def setUp(self):
        super().setUp()
        self.root = self.temp_dir()
        self.readonly = os.path.join(self.root, "ro")
        self.mount_tmpfs(self.readonly, "ro")

    def check(self, result):
        self.assertStatus(result, 74, self.readonly)
        self.assertQuick(result, 5)
        self.assertEqual(listing(self.readonly), [], "something was written:"
                         + result.describe())

    def test_run(self):
        result = self.bench_command(SLOW_RUN + ["--output", f"{self.readonly}/sub/out.csv"],
                                    cwd=self.root, timeout=15)
        self.check(result)
        self.assertEqual(listing(self.root), ["ro"], "run wrote beside its output:"
                         + result.describe())

    def test_export(self):
        result = self.bench_command(
            ["export", "form", "--output", f"{self.readonly}/x.constraints"], timeout=15)
        self.check(result)

    def test_report(self):
        results = small_results_csv(self)
        result = self.bench_command(["report", results, "--output", f"{self.readonly}/r.md",
                                     "--plots", f"{self.readonly}/p"], cwd=self.root, timeout=15)
        self.check(result)

    def test_report_writes_no_plots_when_its_report_cannot_be_written(self):
        results = small_results_csv(self)
        plots = os.path.join(self.root, "p")
        result = self.bench_command(["report", results, "--output", f"{self.readonly}/r.md",
                                     "--plots", plots], cwd=self.root, timeout=15)
        self.check(result)
        self.assertAbsent(plots, result)


class MissingFolderTests(BenchTestCase):
    """4. Outputs in folders that do not exist yet: they are made."""

    def setUp(self):
        super().setUp()
        self.root = self.temp_dir()
        self.results = small_results_csv(self)

    def check(self, result, *paths):
        self.assertStatus(result, 0)
        for path in paths:
            self.assertTrue(os.path.exists(path), f"{path} was not written:" + result.describe())
        self.assertNoTemporaryFiles(self.root, result)

    def test_run(self):
        output = f"{self.root}/a/b/run/out.csv"
        result = self.bench_command(
            ["run", "--scenes", "flat", "--sizes", "20", "--solvers", "sparse", "--modes",
             "incremental", "--phases", "build", "--repetitions", "1", "--warmup", "0",
             "--min-time", "0", "--rounds", "1", "--quiet", "--output", output], cwd=self.root)
        self.check(result, output)
        self.assertWholeRows(output, result)

    def test_export(self):
        output = f"{self.root}/a/b/export/x.constraints"
        self.check(self.bench_command(["export", "form", "--views", "20", "--output", output]),
                   output)

    def test_report(self):
        output, plots = f"{self.root}/a/b/report/r.md", f"{self.root}/a/b/plots/p"
        self.check(self.bench_command(["report", self.results, "--output", output, "--plots",
                                       plots], cwd=self.root), output, plots)

    def test_plot(self):
        output = f"{self.root}/a/b/plot/p.svg"
        self.check(self.bench_command(["plot", self.results, "--output", output]), output)

    def test_compare_markdown(self):
        output = f"{self.root}/a/b/compare/c.md"
        self.check(self.bench_command(["compare", self.results, self.results, "--markdown",
                                       output]), output)


class DirectoryOutputTests(BenchTestCase):
    """5. An output path that is a directory: a usage error, before any work."""

    def setUp(self):
        super().setUp()
        self.root = self.temp_dir()
        self.directory = os.path.join(self.root, "dir")
        os.mkdir(self.directory)
        self.cwd = os.path.join(self.root, "cwd")
        os.mkdir(self.cwd)

    def check(self, result, before):
        self.assertStatus(result, 64, self.directory)
        self.assertIn("is a directory", result.stderr.lower(),
                      "stderr does not say it is a directory:" + result.describe())
        self.assertQuick(result, 5)
        self.assertAbsent(self.directory + ".partial", result)
        self.assertEqual(listing(self.root), before, "new files were written:"
                         + result.describe())

    def test_export(self):
        before = listing(self.root)
        self.check(self.bench_command(["export", "form", "--output", self.directory],
                                      cwd=self.cwd, timeout=15), before)

    def test_run(self):
        before = listing(self.root)
        self.check(self.bench_command(SLOW_RUN + ["--output", self.directory], cwd=self.cwd,
                                      timeout=15), before)

    def test_plot(self):
        results = small_results_csv(self)
        before = listing(self.root)
        self.check(self.bench_command(["plot", results, "--output", self.directory],
                                      cwd=self.cwd, timeout=15), before)

    def test_report(self):
        results = small_results_csv(self)
        before = listing(self.root)
        self.check(self.bench_command(["report", results, "--output", self.directory,
                                       "--plots", f"{self.root}/plots"], cwd=self.cwd,
                                      timeout=15), before)


class EmptyOutputTests(BenchTestCase):
    """6. `--output ""`: a usage error before measuring."""

    def test_run_with_an_empty_output(self):
        cwd = self.temp_dir()
        result = self.bench_command(SLOW_RUN + ["--output", ""], cwd=cwd, timeout=15)
        self.assertStatus(result, 64)
        self.assertQuick(result, 5)
        partial = [path for path in listing(cwd) if path.endswith(".partial")]
        self.assertEqual(partial, [], "a .partial file was written:" + result.describe())


class Running:
    """A bench (or script) started in its own process group, its stderr collected as it comes.
    At the test's end the group is killed, and so is any process whose command line contains
    `marker` (a temporary folder of the test: children can be in groups of their own)."""

    def __init__(self, case, command, cwd=None, marker=None):
        self.case, self.command, self.marker = case, [str(arg) for arg in command], marker
        self.started = time.monotonic()
        self.process = subprocess.Popen(self.command, cwd=cwd, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                        start_new_session=True)
        self.pgid = self.process.pid
        self.exited = None
        self.lines = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        case.addCleanup(self.kill)

    def _read(self):
        with self.process.stderr:
            for line in self.process.stderr:
                self.lines.append(line.decode(errors="replace"))

    @property
    def stderr(self):
        return "".join(self.lines)

    def describe(self):
        status = self.process.poll()
        text = "still running" if status is None else (
            f"killed by {signal_name(status)} (no exit status)" if status < 0
            else f"exit status {status}")
        return (f"\n  command: {' '.join(self.command)}\n  {text} after "
                f"{time.monotonic() - self.started:.1f} s\n  stderr:\n"
                f"{self.stderr[-3000:].rstrip() or '  (empty)'}")

    def wait_until(self, condition, timeout, what):
        """Polls `condition` until it holds; fails (killing the run) when `timeout` seconds
        (scaled) pass or the run ends first."""
        deadline = time.monotonic() + seconds(timeout)
        while not condition():
            if self.process.poll() is not None:
                self.case.fail(f"ended before {what}:" + self.describe())
            if time.monotonic() > deadline:
                self.kill()
                self.case.fail(f"not {what} within {seconds(timeout):.0f} s:" + self.describe())
            time.sleep(0.05)

    def finish(self, timeout=30):
        """Waits for the exit, then for the stderr pipe to close; returns a Result."""
        try:
            self.process.wait(timeout=seconds(timeout))
        except subprocess.TimeoutExpired:
            description = self.describe()
            self.kill()
            self.case.fail(f"did not exit within {seconds(timeout):.0f} s of the signal:"
                           + description)
        self.exited = time.monotonic()
        # A child left running may hold the pipe open: stderr is then what came so far.
        self.reader.join(timeout=5)
        result = Result(self.command, self.process.returncode, "", self.stderr,
                        time.monotonic() - self.started)
        self.case.assertNoForeignError(result)
        return result

    def kill(self):
        """Ends the run and what it left: its group while the group exists (a group id is not
        given to another process while a member lives), and the processes naming `marker`."""
        if self.process.poll() is None or live_processes(self.pgid):
            kill_group(self.pgid)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        if self.marker:
            for pid, _ in live_processes(mentioning=self.marker):
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass

    def assertNothingLeft(self, result, mentioning):
        """Within 5 s no process is left in the group, and none whose command line mentions
        `mentioning`."""
        deadline = self.exited + seconds(5)
        while True:
            left = live_processes(self.pgid, mentioning)
            if not left or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        if left:
            kill_group(self.pgid)
            for pid, _ in left:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        self.case.assertEqual(
            left, [], f"processes left 5 s after the exit (group {self.pgid}, or naming "
            f"{mentioning}):" + result.describe())


class InterruptTests(BenchTestCase):
    """7. SIGINT and SIGTERM, to the process group and to the parent alone."""

    def setUp(self):
        super().setUp()
        self.root = self.temp_dir()

    # bench run, three rounds (each in a child process).

    def start_run(self):
        output = os.path.join(self.root, "out.csv")
        # Sparse only, so that a round takes seconds in a debug build (dense takes ~25 s at 200
        # views); --min-time keeps each round at least 8 phases x 0.25 s long, the window in
        # which the signal comes.
        running = Running(self, [self.bench, "run", "--scenes", "flat", "--sizes", "200",
                                 "--solvers", "sparse", "--modes", "incremental", "--rounds", "3",
                                 "--min-time", "0.25", "--output", output], cwd=self.root,
                          marker=self.root)

        def second_round():
            if re.search(r"round 2", running.stderr):
                return True
            try:
                with open(output + ".partial") as file:
                    return len(file.readlines()) > 1
            except OSError:
                return False
        running.wait_until(second_round, 90, "a round finished (`round 2` on stderr or rows "
                           "in the .partial file)")
        return running, output

    def check_run(self, running, output, status):
        result = running.finish()
        self.assertStatus(result, status)
        running.assertNothingLeft(result, output)
        self.assertAbsent(output, result)
        rows = self.assertWholeRows(output + ".partial", result)
        self.assertGreater(len(rows), 1, "the first round's rows are not in the .partial file:"
                           + result.describe())
        self.assertIn(output + ".partial", result.stderr,
                      "stderr does not name the .partial file:" + result.describe())
        rounds = [name for name in os.listdir(self.root) if name.startswith("out.csv.round")]
        self.assertEqual(rounds, [], "round files left:" + result.describe())
        self.assertNoTemporaryFiles(self.root, result, allowed=(output + ".partial",))

    def test_run_sigint_to_the_group(self):
        running, output = self.start_run()
        os.killpg(running.pgid, signal.SIGINT)
        self.check_run(running, output, 130)

    def test_run_sigterm_to_the_group(self):
        running, output = self.start_run()
        os.killpg(running.pgid, signal.SIGTERM)
        self.check_run(running, output, 143)

    def test_run_sigterm_to_the_parent_alone(self):
        running, output = self.start_run()
        os.kill(running.pgid, signal.SIGTERM)
        self.check_run(running, output, 143)

    # bench ab: children run rounds of each build.

    def start_ab(self):
        first = self.copy_bench(os.path.join(self.root, "bin1"))
        second = self.copy_bench(os.path.join(self.root, "bin2"))
        directory = os.path.join(self.root, "ab")
        running = Running(self, [self.bench, "ab", first, second, "--scenes", "flat", "--sizes",
                                 "200", "--corroborate", "none", "--output-directory", directory],
                          cwd=self.root, marker=self.root)
        # The children may be in process groups of their own: they are found by their paths.
        running.wait_until(
            lambda: any(command.startswith((first + " ", second + " "))
                        for _, command in live_processes(mentioning=self.root)), 60,
            "a child run started")
        time.sleep(1)
        return running, directory

    def check_ab(self, running, directory, status):
        result = running.finish()
        self.assertStatus(result, status)
        running.assertNothingLeft(result, self.root)
        self.assertAbsent(os.path.join(directory, "rounds"), result)
        for name in ("baseline.csv", "current.csv"):
            self.assertAbsent(os.path.join(directory, name), result)
        # The contract keeps a .partial file for `bench run` only; ab may keep the rounds
        # measured so far the same way: whole rows, and named on stderr.
        partial = [os.path.join(directory, name) for name in ("baseline.csv.partial",
                                                              "current.csv.partial")]
        for path in partial:
            if os.path.exists(path):
                self.assertWholeRows(path, result)
                self.assertIn(os.path.basename(path), result.stderr,
                              f"stderr does not name {path}:" + result.describe())
        self.assertNoTemporaryFiles(self.root, result, allowed=partial)

    def test_ab_sigint_to_the_group(self):
        running, directory = self.start_ab()
        os.killpg(running.pgid, signal.SIGINT)
        self.check_ab(running, directory, 130)

    def test_ab_sigterm_to_the_group(self):
        running, directory = self.start_ab()
        os.killpg(running.pgid, signal.SIGTERM)
        self.check_ab(running, directory, 143)

    def test_ab_sigterm_to_the_parent_alone(self):
        running, directory = self.start_ab()
        os.kill(running.pgid, signal.SIGTERM)
        self.check_ab(running, directory, 143)

    # bench run --callgrind: the child runs under valgrind.

    @unittest.skipUnless(shutil.which("valgrind"), "valgrind is not on the PATH")
    def test_callgrind_run_sigint_to_the_group(self):
        output = os.path.join(self.root, "cg.csv")
        running = Running(self, [self.bench, "run", "--callgrind", "--scenes", "flat", "--sizes",
                                 "50", "--solvers", "sparse", "--modes", "incremental",
                                 "--output", output], cwd=self.root, marker=self.root)
        # valgrind may be in a process group of its own: it is bench's child running valgrind.
        found = []

        def valgrind_started():
            found[:] = [(pid, command) for pid, command in live_processes(parent=running.pgid)
                        if "valgrind" in command]
            return bool(found)
        running.wait_until(valgrind_started, 60, "valgrind started")
        time.sleep(1)
        os.killpg(running.pgid, signal.SIGINT)
        result = running.finish()
        self.assertStatus(result, 130)
        running.assertNothingLeft(result, output)
        valgrind = [(pid, command) for pid, command in live_processes(mentioning="valgrind")
                    if (pid, command) in found or self.root in command]
        self.assertEqual(valgrind, [], "valgrind processes left:" + result.describe())
        self.assertAbsent(output, result)


class BudgetTests(BenchTestCase):
    """8. The dense solver refuses a system over its memory budget, before building it."""

    def test_dense_solve_of_a_100000_view_chain(self):
        root = self.temp_dir()
        constraints = os.path.join(root, "chain.constraints")
        exported = self.bench_command(["export", "chain", "--views", "100000", "--output",
                                       constraints], timeout=120)
        self.assertStatus(exported, 0)
        # Reading the file alone takes ~7 s in a debug build.
        result = self.bench_command(["solve", constraints, "--solver", "dense"], timeout=15)
        self.assertStatus(result, 3, "memory budget")
        self.assertLess(result.elapsed, seconds(10), "the refusal came late:" + result.describe())
        self.assertEqual(result.stdout, "", "stdout is not empty:" + result.describe())


class SolveInputTests(BenchTestCase):
    """9.-11. `bench solve` on overflowing numbers, priorities and empty input."""

    def solve(self, text):
        return self.bench_command(["solve", "-"], stdin=text, timeout=30)

    def test_an_overflowing_constant_is_malformed_input(self):
        result = self.solve("x == -1e308 - 1e308\n")
        self.assertStatus(result, 2)
        self.assertRegex(result.stderr, r"^-:1:\d+:", "no line and column:" + result.describe())
        self.assertNotIn("v0", result.stderr, "the message shows an internal name:"
                         + result.describe())

    def test_an_overflowing_coefficient_is_malformed_input(self):
        result = self.solve("x + 1e308 * y + 1e308 * y == 0\n")
        self.assertStatus(result, 2)
        self.assertRegex(result.stderr, r"^-:1:\d+:", "no line and column:" + result.describe())

    def test_priorities_below_floats_normal_range_are_read_alike(self):
        first = self.solve("x == 1 @1e-45\n")
        second = self.solve("x == 1 @1.4e-45\n")
        self.assertStatus(first, 2)
        self.assertStatus(second, 2)

    def test_a_priority_and_its_single_precision_spelling_are_read_alike(self):
        for text in ("x == 1 @0.1\n", "x == 1 @0.10000000149011612\n"):
            self.assertStatus(self.solve(text), 0)

    def test_an_empty_file_solves(self):
        result = self.bench_command(["solve", "/dev/null"], timeout=30)
        self.assertStatus(result, 0)
        self.assertEqual(result.stdout, "", "stdout is not empty:" + result.describe())

    def test_empty_standard_input_solves(self):
        with open(os.devnull, "rb") as null:
            result = self.bench_command(["solve", "-"], stdin=null, timeout=30)
        self.assertStatus(result, 0)
        self.assertEqual(result.stdout, "", "stdout is not empty:" + result.describe())


class ByteOrderMarkTests(BenchTestCase):
    """12. A results CSV that starts with a UTF-8 byte order mark reads as without it."""

    def setUp(self):
        super().setUp()
        root = self.temp_dir()
        baseline = os.path.join(REPO, "results", "baseline-quick.csv")
        if not os.path.isfile(baseline):
            self.skipTest(f"no {baseline}")
        with open(baseline, "rb") as file:
            data = file.read()
        self.plain = os.path.join(root, "plain.csv")
        self.marked = os.path.join(root, "marked.csv")
        with open(self.plain, "wb") as file:
            file.write(data)
        with open(self.marked, "wb") as file:
            file.write(b"\xef\xbb\xbf" + data)

    def test_both_files_marked(self):
        self.assertStatus(self.bench_command(["compare", self.marked, self.marked]), 0)

    def test_one_file_marked(self):
        self.assertStatus(self.bench_command(["compare", self.marked, self.plain]), 0)
        self.assertStatus(self.bench_command(["compare", self.plain, self.marked]), 0)


class SceneVariantTests(BenchTestCase):
    """13. A scene kind without its variant means every variant."""

    def test_equal_spacing_runs_both_variants(self):
        root = self.temp_dir()
        output = os.path.join(root, "es.csv")
        result = self.bench_command(
            ["run", "--scenes", "equal-spacing", "--sizes", "20", "--solvers", "sparse",
             "--modes", "incremental", "--phases", "build", "--repetitions", "1", "--warmup",
             "0", "--min-time", "0", "--rounds", "1", "--quiet", "--output", output], cwd=root)
        self.assertStatus(result, 0)
        rows = self.assertWholeRows(output, result)
        variants = {row[rows[0].index("variant")] for row in rows[1:]}
        self.assertEqual(variants, {"spacer-views", "layout-guides"},
                         "the variant column:" + result.describe())


class StressSolverTests(BenchTestCase):
    """14. `bench stress --solver` takes the exact strategies only."""

    def test_an_unknown_solver_lists_the_exact_ones(self):
        result = self.bench_command(["stress", "--solver", "nosuch"], timeout=30)
        self.assertStatus(result, 64, "sparse", "dense")
        self.assertNotIn("kiwi", result.stderr, "kiwi is offered:" + result.describe())

    def test_kiwi_is_not_exact(self):
        result = self.bench_command(["stress", "--solver", "kiwi"], timeout=30)
        self.assertStatus(result, 64, "exact")


class HeapSnapshotDirectoryTests(BenchTestCase):
    """14b. `bench stress --heap-snapshots DIR` makes DIR, or refuses before the run."""

    def setUp(self):
        super().setUp()
        # Every allocation sampled, as scripts/heap-diff wants; the binary reads it at start.
        patcher = unittest.mock.patch.dict(os.environ,
                                           {"MALLOC_CONF": "prof:true,lg_prof_sample:0"})
        patcher.start()
        self.addCleanup(patcher.stop)

    STRESS = ["stress", "--scene", "flat", "--views", "20", "--operations", "20", "--solver",
              "sparse"]

    def test_a_missing_directory_is_made(self):
        directory = os.path.join(self.temp_dir(), "new", "snapshots")
        result = self.bench_command(self.STRESS + ["--heap-snapshots", directory], timeout=60)
        if result.status == 64 and "jemalloc profiling" in result.stderr:
            self.skipTest("this jemalloc does not profile")
        self.assertStatus(result, 0)
        for name in ("first-layout.heap", "after-undo.heap"):
            path = os.path.join(directory, name)
            self.assertTrue(os.path.isfile(path), f"no {path}:" + result.describe())

    def test_a_directory_under_a_file_is_refused_before_the_run(self):
        root = self.temp_dir()
        blocker = os.path.join(root, "file")
        open(blocker, "w").close()
        directory = os.path.join(blocker, "snapshots")
        result = self.bench_command(self.STRESS + ["--heap-snapshots", directory], timeout=30)
        if result.status == 64 and "jemalloc profiling" in result.stderr:
            self.skipTest("this jemalloc does not profile")
        self.assertIn(result.status, (64, 74), "expected a usage or I/O failure:"
                      + result.describe())
        self.assertIn("--heap-snapshots", result.stderr, result.describe())
        self.assertIn(directory, result.stderr, result.describe())
        self.assertNotIn("operations:", result.stdout, "the run went ahead:" + result.describe())


class DefaultPathTests(BenchTestCase):
    """15. Default outputs go to the package of the binary, not the working directory."""

    def test_report_writes_into_the_package(self):
        results = small_results_csv(self)
        root = self.temp_dir()
        package = os.path.join(root, "pkg")
        elsewhere = os.path.join(root, "elsewhere")
        os.makedirs(elsewhere)
        binary = self.copy_bench(os.path.join(package, ".build", "debug"))
        open(os.path.join(package, "Package.swift"), "w").close()
        result = self.bench_command(["report", results], binary=binary, cwd=elsewhere)
        self.assertStatus(result, 0)
        report = os.path.join(package, "results", "report.md")
        self.assertTrue(os.path.isfile(report), f"no {report}:" + result.describe())
        self.assertAbsent(os.path.join(elsewhere, "results"), result)


class HelpTests(BenchTestCase):
    """16. The help lists the exit statuses."""

    def check(self, args):
        result = self.bench_command(args, timeout=30)
        self.assertStatus(result, 0)
        for status in ("74", "130"):
            self.assertIn(status, result.stdout, f"`{' '.join(args)}` does not mention exit "
                          f"status {status}:" + result.describe() + "\n  stdout:\n"
                          + result.stdout)

    def test_bench_help(self):
        self.check(["--help"])

    def test_run_help(self):
        self.check(["run", "--help"])


if __name__ == "__main__":
    unittest.main()
