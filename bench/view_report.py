#!/usr/bin/python3
"""How big and how fast `strata view` reports of large traces are.

Traces bench/workloads/trace_workload (--mode cheap: 15,000 calls a frame),
times `strata view`, then opens the report in headless Chromium and times
the load (until the page's script has finished), opening the largest frame
and jumping to a call in its middle. Figures go in docs/benchmarks.md.

usage: bench/view_report.py [--build build] [--frames 8 40 ...]
Needs Debian's chromium, chromium-driver and python3-selenium (scripts/setup.sh).
"""
import argparse
import json
import os
import subprocess
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def run(argv):
    return subprocess.run(argv, check=True, capture_output=True, text=True).stdout


def wait_ready(browser):
    while browser.execute_script("return document.body && document.body.dataset.ready") != "true":
        time.sleep(0.01)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default="build")
    parser.add_argument("--frames", type=int, nargs="+", default=[8, 40])
    args = parser.parse_args()
    strata = os.path.join(args.build, "bin", "strata")
    workload = os.path.join(args.build, "bin", "trace_workload")
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,1000"):
        options.add_argument(argument)
    browser = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    print("| calls | frames | trace | report | `strata view` | load in Chromium | open a 15k-call frame | jump to a call |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    with tempfile.TemporaryDirectory() as work:
        for frames in args.frames:
            trace = os.path.join(work, f"w{frames}.strace")
            report = os.path.join(work, f"w{frames}.html")
            run([strata, "trace", "-o", trace, "--", workload, "--mode", "cheap", "--frames", str(frames)])
            stats = json.loads(run([strata, "stats", "--json", trace]))
            started = time.monotonic()
            run([strata, "view", trace, "-o", report])
            write = time.monotonic() - started
            browser.get("about:blank")
            started = time.monotonic()
            browser.get("file://" + report)
            wait_ready(browser)
            load = time.monotonic() - started
            largest = max(range(len(stats["per_frame"])), key=lambda f: stats["per_frame"][f]["calls"])
            started = time.monotonic()
            browser.execute_script(f"location.hash = '#frame={largest}'")
            browser.execute_script("return document.querySelectorAll('.call-row').length")
            open_frame = time.monotonic() - started
            first = int(browser.execute_script("return document.querySelector('#call-rows .c-seq').textContent"))
            target = first + stats["per_frame"][largest]["calls"] // 2
            started = time.monotonic()
            browser.execute_script(f"location.hash = '#call={target}'")
            browser.execute_script("return document.querySelector('.call-row.selected .c-seq').textContent")
            jump = time.monotonic() - started
            print(f"| {stats['calls']:,} | {stats['frames']} | {os.path.getsize(trace) / 1048576:.1f} MiB | "
                  f"{os.path.getsize(report) / 1048576:.1f} MiB | {write:.2f} s | {load:.2f} s | "
                  f"{open_frame * 1000:.0f} ms | {jump * 1000:.0f} ms |")
    browser.quit()


if __name__ == "__main__":
    main()
