"""Tests of `bench plot`'s SVG charts as pictures: each chart is rendered to PNG with rsvg-convert
and measured with Pillow, text by text, rather than its SVG being searched for strings.

Run from the repository root, after `swift build --product bench`:

    python3 -m unittest discover -s scripts/tests -p test_plots.py

It needs the bench binary ($BENCH, default .build/debug/bench under the repository root),
rsvg-convert (librsvg2-bin) and Pillow (pip install pillow). Without one of them its tests are
skipped, or fail when $CI is set (non-empty), so that CI cannot pass them by skipping.

What a chart is held to, in every case below:
  (a) no text's ink lies outside the picture's declared size (nothing is cut off);
  (b) no two texts' ink boxes intersect or touch: at least GAP clear pixels lie between them
      across or down (no label runs into another);
  (c) every series in the legend has ink of its colour in a panel's data area, the unfilled,
      stroked <rect>s of the panels (the log frame, and the band of zeros under it), so that a
      series of zeros is drawn, not only listed;
  (d) skip markers (the <g>s whose <title> gives the reason) have no ink in a data area, or on
      a text, and none outside the picture.
"""

import concurrent.futures
import copy
import csv
import io
import os
import shutil
import subprocess
import tempfile
import unittest
import xml.etree.ElementTree as ET

try:
    from PIL import Image, ImageChops
except ImportError:  # reported by the tests, not here
    Image = None

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BENCH = os.environ.get("BENCH") or os.path.join(ROOT, ".build", "debug", "bench")
BASELINE = os.path.join(ROOT, "results", "baseline-quick.csv")
SVG = "{http://www.w3.org/2000/svg}"
ET.register_namespace("", SVG[1:-1])

# Extra canvas around the declared picture, so that ink past an edge is rendered and seen.
PAD = 200
# Alpha from which a pixel counts as ink: anti-aliasing fringes fainter than this do not.
INK = 64
# Clear pixels two texts' ink boxes keep between them at least (on one axis): labels that touch
# read as one.
GAP = 3


def missing_tools():
    """What this test needs and lacks, as one sentence, or None."""
    missing = []
    if not (os.path.isfile(BENCH) and os.access(BENCH, os.X_OK)):
        missing.append(f"the bench binary {BENCH} (build it: swift build --product bench, "
                       "or set BENCH)")
    if shutil.which("rsvg-convert") is None:
        missing.append("rsvg-convert (apt-get install librsvg2-bin)")
    if Image is None:
        missing.append("Pillow (pip install pillow)")
    return "test_plots needs " + "; ".join(missing) if missing else None


def render(root):
    """The PNG of an SVG root element, as a Pillow RGBA image (transparent where not drawn)."""
    result = subprocess.run(["rsvg-convert", "--format", "png"], input=ET.tostring(root),
                            capture_output=True, check=False)
    if result.returncode != 0:
        raise AssertionError("rsvg-convert failed: " + result.stderr.decode(errors="replace"))
    return Image.open(io.BytesIO(result.stdout)).convert("RGBA")


def ink_box(image):
    """The bounding box (x0, y0, x1, y1, exclusive ends) of an image's ink, or None."""
    return image.getchannel("A").point(lambda alpha: 255 if alpha >= INK else 0).getbbox()


def too_close(a, b):
    """Whether two ink boxes overlap or come closer than GAP pixels on both axes."""
    return (a[0] < b[2] + GAP and b[0] < a[2] + GAP
            and a[1] < b[3] + GAP and b[1] < a[3] + GAP)


class Chart:
    """A rendered chart: its SVG tree and what the checks need of it."""

    def __init__(self, path):
        self.root = ET.parse(path).getroot()
        self.width = float(self.root.get("width"))
        self.height = float(self.root.get("height"))
        self.parents = {child: parent for parent in self.root.iter() for child in parent}
        self.texts = [element for element in self.root.iter(SVG + "text")]
        # The data areas: unfilled, stroked rectangles, as (x0, y0, x1, y1).
        self.frames = [
            (float(rect.get("x")), float(rect.get("y")),
             float(rect.get("x")) + float(rect.get("width")),
             float(rect.get("y")) + float(rect.get("height")))
            for rect in self.root.iter(SVG + "rect")
            if rect.get("fill") == "none" and rect.get("stroke") not in (None, "none")
        ]
        self.skip_marks = [group for group in self.root.iter(SVG + "g")
                           if group.find(SVG + "title") is not None]

    def text(self, element):
        return "".join(element.itertext())

    def isolated(self, keep):
        """A copy of the chart with only the elements in `keep` (and their ancestors, for the
        attributes they pass on), on a canvas PAD larger on every side."""
        wanted = set()
        for element in keep:
            while element is not None:
                wanted.add(element)
                element = self.parents.get(element)

        def copy_of(element):
            if element in keep:
                return copy.deepcopy(element)
            shallow = ET.Element(element.tag, dict(element.attrib))
            shallow.extend(copy_of(child) for child in element if child in wanted)
            return shallow

        root = copy_of(self.root)
        width, height = self.width + 2 * PAD, self.height + 2 * PAD
        root.set("width", str(width))
        root.set("height", str(height))
        # A pixel a unit, as in the chart, with the origin PAD in from the top left.
        root.set("viewBox", f"{-PAD} {-PAD} {width} {height}")
        return root

    def text_boxes(self):
        """Each text's ink box in the picture's coordinates, rendered alone."""
        def box(element):
            found = ink_box(render(self.isolated({element})))
            return found and (found[0] - PAD, found[1] - PAD, found[2] - PAD, found[3] - PAD)

        with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            return list(pool.map(box, self.texts))

    def legend_colours(self):
        """The legend's entries: {text: colour of the <line> drawn before it}."""
        colours = {}
        for parent in self.root.iter():
            line = None
            for child in parent:
                if child.tag == SVG + "line":
                    line = child.get("stroke")
                elif child.tag == SVG + "text" and line is not None:
                    colours.setdefault(self.text(child), line)
                    line = None
        return colours


def rows_of(scene, phase, variant="standard"):
    with open(BASELINE, newline="") as file:
        return [dict(row) for row in csv.DictReader(file)
                if (row["scene"], row["variant"], row["phase"]) == (scene, variant, phase)]


def skipped(row, status, note):
    """The row as a cell that was not measured."""
    row = dict(row)
    for column in ("repetitions", "median_ns", "min_ns", "p90_ns", "max_ns"):
        row[column] = "0"
    for column in ("allocations", "allocated_bytes", "retained_bytes", "peak_bytes",
                   "instructions", "checksum", "samples_ns"):
        row[column] = ""
    row["status"], row["note"] = status, note
    return row


def larger(row, views, factor):
    """The row at `views`, its figures scaled by `factor`."""
    row = dict(row)
    row["views"] = str(views)
    for column in ("median_ns", "min_ns", "p90_ns", "max_ns", "allocated_bytes", "peak_bytes"):
        if row[column]:
            row[column] = str(int(int(row[column]) * factor))
    row["samples_ns"] = "|".join(" ".join(str(int(int(sample) * factor))
                                          for sample in round_.split())
                                 for round_ in row["samples_ns"].split("|"))
    return row


class PlotTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.missing = missing_tools()
        with open(BASELINE, newline="") as file:
            cls.columns = csv.DictReader(file).fieldnames

    def setUp(self):
        if self.missing:
            if os.environ.get("CI"):
                self.fail(self.missing)
            self.skipTest(self.missing)
        self.directory = tempfile.TemporaryDirectory()
        self.addCleanup(self.directory.cleanup)

    def plot(self, rows, phase, metric="time"):
        """`bench plot` of `rows`, read back as a Chart."""
        results = os.path.join(self.directory.name, f"{self.id().split('.')[-1]}.csv")
        output = results[:-4] + ".svg"
        with open(results, "w", newline="") as file:
            writer = csv.DictWriter(file, fieldnames=self.columns)
            writer.writeheader()
            writer.writerows(rows)
        run = subprocess.run([BENCH, "plot", results, "--output", output, "--phase", phase,
                              "--metric", metric], capture_output=True, text=True, check=False)
        self.assertEqual(run.returncode, 0, f"bench plot failed: {run.stderr}")
        return Chart(output)

    def check(self, chart, series):
        """(a) to (d) of the module's docstring, every finding at once; `series` are the names
        the legend must hold. Returns the chart's texts."""
        problems = []
        boxes = chart.text_boxes()
        names = [chart.text(element) for element in chart.texts]
        for name, box in zip(names, boxes):
            self.assertIsNotNone(box, f"'{name}' renders no ink (is a font installed?)")
        # (a) Inside the declared picture.
        problems += [f"(a) '{name}' {box} is past the edge of the "
                     f"{chart.width:g} x {chart.height:g} picture"
                     for name, box in zip(names, boxes)
                     if box[0] < 0 or box[1] < 0 or box[2] > chart.width or box[3] > chart.height]
        # (b) No two texts overlap or touch.
        problems += [f"(b) '{names[i]}' {boxes[i]} and '{names[j]}' {boxes[j]} overlap or touch"
                     for i in range(len(boxes)) for j in range(i + 1, len(boxes))
                     if too_close(boxes[i], boxes[j])]
        # (c) Every legend series is drawn in a data area.
        legend = chart.legend_colours()
        if not chart.frames:
            problems.append("(c) no data area (an unfilled, stroked <rect>) was found")
        picture = render(chart.root)
        for name in sorted(series):
            if name not in legend:
                problems.append(f"(c) the legend lacks {name}")
                continue
            colour = tuple(int(legend[name][k:k + 2], 16) for k in (1, 3, 5))
            count = 0
            for x0, y0, x1, y1 in chart.frames:
                area = picture.crop((int(x0) + 1, int(y0) + 1, int(x1), int(y1)))
                mask = None
                for channel, value in zip(area.split()[:3], colour):
                    near = channel.point(lambda v, value=value: 255 if abs(v - value) <= 12 else 0)
                    mask = near if mask is None else ImageChops.multiply(mask, near)
                count += mask.histogram()[255]
            if count < 4:
                problems.append(f"(c) {name} ({legend[name]}) is in the legend but has no ink "
                                "in any panel's data area")
        # (d) Skip markers outside the data areas, off the texts and inside the picture.
        if chart.skip_marks:
            marks = render(chart.isolated(set(chart.skip_marks)))
            alpha = marks.getchannel("A").point(lambda value: 255 if value >= INK else 0)
            box = alpha.getbbox()
            if box is None:
                problems.append("(d) the skip markers render no ink")
            elif (box[0] < PAD or box[1] < PAD or box[2] > PAD + chart.width
                  or box[3] > PAD + chart.height):
                problems.append(f"(d) skip markers past the picture's edge: {box}")
            for x0, y0, x1, y1 in chart.frames:
                inside = alpha.crop((int(x0) + PAD, int(y0) + PAD,
                                     int(x1) + PAD + 1, int(y1) + PAD + 1)).getbbox()
                if inside is not None:
                    problems.append(f"(d) skip markers in the data area {(x0, y0, x1, y1)}")
            for name, text_box in zip(names, boxes):
                if alpha.crop(tuple(v + PAD for v in text_box)).getbbox() is not None:
                    problems.append(f"(d) a skip marker on '{name}'")
        if problems:
            self.fail("\n".join(problems))
        return names

    def test_one_panel(self):
        rows = rows_of("form", "first-solve")
        chart = self.plot(rows, "first-solve")
        self.check(chart, {f"{r['solver']} {r['mode']}" for r in rows})

    def test_several_panels_in_two_rows(self):
        scenes = ["form", "dynamic-form", "nested-grid", "stack-grid", "flat", "chain"]
        rows = [row for scene in scenes for row in rows_of(scene, "first-solve")]
        chart = self.plot(rows, "first-solve", "allocated")
        names = self.check(chart, {f"{r['solver']} {r['mode']}" for r in rows})
        for scene in scenes:
            self.assertIn(scene, names)

    def test_a_series_of_zeros_is_drawn(self):
        # The incremental solvers allocate nothing to resize; sparse full allocates at 100 views
        # but (here) not at 50, so that its line crosses from the zeros to the log axis.
        rows = rows_of("form", "resize") + rows_of("nested-grid", "resize")
        for row in rows:
            if (row["scene"], row["solver"], row["mode"], row["views"]) == (
                    "nested-grid", "sparse", "full", "50"):
                row["allocated_bytes"] = "0"
        self.assertTrue(any(row["allocated_bytes"] == "0" for row in rows))
        chart = self.plot(rows, "resize", "allocated")
        self.check(chart, {f"{r['solver']} {r['mode']}" for r in rows})

    def test_skipped_cells_are_marked_outside_the_data(self):
        # At 1,000 views the dense solver is skipped and the others are measured: two rows of
        # skips (full and incremental) in each of two panels.
        rows = []
        for scene in ("form", "flat"):
            measured = rows_of(scene, "resize")
            rows += measured
            for row in measured:
                if row["views"] != "100":
                    continue
                if row["solver"] != "dense":
                    rows.append(larger(row, 1000, 12))
                elif row["mode"] == "full":
                    rows.append(skipped(larger(row, 1000, 1), "skipped",
                                        "over the 30 s cell budget"))
                else:
                    rows.append(skipped(larger(row, 1000, 1), "error", "out of memory"))
        chart = self.plot(rows, "resize")
        self.check(chart, {f"{r['solver']} {r['mode']}" for r in rows if r["status"] == "ok"})
        reasons = [chart.text(mark.find(SVG + "title")) for mark in chart.skip_marks]
        self.assertEqual(len(reasons), 4, reasons)
        self.assertIn("dense full at 1000 views: skipped: over the 30 s cell budget", reasons)

    def test_a_long_scene_title(self):
        long = "a-variant-with-a-name-long-enough-to-be-wider-than-a-panel"
        rows = rows_of("equal-spacing", "first-solve", "layout-guides") + rows_of(
            "flat", "first-solve")
        for row in rows:
            if row["scene"] == "equal-spacing":
                row["variant"] = long
        chart = self.plot(rows, "first-solve", "peak")
        names = self.check(chart, {f"{r['solver']} {r['mode']}" for r in rows})
        self.assertIn(f"equal-spacing/{long}", names)


if __name__ == "__main__":
    unittest.main()
