#!/usr/bin/python3
"""`strata view` reports opened in headless Chromium, as a person would see them.

Each test class traces a real program, writes its report and drives the page
through chromedriver: the script ran without errors, the numbers shown equal
`strata stats --json`, selecting a frame lists the calls `strata dump` prints
for it, the app's shader source is there, and screenshots of the frame
images show the app's own pixels.

usage: report_browser_test.py --strata BIN --bin-dir DIR --probe-app BIN
                              [--workload BIN] [--pixel-app BIN] [unittest arguments]
"""
import argparse
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

from PIL import Image, ImageChops, ImageStat
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

ARGS = None
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


def run(argv, timeout=300):
    result = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    if result.returncode != 0:
        raise AssertionError(f"{' '.join(argv)} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")
    return result.stdout


def trace(out, program_argv, capture=True):
    argv = [ARGS.strata, "trace", "-o", out]
    if capture:
        argv += ["--capture", "swap"]
    run(argv + ["--"] + program_argv)


def stats(trace_path):
    return json.loads(run([ARGS.strata, "stats", "--json", "--top", "0", trace_path]))


DUMP_LINE = re.compile(r"^(\d+) \[(\d+)\] (.*)  \(([0-9.]+ us|untimed)\)(  \[made up.*\])?$")


def dump_frame(trace_path, frame):
    """(sequence, thread, text) of each call `strata dump` prints for one frame."""
    calls = []
    for line in run([ARGS.strata, "dump", "--no-header", "--frames", str(frame), trace_path]).splitlines():
        match = DUMP_LINE.match(line)
        if match:
            calls.append((int(match.group(1)), int(match.group(2)), match.group(3)))
    return calls


def start_browser(scratch):
    """A headless Chromium whose temporary files (its shared memory, with
    --disable-dev-shm-usage) go to `scratch`, removed with the test's files."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    # Root needs --no-sandbox; device scale 1 makes screenshots pixel for pixel.
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1400,1000", "--force-device-scale-factor=1", "--hide-scrollbars"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(CHROMEDRIVER, env=dict(os.environ, TMPDIR=scratch))
    return webdriver.Chrome(service=service, options=options)


class ReportPage(unittest.TestCase):
    """A report written in setUpClass, opened in one browser per class."""

    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="strata-view-test-")
        cls.make_report()
        cls.browser = start_browser(cls.work)

    @classmethod
    def tearDownClass(cls):
        cls.browser.quit()
        shutil.rmtree(cls.work, ignore_errors=True)

    @classmethod
    def path(cls, name):
        return os.path.join(cls.work, name)

    def open_report(self, fragment=""):
        """Loads the page afresh; returns the seconds until its script finished."""
        self.browser.get("about:blank")
        started = time.monotonic()
        self.browser.get("file://" + self.report + fragment)
        for _ in range(400):
            if self.browser.execute_script("return document.body && document.body.dataset.ready") == "true":
                return time.monotonic() - started
            time.sleep(0.05)
        self.fail("the report's script never finished: " + repr(self.console()))

    def console(self):
        return [entry for entry in self.browser.get_log("browser") if entry["level"] in ("SEVERE", "WARNING")]

    def js(self, script, *args):
        return self.browser.execute_script(script, *args)

    def text(self, element_id):
        # textContent, not .text: elements on tabs not shown have no rendered text.
        return self.browser.find_element(By.ID, element_id).get_attribute("textContent")

    def shown_number(self, element_id):
        element = self.browser.find_element(By.ID, element_id)
        return int(self.text(element_id).replace(",", "")), int(element.get_attribute("data-value"))

    def visible_rows(self):
        """(sequence, thread, text, classes) of the call rows the list shows."""
        return self.js("""return [...document.querySelectorAll('#call-rows .call-row')].map(row => [
            Number(row.children[0].textContent), Number(row.children[1].textContent),
            row.children[3].textContent, row.className])""")

    def scroll_calls_to_end(self):
        self.js("const list = document.getElementById('call-list'); list.scrollTop = list.scrollHeight;"
                "list.dispatchEvent(new Event('scroll'));")
        time.sleep(0.2)


class SampleAppReport(ReportPage):
    FRAMES = 5

    @classmethod
    def make_report(cls):
        cls.trace = cls.path("gles2.strace")
        cls.app_png = cls.path("app.png")
        trace(cls.trace, [os.path.join(ARGS.bin_dir, "gles2_shaders"), "--frames", str(cls.FRAMES),
                          "--output", cls.app_png])
        cls.stats = stats(cls.trace)
        cls.report = cls.path("report.html")
        run([ARGS.strata, "view", cls.trace, "-o", cls.report, "--state-frames", "1"])

    def test_page_runs_without_errors_and_shows_the_traces_totals(self):
        self.open_report()
        self.assertEqual(self.console(), [])
        self.assertEqual(self.shown_number("total-calls"), (self.stats["calls"], self.stats["calls"]))
        self.assertEqual(self.shown_number("total-frames"), (self.stats["frames"], self.stats["frames"]))
        self.assertEqual(self.shown_number("total-draws"), (self.stats["draws"], self.stats["draws"]))
        self.assertEqual(self.shown_number("total-errors"), (0, 0))
        info = self.text("trace-info")
        self.assertIn("gles2_shaders --frames 5", info)
        self.assertIn("GL_RENDERER: llvmpipe", info)
        self.assertIn("strata export --format c " + self.trace + " -o ", info)  # one thread: it can be a program
        # The frames one can open: the counted ones, and the calls after the last swap (teardown).
        self.assertEqual(self.text("frame-count"), str(len(self.stats["per_frame"])))
        self.assertEqual(len(self.stats["per_frame"]),
                         self.stats["frames"] + (1 if self.stats["calls_after_last_frame"] else 0))
        self.assertEqual(len(self.browser.find_elements(By.CSS_SELECTOR, "#thumbnails .thumb img")), self.FRAMES)

    def test_selecting_a_frame_lists_its_calls_as_dump_prints_them(self):
        self.open_report()
        self.browser.find_element(By.CSS_SELECTOR, '.thumb[data-frame="2"]').click()
        self.assertEqual(self.browser.find_element(By.ID, "frame-number").get_attribute("value"), "2")
        self.assertFalse(self.browser.find_element(By.ID, "tab-frame").get_attribute("hidden"))
        expected = dump_frame(self.trace, 2)
        per_frame = self.stats["per_frame"][2]
        self.assertEqual(len(expected), per_frame["calls"])
        self.assertEqual(self.text("call-count"), f"{per_frame['calls']} calls")
        self.assertIn(f"{per_frame['draws']} draws", self.text("frame-summary"))
        rows = self.visible_rows()
        self.assertGreater(len(rows), 10)
        self.assertLess(len(rows), 80)
        self.assertEqual([row[:3] for row in rows], [list(call) for call in expected[:len(rows)]])
        self.scroll_calls_to_end()
        rows = self.visible_rows()
        self.assertEqual([row[:3] for row in rows[-5:]], [list(call) for call in expected[-5:]])
        self.assertTrue(rows[-1][2].startswith("eglSwapBuffers("), rows[-1])
        draws = [row for row in self.visible_rows() if " draw" in row[3]]
        self.assertTrue(all(re.match(r"glDraw(Arrays|Elements)\(", row[2]) for row in draws), draws)

    def test_a_draw_of_a_state_frame_shows_the_gl_state_it_met(self):
        # Catches: the state panel missing, its images broken, the state of another call shown.
        draws = [call for call in dump_frame(self.trace, 1) if call[2].startswith("glDraw")]
        self.assertTrue(draws)
        self.open_report("#call=" + str(draws[-1][0]))
        self.assertEqual(self.console(), [])
        panel = self.browser.find_elements(By.CSS_SELECTOR, "#call-detail details.state")
        self.assertEqual(len(panel), 1)
        text = panel[0].get_attribute("textContent")
        self.assertIn("GL state before this call", text)
        self.assertIn("GL_VIEWPORT", text)
        self.assertIn("GL_CURRENT_PROGRAM", text)
        self.assertIn("uniforms", text)
        images = self.js("return [...document.querySelectorAll('#call-detail img.state-image')]"
                         ".map(img => [img.complete, img.naturalWidth])")
        self.assertTrue(images)
        self.assertTrue(all(done and width > 0 for done, width in images), images)
        # A draw of a frame not chosen says where states come from, and shows none.
        other = [call for call in dump_frame(self.trace, 2) if call[2].startswith("glDraw")]
        self.open_report("#call=" + str(other[0][0]))
        self.assertFalse(self.browser.find_elements(By.CSS_SELECTOR, "#call-detail details.state"))
        self.assertIn("--state-frames", self.text("call-detail"))

    def test_clicking_a_bar_opens_that_frame(self):
        self.open_report()
        canvas = self.browser.find_element(By.ID, "frame-chart")
        width = canvas.size["width"]
        frames = len(self.stats["per_frame"])
        # Offsets are from the element's centre.
        x = int((3 + 0.5) * width / frames - width / 2)
        ActionChains(self.browser).move_to_element_with_offset(canvas, x, 40).click().perform()
        self.assertEqual(self.browser.find_element(By.ID, "frame-number").get_attribute("value"), "3")
        first = self.visible_rows()[0]
        self.assertEqual(first[0], dump_frame(self.trace, 3)[0][0])

    def test_draws_only_and_text_filters(self):
        self.open_report("#frame=1")
        self.browser.find_element(By.ID, "draws-only").click()
        draws = self.stats["per_frame"][1]["draws"]
        self.assertEqual(self.text("call-count"), f"{draws} of {self.stats['per_frame'][1]['calls']} calls")
        self.assertEqual(len(self.visible_rows()), draws)
        self.browser.find_element(By.ID, "draws-only").click()
        self.browser.find_element(By.ID, "call-filter").send_keys("/^glUniformMatrix4fv/")
        time.sleep(0.4)
        expected = [call for call in dump_frame(self.trace, 1) if call[2].startswith("glUniformMatrix4fv")]
        self.assertEqual([row[:3] for row in self.visible_rows()], [list(call) for call in expected])

    def test_a_shader_source_from_the_app_is_shown(self):
        self.open_report("#tab=shaders")
        sources = self.text("shader-list")
        self.assertIn("gl_FragColor = texture2D(u_texture, v_uv) * u_tint;", sources)
        self.assertIn("GL_VERTEX_SHADER", sources)
        self.assertEqual(len(self.browser.find_elements(By.CSS_SELECTOR, "#programs-table tbody tr")), 3)

    def test_the_frame_image_is_the_apps_own_last_frame(self):
        # The app saved its last frame itself (--output), read back before the
        # same swap the tracer captured: the page must show those pixels.
        self.open_report(f"#frame={self.FRAMES - 1}")
        image = self.browser.find_element(By.ID, "frame-image")
        shot = Image.open(io.BytesIO(image.screenshot_as_png)).convert("RGB")
        app = Image.open(self.app_png).convert("RGB")
        self.assertEqual(shot.size, app.size)
        difference = ImageChops.difference(shot, app).convert("L").point(lambda v: 255 if v > 3 else 0)
        differing = ImageStat.Stat(difference).sum[0] / 255
        self.assertLess(differing, 0.01 * app.size[0] * app.size[1], "pixels differ from the app's own image")

    def test_the_thumbnails_show_the_apps_colours(self):
        self.open_report()
        self.js("document.getElementById('thumbnails').scrollIntoView()")
        thumbnail = self.browser.find_element(By.CSS_SELECTOR, f'.thumb[data-frame="{self.FRAMES - 1}"] img')
        shot = Image.open(io.BytesIO(thumbnail.screenshot_as_png)).convert("RGB")
        self.assertGreater(shot.size[0], 100)
        app = Image.open(self.app_png).convert("RGB").resize(shot.size, Image.BOX)
        # Scaled by the browser, so close rather than equal; a blank or wrong image is far off.
        mean_difference = sum(ImageStat.Stat(ImageChops.difference(shot, app)).mean) / 3
        self.assertLess(mean_difference, 12, "the thumbnail does not look like the app's frame")
        self.assertGreater(len(shot.getcolors(1 << 20) or []), 500, "the thumbnail is nearly flat")
        whole = Image.open(io.BytesIO(self.browser.get_screenshot_as_png())).convert("RGB")
        self.assertGreater(len(whole.getcolors(1 << 24) or []), 1000, "the page looks blank")


class ProbeAppReport(ReportPage):
    @classmethod
    def make_report(cls):
        cls.trace = cls.path("probe.strace")
        trace(cls.trace, [ARGS.probe_app, "--frames", "3"])
        cls.report = cls.path("probe.html")
        run([ARGS.strata, "view", cls.trace, "-o", cls.report])

    def test_errors_are_listed_after_the_calls_they_follow(self):
        self.open_report("#tab=errors")
        self.assertEqual(self.console(), [])
        self.assertEqual(self.shown_number("total-errors"), (2, 2))
        self.assertEqual(self.text("errors-badge"), "2")
        rows = [row.text for row in self.browser.find_elements(By.CSS_SELECTOR, "#errors-table tr.error-row")]
        self.assertEqual(len(rows), 2, rows)
        self.assertRegex(rows[0], r"EGL_BAD_SURFACE #\d+ eglQuerySurface\(")
        self.assertRegex(rows[1], r"GL_INVALID_ENUM #\d+ glEnable\(cap=0xbad\)")
        # The link opens the failing query in its frame, highlighted.
        self.browser.find_element(By.CSS_SELECTOR, "#errors-table tr.error-row a").click()
        selected = [row for row in self.visible_rows() if "selected" in row[3]]
        self.assertEqual(len(selected), 1)
        self.assertIn("error", selected[0][3])
        self.assertEqual(selected[0][2], "eglGetError() = EGL_BAD_SURFACE")

    def test_markup_in_a_shader_source_stays_text(self):
        self.open_report("#tab=shaders")
        self.assertEqual(self.console(), [])
        self.assertIn('strata-view-probe vertex shader </script><b class="injected">not markup</b>',
                      self.text("shader-list"))
        self.assertEqual(self.js("return document.querySelectorAll('.injected').length"), 0)
        self.assertEqual(self.js("return document.querySelector('#programs-table .ok').textContent"), "linked")

    def test_uploads_largest_first(self):
        self.open_report("#tab=uploads")
        rows = [row.text for row in self.browser.find_elements(By.CSS_SELECTOR, "#uploads-table tbody tr")]
        self.assertRegex(rows[0], r"^12,345 buffer #\d+ 0 glBufferData\(target=GL_COPY_WRITE_BUFFER, size=12345")
        self.assertRegex(rows[1], r"^24 mapped buffer #\d+ 0 glUnmapBuffer\(")


class InspectionReport(ReportPage):
    """pixel_app's report with its GPU times and one pixel's history: a click on
    that pixel shows the history, a click elsewhere the command that tells
    it; each frame lists its slowest calls on the GPU; each shader, the
    command line that replays the trace with it edited."""

    @classmethod
    def setUpClass(cls):
        if not ARGS.pixel_app:
            raise unittest.SkipTest("needs --pixel-app (tests/inspect/pixel_app)")
        super().setUpClass()

    @classmethod
    def make_report(cls):
        cls.trace = cls.path("pixel.strace")
        trace(cls.trace, [ARGS.pixel_app, "3"])
        cls.times = cls.path("pixel.gpu")
        run([ARGS.strata, "replay", "--gpu-times", cls.times, cls.trace])
        cls.report = cls.path("pixel.html")
        run([ARGS.strata, "view", cls.trace, "-o", cls.report, "--gpu-times", cls.times, "--pixel", "1:8,55"])

    def click_pixel(self, x, y):
        """Clicks the frame image where pixel (x, y) of the frame is shown (at whole
        page coordinates, as a mouse does: the first inside the pixel)."""
        self.js("""const img = document.getElementById('frame-image'), r = img.getBoundingClientRect();
            const x = Math.ceil(r.left + arguments[0] * r.width / img.naturalWidth);
            const y = Math.ceil(r.top + arguments[1] * r.height / img.naturalHeight);
            img.dispatchEvent(new MouseEvent('click', {clientX: x, clientY: y, bubbles: true}));""", x, y)

    def test_a_click_on_a_pixel_with_a_history_shows_it(self):
        self.open_report("#frame=1")
        self.click_pixel(8, 55)
        rows = [row.text for row in self.browser.find_elements(By.CSS_SELECTOR, "#pixel-history tbody tr")]
        self.assertEqual(len(rows), 6, rows)
        self.assertRegex(rows[0], r"^#\d+ glClear\(")
        for row, outcome in zip(rows[1:], ("passed", "rejected by the depth test", "rejected by the stencil test",
                                           "rejected by the scissor test", "passed, no change")):
            self.assertIn(outcome, row)
        self.assertIn("pixel 8,55 of frame 1", self.text("pixel-history"))
        self.assertEqual(self.console(), [])

    def test_a_click_elsewhere_shows_the_command_that_tells_its_history(self):
        self.open_report("#frame=1")
        self.click_pixel(30, 20)
        command = self.browser.find_element(By.CSS_SELECTOR, "#pixel-history pre.command").text
        self.assertEqual(command, f"strata pixel {self.trace} --frame 1 --at 30,20")

    def test_each_frame_lists_its_slowest_calls_on_the_gpu(self):
        times = {}
        with open(self.times) as lines:
            for line in lines:
                if not line.startswith("#"):
                    call, frame, _, ns = (int(field) for field in line.split())
                    times.setdefault(frame, []).append((ns, call))
        self.open_report("#frame=2")
        shown = [int(re.match(r"^\S+ \S+ #(\d+)", row.text).group(1))
                 for row in self.browser.find_elements(By.CSS_SELECTOR, "#frame-gpu tbody tr")]
        slowest = [call for ns, call in sorted(times[2], reverse=True)[:10]]
        self.assertEqual(len(shown), 10)
        self.assertEqual(set(shown[:5]), set(slowest[:5]))
        self.assertIn("on the GPU", self.text("frame-summary"))

    def test_each_shader_has_the_command_that_replaces_it(self):
        self.open_report("#tab=shaders")
        commands = [element.text for element in self.browser.find_elements(By.CSS_SELECTOR, "#shader-list pre.command")]
        self.assertEqual(len(commands), 6)
        shaders = [int(s) for s in re.findall(r"glCreateShader\(type=GL_FRAGMENT_SHADER\) = (\d+)",
                                              run([ARGS.strata, "dump", self.trace]))]
        for shader in shaders:
            self.assertIn(f"strata replay --replace-shader {shader}=shader-{shader}.frag --verify {self.trace}", commands)


class LargeTraceReport(ReportPage):
    """Over 100,000 calls: the page must load quickly and never build a row per call."""

    @classmethod
    def setUpClass(cls):
        if not ARGS.workload:
            raise unittest.SkipTest("needs --workload (the benchmarks' trace_workload)")
        super().setUpClass()

    @classmethod
    def make_report(cls):
        cls.trace = cls.path("large.strace")
        trace(cls.trace, [ARGS.workload, "--mode", "cheap", "--frames", "8"], capture=False)
        cls.stats = stats(cls.trace)
        cls.report = cls.path("large.html")
        started = time.monotonic()
        run([ARGS.strata, "view", cls.trace, "-o", cls.report])
        cls.write_seconds = time.monotonic() - started

    def test_loads_quickly_and_keeps_the_page_small(self):
        calls = self.stats["calls"]
        self.assertGreater(calls, 100000)
        seconds = self.open_report()
        size = os.path.getsize(self.report)
        print(f"\nlarge trace: {calls} calls, {self.stats['frames']} frames; report {size / 1048576:.1f} MiB "
              f"written in {self.write_seconds:.2f} s, loaded in Chromium in {seconds:.2f} s")
        self.assertLess(seconds, 15, "the report took too long to load")
        self.assertEqual(self.console(), [])
        self.assertEqual(self.shown_number("total-calls"), (calls, calls))

        frame = 3
        per_frame = self.stats["per_frame"][frame]
        self.assertGreater(per_frame["calls"], 10000)
        self.open_report(f"#frame={frame}")
        self.assertEqual(self.text("call-count"), f"{per_frame['calls']:,} calls")
        self.assertLess(self.js("return document.querySelectorAll('.call-row').length"), 100)
        first = self.visible_rows()[0][0]
        self.scroll_calls_to_end()
        rows = self.visible_rows()
        self.assertLess(len(rows), 100)
        self.assertEqual(rows[-1][0], first + per_frame["calls"] - 1)
        self.assertTrue(rows[-1][2].startswith("eglSwapBuffers("), rows[-1])

        target = first + per_frame["calls"] // 2
        self.open_report(f"#call={target}")
        selected = [row for row in self.visible_rows() if "selected" in row[3]]
        self.assertEqual([row[0] for row in selected], [target])
        self.assertIn(f"call #{target}", self.text("call-detail"))


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    parser.add_argument("--strata", required=True)
    parser.add_argument("--bin-dir", required=True)
    parser.add_argument("--probe-app", required=True)
    parser.add_argument("--workload", help="bench/workloads/trace_workload, for LargeTraceReport")
    parser.add_argument("--pixel-app", help="tests/inspect/pixel_app, for InspectionReport")
    ARGS, rest = parser.parse_known_args()
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)


if __name__ == "__main__":
    main()
