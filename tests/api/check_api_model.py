#!/usr/bin/env python3
"""Generator checks, independent of api/: counts entry points per API version
straight from the registries and compares them with what `strata info --json`
reports, and checks that Strata's libraries export every symbol the system's
libraries of the same names export.

usage: check_api_model.py STRATA_BINARY STRATA_LIB_DIR GL_XML EGL_XML SYSTEM_LIB_DIR
"""

import json
import subprocess
import sys
import xml.etree.ElementTree as ET

failures = []


def check(condition, message):
    print(("ok    " if condition else "FAIL  ") + message)
    if not condition:
        failures.append(message)


def commands_in(element):
    return {c.get("name") for c in element.iter("command") if c.get("name")}


def registry_counts(gl_xml, egl_xml):
    expected = {}
    for path in (gl_xml, egl_xml):
        root = ET.parse(path).getroot()
        for feature in root.iter("feature"):
            label = {
                ("egl", n): f"EGL {n}" for n in ("1.0", "1.1", "1.2", "1.3", "1.4", "1.5")
            } | {("gles1", "1.0"): "GLES 1.1"} | {
                ("gles2", n): f"GLES {n}" for n in ("2.0", "3.0", "3.1", "3.2")
            }
            key = (feature.get("api"), feature.get("number"))
            if key in label:
                expected[label[key]] = len(commands_in(feature))
        ext_sets = {"egl": "EGL extensions", "gles1": "GLES 1 extensions", "gles2": "GLES 2+ extensions"}
        names = {k: set() for k in ext_sets}
        for ext in root.iter("extension"):
            apis = ext.get("supported", "").split("|")
            for api in ext_sets:
                if api in apis:
                    for req in ext.findall("require"):
                        if req.get("api", api) == api:
                            names[api] |= commands_in(req)
        for api, label in ext_sets.items():
            if names[api]:
                expected[label] = len(names[api])
    return expected


def exported_functions(path):
    out = subprocess.run(["nm", "-D", "--defined-only", path], check=True, capture_output=True, text=True).stdout
    return {line.split()[-1] for line in out.splitlines()
            if line.split()[-1].startswith(("gl", "egl")) and line.split()[-2] in ("T", "W", "i")}


def main():
    strata, lib_dir, gl_xml, egl_xml, system_dir = sys.argv[1:6]
    info = json.loads(subprocess.run([strata, "info", "--json"], check=True, capture_output=True,
                                     text=True).stdout)
    reported = info["entry_points"]
    for label, count in registry_counts(gl_xml, egl_xml).items():
        check(reported.get(label) == count, f"{label}: registry has {count}, strata reports {reported.get(label)}")
    check(reported["total"] > 1000, f"total entry points {reported['total']} > 1000")

    for lib in ("libEGL.so.1", "libGLESv2.so.2", "libGLESv1_CM.so.1", "libGL.so.1"):
        system = exported_functions(f"{system_dir}/{lib}")
        ours = exported_functions(f"{lib_dir}/{lib}")
        missing = sorted(system - ours)
        check(len(system) > 0, f"{lib}: system library exports {len(system)} functions")
        check(not missing, f"{lib}: Strata exports all of them ({len(ours)} in all)"
              + (f"; missing {missing[:10]}" if missing else ""))
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
