"""Tests of the dashboard `bench publish` writes, the way a person sees it: every page opened in
headless Chromium, driven by selenium.

Run from the repository root, after `swift build --product bench`:

    python3 -m unittest discover -s scripts/tests -p test_dashboard.py

It needs the bench binary ($BENCH, default .build/debug/bench), Debian's `chromium` and
`chromium-driver`, and selenium (pip install selenium). Without one of them its tests are
skipped, or fail when $CI is set (non-empty). The overview's screenshot is saved to
$DASHBOARD_SCREENSHOT (default: the test's scratch folder, removed afterwards).

What the site is held to:
  (a) no page logs a console error, and every link leads to a page of the site;
  (b) each chart holds one series per solver and mode that `bench history show` lists for its
      scene, size and phase, each with one point per commit that measured it and a skip mark per
      commit that skipped it;
  (c) the regressions page shows exactly the rows `bench history regressions` prints;
  (d) every chart is drawn (a non-empty box on the page), and the overview's screenshot is not
      blank.
"""

import csv
import glob
import io
import os
import shutil
import subprocess
import tempfile
import unittest
import urllib.parse

from history_fixtures import ROOT, three_commits

BENCH = os.environ.get("BENCH") or os.path.join(ROOT, ".build", "debug", "bench")

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
except ImportError:  # reported by the tests
    webdriver = None

try:
    from PIL import Image
except ImportError:
    Image = None


def missing_tools():
    missing = []
    if not os.access(BENCH, os.X_OK):
        missing.append(f"the bench binary {BENCH}")
    if webdriver is None:
        missing.append("selenium (pip install selenium)")
    if shutil.which("chromium") is None or shutil.which("chromedriver") is None:
        missing.append("chromium and chromedriver (apt-get install chromium chromium-driver)")
    return ", ".join(missing) or None


class DashboardTests(unittest.TestCase):
    maxDiff = None

    @classmethod
    def setUpClass(cls):
        cls.problem = missing_tools()
        if cls.problem:
            return
        cls.directory = os.path.realpath(tempfile.mkdtemp(prefix="bench-dashboard-"))
        cls.store = os.path.join(cls.directory, "history.sqlite")
        for path in three_commits(cls.directory):
            cls.bench("history", "add", "--store", cls.store, path)
        cls.site = os.path.join(cls.directory, "site")
        cls.bench("publish", "--store", cls.store, "--output", cls.site)
        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium")
        for argument in ("--headless=new", "--no-sandbox", "--disable-gpu",
                         "--disable-dev-shm-usage", "--window-size=1280,1600"):
            options.add_argument(argument)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        cls.driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")),
                                      options=options)

    @classmethod
    def tearDownClass(cls):
        if getattr(cls, "driver", None):
            cls.driver.quit()
        if getattr(cls, "directory", None):
            shutil.rmtree(cls.directory, ignore_errors=True)

    def setUp(self):
        if self.problem:
            if os.environ.get("CI"):
                self.fail(f"missing: {self.problem}")
            self.skipTest(f"missing: {self.problem}")

    @classmethod
    def bench(cls, *arguments):
        result = subprocess.run([BENCH, *arguments], capture_output=True, text=True,
                                timeout=300)
        if result.returncode != 0:
            raise AssertionError(f"bench {' '.join(arguments)}: exit {result.returncode}\n"
                                 f"{result.stderr}")
        return result.stdout

    def pages(self):
        return sorted(glob.glob(os.path.join(self.site, "*.html")))

    def open(self, path):
        self.driver.get("file://" + path)
        return self.driver.get_log("browser")

    def test_pages_load_without_console_errors_and_links_stay_in_the_site(self):
        pages = self.pages()
        self.assertIn(os.path.join(self.site, "index.html"), pages)
        self.assertIn(os.path.join(self.site, "regressions.html"), pages)
        self.assertGreater(len(pages), 10)
        for page in pages:
            with self.subTest(page=os.path.basename(page)):
                errors = [entry for entry in self.open(page) if entry["level"] == "SEVERE"]
                self.assertEqual(errors, [])
                self.assertTrue(self.driver.title.startswith("LayoutBench"))
                for link in self.driver.find_elements(By.CSS_SELECTOR, "a[href]"):
                    url = urllib.parse.urlparse(link.get_attribute("href"))
                    self.assertEqual(url.scheme, "file", f"a link leaves the site: {url}")
                    target = urllib.parse.unquote(url.path)
                    self.assertEqual(os.path.dirname(target), self.site, target)
                    self.assertTrue(os.path.isfile(target), f"broken link to {target}")

    def test_each_chart_has_a_series_per_solver_and_mode_and_a_point_per_commit(self):
        charts = 0
        for page in self.pages():
            name = os.path.basename(page)
            if not name.startswith("scene-"):
                continue
            self.open(page)
            body = self.driver.find_element(By.TAG_NAME, "body")
            scene, variant, views = (body.get_attribute(f"data-{key}")
                                     for key in ("scene", "variant", "views"))
            self.assertTrue(scene and variant and views, name)
            figures = self.driver.find_elements(By.CSS_SELECTOR, "figure.chart")
            self.assertTrue(figures, f"{name} has no chart")
            for figure in figures:
                phase = figure.get_attribute("data-phase")
                with self.subTest(page=name, phase=phase):
                    charts += 1
                    shown = self.bench("history", "show", "--store", self.store, "--scene", scene,
                                       "--variant", variant, "--views", views, "--phase", phase,
                                       "--format", "csv")
                    expected = {}
                    for row in csv.DictReader(io.StringIO(shown)):
                        series = expected.setdefault(f"{row['solver']} {row['mode']}",
                                                     {"points": set(), "skipped": set()})
                        series["points" if row["value"] else "skipped"].add(row["commit"])
                    svg = figure.find_element(By.CSS_SELECTOR, "svg.trend")
                    self.assertGreater(svg.size["width"], 100)
                    self.assertGreater(svg.size["height"], 100)
                    drawn = {}
                    for group in svg.find_elements(By.CSS_SELECTOR, "g.series"):
                        name_of = group.get_attribute("data-series")
                        self.assertNotIn(name_of, drawn, "a series drawn twice")
                        points = [point.get_attribute("data-commit") for point in
                                  group.find_elements(By.CSS_SELECTOR, "circle.point")]
                        skipped = [mark.get_attribute("data-commit") for mark in
                                   group.find_elements(By.CSS_SELECTOR, "g.skipped")]
                        self.assertEqual(len(points), len(set(points)), "two points a commit")
                        drawn[name_of] = {"points": set(points), "skipped": set(skipped)}
                    self.assertEqual(drawn, expected)
                    legend = {entry.get_attribute("data-series") for entry in
                              svg.find_elements(By.CSS_SELECTOR, "g.legend-entry")}
                    self.assertEqual(legend, set(expected))
                    # A title, and axis titles that give the unit.
                    texts = [text.text for text in svg.find_elements(By.CSS_SELECTOR,
                                                                     "text.axis-title")]
                    self.assertTrue(any("time" in text for text in texts), texts)
                    self.assertTrue(svg.find_element(By.CSS_SELECTOR, "text.chart-title").text)
        self.assertGreater(charts, 50)

    def test_the_regressions_shown_are_those_bench_prints(self):
        printed = list(csv.reader(io.StringIO(
            self.bench("history", "regressions", "--store", self.store, "--format", "csv"))))
        self.assertEqual(printed[0], ["commit", "previous", "cell", "figure", "before", "after",
                                      "machine"])
        self.assertGreater(len(printed), 10)
        self.open(os.path.join(self.site, "regressions.html"))
        rows = self.driver.find_elements(By.CSS_SELECTOR, "table#regressions tr.regression")
        shown = [[cell.text for cell in row.find_elements(By.TAG_NAME, "td")] for row in rows]
        # The page lists the newest commit first.
        self.assertEqual(shown, list(reversed(printed[1:])))

    def test_the_overview_shows_the_latest_run_and_looks_like_a_page(self):
        self.open(os.path.join(self.site, "index.html"))
        environment = {row.find_element(By.TAG_NAME, "th").text:
                       row.find_element(By.TAG_NAME, "td").text
                       for row in self.driver.find_elements(By.CSS_SELECTOR,
                                                            "table#environment tr")}
        self.assertEqual(environment["commit"], "ccccccc")
        self.assertEqual(environment["run"], "run3")
        table = self.driver.find_element(By.CSS_SELECTOR, "table#latest-run")
        headers = [cell.text for cell in table.find_elements(By.TAG_NAME, "th")]
        for solver in ("sparse", "plan", "dense"):
            self.assertTrue(any(header.startswith(solver) for header in headers), headers)
        self.assertIn("× sparse", headers)
        screenshot = os.environ.get("DASHBOARD_SCREENSHOT") or os.path.join(
            self.directory, "overview.png")
        os.makedirs(os.path.dirname(os.path.abspath(screenshot)), exist_ok=True)
        self.assertTrue(self.driver.save_screenshot(screenshot))
        if Image is not None:
            picture = Image.open(screenshot).convert("L")
            low, high = picture.getextrema()
            self.assertLess(low, 100, "the screenshot has no dark ink: a blank page")
            self.assertGreater(high, 200)


if __name__ == "__main__":
    unittest.main()
