#!/usr/bin/env python3
"""Remote rendering speed: the same programs natively, through a Strata
renderer (`strata serve`, clients under `strata run --remote`) over each
transport, and through virglrenderer's vtest server (`virgl_test_server
--use-egl-surfaceless`, clients under GALLIUM_DRIVER=virpipe), in one
interleaved run.

Configurations:
  native     the program on Mesa directly
  ring       Strata over the shared-memory ring (unix: address, the default)
  ahead      the ring, with a renderer that keeps large messages decoded ahead on a second
             thread (strata serve --decode-ahead on)
  inline     the ring, with a renderer that decodes every call on the thread that runs it
             (strata serve --decode-ahead off); "ring" is the renderer's default, auto
  other      the ring, client and renderer both of another build tree (--compare DIR): two
             builds side by side in the same rounds (added to the configurations by --compare)
  plain      the ring, with the client doing nothing on its own (STRATA_REMOTE_SHADOW=off:
             no held calls, names made and every query answered by the renderer)
  records    the ring, with every call as a call record (STRATA_REMOTE_WORD_RUNS=off: no word runs)
  socket     Strata over the Unix socket itself (STRATA_REMOTE_RING=off)
  tcp        Strata over TCP on 127.0.0.1
  virgl      virglrenderer's vtest

Workloads (several shapes, so that no single call mix decides):
  cheap      bench/workloads/trace_workload --mode cheap: 15,000 state calls a frame
  draws      trace_workload --mode draws: 2,000 small draws a frame, two uniforms each
  roundtrip  trace_workload --mode roundtrip: 1,000 one-pixel glReadPixels a frame, each needing an answer
  geterror   trace_workload --mode geterror: 1,000 glVertexAttrib1f + glGetError pairs a frame
  upload     trace_workload --mode upload: a 1024x1024 RGBA texture uploaded and drawn a frame (MB/s)
  create     trace_workload --mode create: 500 textures a frame made, bound, set up and deleted
  saved      trace_workload --mode saved: 100 draws a frame, each with the app's state saved by
             11 queries (bindings, viewport, blend, capabilities) and put back
  matrices   trace_workload --mode matrices: 500 draws a frame, each with a glUniformMatrix4fv and a
             glUniform4fv (uniforms by pointer)
  streaming  trace_workload --mode streaming: 200 draws a frame, each of a 16-vertex strip written
             into an orphaned vertex buffer (glBufferData, glBufferSubData) first
  glmark2    glmark2-es2 (a subset of scenes) in an X11 window on an Xvfb this script starts

Each round runs every workload in every configuration, in a random order; the
headline figure is the median over rounds of speed relative to the native run
of the same round (>1 is faster than native). For trace_workload the speed is
frames per second of its frame loop; for glmark2 its score. The roundtrip
workload also gives the time of one answered call (median, microseconds).

Every process (the renderers too) runs with MALLOC_TOP_PAD_=268435456, as
docs/benchmarks.md asks. Needs: a build tree, virgl-server, glmark2-es2-x11,
xvfb (scripts/setup.sh installs them).

usage: remote_speed.py [--rounds N] [--frames N]
                       [--workloads cheap,draws,roundtrip,geterror,upload,create,saved,matrices,streaming,glmark2]
                       [--configs native,ring,ahead,inline,plain,records,socket,tcp,virgl] [--build DIR]
                       [--compare DIR]
"""

import argparse
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

GLMARK2_SCENES = ["-b", "build:duration=2", "-b", "texture:duration=2", "-b", "shading:shading=phong:duration=2",
                  "-b", "effect2d:duration=2"]
VIRGL_SOCKET = "/tmp/.virgl_test"  # the one path Mesa's vtest client connects to
TRACE_CALLS_PER_FRAME = {"roundtrip": 1000, "geterror": 1000, "create": 500, "saved": 100}
UPLOAD_MB_PER_FRAME = 1024 * 1024 * 4 / 1e6
WORKLOADS = ("cheap", "draws", "roundtrip", "geterror", "upload", "create", "saved", "matrices", "streaming", "glmark2")
CONFIGS = ("native", "ring", "ahead", "inline", "plain", "records", "socket", "tcp", "virgl", "other")
STRATA_CONFIGS = ("ring", "plain", "records", "socket", "tcp")


def fail(message):
    print(f"remote_speed: error: {message}", file=sys.stderr)
    sys.exit(1)


def environment(extra=None):
    env = dict(os.environ, MALLOC_TOP_PAD_="268435456")
    env.update(extra or {})
    return env


def wait_for(predicate, what, seconds=15):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    fail(f"{what} did not come up within {seconds} s")


def abstract_socket_listening(name):
    with open("/proc/net/unix") as table:
        return any(line.rstrip().endswith(" @" + name) for line in table)


class Servers:
    """The renderers and the X server, started once and stopped at the end."""

    def __init__(self, strata, configs, need_x, tmp, other_strata=None):
        self.processes = []
        self.display = None
        if any(c in configs for c in STRATA_CONFIGS):
            name = f"strata-remote-bench-{os.getpid()}"
            self.strata_address = "unix:@" + name
            self.token_file = os.path.join(tmp, "token")
            log_path = os.path.join(tmp, "serve.log")
            log = open(log_path, "w")
            self.processes.append(subprocess.Popen([strata, "serve", "--listen", self.strata_address, "--listen",
                                                    "tcp:127.0.0.1:0", "--token-file", self.token_file],
                                                   stdout=log, stderr=log, env=environment()))
            wait_for(lambda: abstract_socket_listening(name), "strata serve")

            def tcp_address():
                match = re.search(r"tcp:127\.0\.0\.1:\d+", open(log_path).read())
                return match.group(0) if match else None
            wait_for(tcp_address, "strata serve's TCP listener")
            self.strata_tcp_address = tcp_address()
        self.decode_ahead_addresses = {}
        for config, mode in (("ahead", "on"), ("inline", "off")):
            if config in configs:
                name = f"strata-remote-bench-{config}-{os.getpid()}"
                self.decode_ahead_addresses[config] = "unix:@" + name
                log = open(os.path.join(tmp, f"serve-{config}.log"), "w")
                self.processes.append(subprocess.Popen([strata, "serve", "--listen", "unix:@" + name,
                                                        "--decode-ahead", mode],
                                                       stdout=log, stderr=log, env=environment()))
                wait_for(lambda: abstract_socket_listening(name), f"strata serve --decode-ahead {mode}")
        if "other" in configs:
            name = f"strata-remote-bench-other-{os.getpid()}"
            self.other_address = "unix:@" + name
            log = open(os.path.join(tmp, "serve-other.log"), "w")
            self.processes.append(subprocess.Popen([other_strata, "serve", "--listen", self.other_address],
                                                   stdout=log, stderr=log, env=environment()))
            wait_for(lambda: abstract_socket_listening(name), f"{other_strata} serve")
        if "virgl" in configs:
            if shutil.which("virgl_test_server") is None:
                fail("virgl_test_server is not installed (Debian package virgl-server; scripts/setup.sh)")
            if os.path.exists(VIRGL_SOCKET):
                probe = socket.socket(socket.AF_UNIX)
                try:
                    probe.connect(VIRGL_SOCKET)
                    fail(f"a vtest server already listens on {VIRGL_SOCKET}; stop it first")
                except OSError:
                    os.unlink(VIRGL_SOCKET)
                finally:
                    probe.close()
            log = open(os.path.join(tmp, "virgl.log"), "w")
            self.processes.append(subprocess.Popen(["virgl_test_server", "--use-egl-surfaceless"],
                                                   stdout=log, stderr=log, env=environment()))
            wait_for(lambda: os.path.exists(VIRGL_SOCKET), "virgl_test_server")
        if need_x:
            if shutil.which("Xvfb") is None:
                fail("Xvfb is not installed (scripts/setup.sh)")
            number = 90 + os.getpid() % 400
            self.display = f":{number}"
            self.processes.append(subprocess.Popen(["Xvfb", self.display, "-screen", "0", "1024x768x24", "-nolisten",
                                                    "tcp"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            wait_for(lambda: os.path.exists(f"/tmp/.X11-unix/X{number}"), "Xvfb")

    def stop(self):
        for p in self.processes:
            p.send_signal(signal.SIGTERM)
        for p in self.processes:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()


def command(config, program, strata, servers, other_strata=None):
    if config == "other":
        return [other_strata, "run", "--remote", servers.other_address, "--"] + program, {}
    if config == "ring":
        return [strata, "run", "--remote", servers.strata_address, "--"] + program, {}
    if config in ("ahead", "inline"):
        return [strata, "run", "--remote", servers.decode_ahead_addresses[config], "--"] + program, {}
    if config == "socket":
        return [strata, "run", "--remote", servers.strata_address, "--"] + program, {"STRATA_REMOTE_RING": "off"}
    if config == "plain":
        return [strata, "run", "--remote", servers.strata_address, "--"] + program, {"STRATA_REMOTE_SHADOW": "off"}
    if config == "tcp":
        return ([strata, "run", "--remote", servers.strata_tcp_address, "--"] + program,
                {"STRATA_REMOTE_TOKEN_FILE": servers.token_file})
    if config == "records":
        return [strata, "run", "--remote", servers.strata_address, "--"] + program, {"STRATA_REMOTE_WORD_RUNS": "off"}
    if config == "virgl":
        return program, {"GALLIUM_DRIVER": "virpipe"}
    return program, {}


def run_once(workload, config, args, strata, servers):
    """Speed of one run: frames per second, or glmark2's score; and seconds per frame."""
    if workload == "glmark2":
        program = ["glmark2-es2"] + GLMARK2_SCENES
        extra = {"DISPLAY": servers.display}
    else:
        program = [os.path.join(args.build, "bin", "trace_workload"), "--mode", workload, "--frames",
                   str(args.frames)]
        extra = {}
    argv, more = command(config, program, strata, servers, args.other_strata)
    extra.update(more)
    result = subprocess.run(argv, capture_output=True, text=True, env=environment(extra), timeout=600)
    if result.returncode != 0:
        fail(f"{workload} under {config} failed ({result.returncode}):\n{result.stdout[-2000:]}{result.stderr[-2000:]}")
    if workload == "glmark2":
        match = re.search(r"glmark2 Score: (\d+)", result.stdout)
        if match is None:
            fail(f"glmark2 under {config} printed no score:\n{result.stdout[-2000:]}")
        return float(match.group(1)), None
    seconds = float(re.search(r"frames in ([0-9.]+) s", result.stdout).group(1))
    return args.frames / seconds, seconds / args.frames


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--frames", type=int, default=100, help="frames per trace_workload run")
    parser.add_argument("--workloads", default="cheap,draws,roundtrip,upload,glmark2")
    parser.add_argument("--configs", default="native,ring,socket,virgl")
    parser.add_argument("--build", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build"))
    parser.add_argument("--compare", metavar="DIR",
                        help="another build tree (its bin/ and lib/): configuration 'other' runs its client and renderer")
    args = parser.parse_args()
    workloads = args.workloads.split(",")
    configs = args.configs.split(",")
    for w in workloads:
        if w not in WORKLOADS:
            fail(f"unknown workload '{w}' (one of {', '.join(WORKLOADS)})")
    for c in configs:
        if c not in CONFIGS:
            fail(f"unknown configuration '{c}' (one of {', '.join(CONFIGS)})")
    if "native" not in configs:
        configs.insert(0, "native")
    args.other_strata = None
    if args.compare:
        args.other_strata = os.path.join(args.compare, "bin", "strata")
        if not os.access(args.other_strata, os.X_OK):
            fail(f"no strata in {args.compare}/bin")
        if "other" not in configs:
            configs.append("other")
    elif "other" in configs:
        fail("configuration 'other' needs --compare DIR")
    strata = os.path.join(args.build, "bin", "strata")
    if not os.access(strata, os.X_OK):
        fail(f"no strata in {args.build}/bin (build first, or give --build)")
    speeds = {(w, c): [] for w in workloads for c in configs}
    ratios = {(w, c): [] for w in workloads for c in configs}
    latency = {(w, c): [] for w in workloads for c in configs}
    # The servers' logs: removed after a run that completes, kept (and named) after one that does not.
    tmp = tempfile.mkdtemp(prefix="strata-remote-bench-")
    servers = None
    completed = False
    try:
        servers = Servers(strata, configs, "glmark2" in workloads, tmp, args.other_strata)
        for round_index in range(args.rounds):
            for workload in workloads:
                order = configs[:]
                random.shuffle(order)
                this_round = {}
                for config in order:
                    speed, seconds_per_frame = run_once(workload, config, args, strata, servers)
                    this_round[config] = speed
                    speeds[(workload, config)].append(speed)
                    if workload in TRACE_CALLS_PER_FRAME:
                        latency[(workload, config)].append(seconds_per_frame / TRACE_CALLS_PER_FRAME[workload] * 1e6)
                for config in configs:
                    ratios[(workload, config)].append(this_round[config] / this_round["native"])
            print(f"round {round_index + 1}/{args.rounds} done", file=sys.stderr)
        completed = True
    finally:
        if servers is not None:
            servers.stop()
        if completed:
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            print(f"remote_speed: the servers' logs are kept in {tmp}", file=sys.stderr)
    print(f"{'workload':<10} {'config':<8} {'median speed':>14} {'x native (median of rounds)':>28}")
    for workload in workloads:
        unit = {"glmark2": "score", "upload": "MB/s"}.get(workload, "frames/s")
        scale = UPLOAD_MB_PER_FRAME if workload == "upload" else 1.0
        for config in configs:
            print(f"{workload:<10} {config:<8} {statistics.median(speeds[(workload, config)]) * scale:>8.1f} {unit:<8}"
                  f" {statistics.median(ratios[(workload, config)]):>18.2f}x"
                  f"   (rounds: {', '.join(f'{r:.2f}' for r in ratios[(workload, config)])})")
    for workload, what in (("roundtrip", "one-pixel glReadPixels"), ("geterror", "glGetError"),
                           ("create", "texture made, bound, set up and deleted"),
                           ("saved", "draw with the app's state saved and put back")):
        if workload in workloads:
            for config in configs:
                print(f"one {what}, {config}: {statistics.median(latency[(workload, config)]):.2f} us (median)")


if __name__ == "__main__":
    main()
