// Real programs traced: every call recorded (the call counter layer, stacked
// above the trace layer, must count exactly what the trace holds), nothing
// undecodable, threads, a process killed mid-run, and sinks that fail.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include "stream/call_decoder.h"
#include "stream/framebuffer_record.h"
#include "stream/ordered_reader.h"
#include "stream/record_reader.h"
#include "support/png_image.h"
#include "support/process.h"
#include "support/scratch.h"
#include "support/trace_check.h"
#include "transport/sockets.h"

namespace {

using strata::test::ProcessOptions;
using strata::test::ProcessResult;
using strata::test::RunProcess;
using strata::test::ScratchPath;
using strata::test::WaitUntilAttachable;

// Runs `argv` traced, with the call counter above the tracer and the test's
// counting shim preloaded; checks that the trace holds exactly the calls both
// saw, all decodable and covered.
// Catches: a call the tracer drops, records twice or invents, seen from the
// program's side of Strata's dispatch as well as from inside it.
void ExpectTraceMatchesCounter(const std::vector<std::string>& argv, const std::string& name) {
  strata::test::TracedRun run = strata::test::RunTracedAndCounted(STRATA_CLI, argv, name);
  ASSERT_EQ(run.process.exit_code, 0) << run.process.out << run.process.err;
  EXPECT_EQ(run.process.err.find("strata: error"), std::string::npos) << run.process.err;
  EXPECT_GT(run.counted.size(), 10u);
  EXPECT_EQ(run.traced, run.counted) << "per-function call counts differ between the trace and the call counter";
  EXPECT_GT(run.preloaded.size(), 10u);
  EXPECT_EQ(run.TracedComparable(), run.PreloadedComparable()) << "per-function counts differ between the trace and the preloaded shim";
  EXPECT_EQ(run.undecodable_records, 0) << run.stats_json.substr(0, 400);
  EXPECT_EQ(run.uncovered_calls, 0) << run.stats_json.substr(0, 400);
  EXPECT_TRUE(run.complete) << run.stats_json.substr(0, 400);
}

class TracedSampleApp : public ::testing::TestWithParam<std::string> {};

// A directory `name` holding DIR/app, whose DT_RPATH is DIR/bundled, and there
// the system's own libEGL and libGLESv2 (glvnd's): a program that brings its
// libraries along. Returns DIR.
std::string BundledDriverApp(const std::string& name) {
  const std::string dir = ScratchPath(name);
  std::filesystem::create_directories(dir + "/bundled");
  std::filesystem::copy_file(STRATA_BUNDLED_DRIVER_APP, dir + "/app");
  std::filesystem::permissions(dir + "/app", std::filesystem::perms::owner_all);
  for (const char* library : {"libEGL.so.1", "libGLESv2.so.2"}) {
    std::filesystem::copy_file(std::filesystem::canonical(std::string(STRATA_SYSTEM_LIB_DIR "/") + library),
                               dir + "/bundled/" + library);
  }
  return dir;
}

TEST_P(TracedSampleApp, TraceHoldsEveryCallTheCounterSaw) {
  ExpectTraceMatchesCounter({std::string(STRATA_BIN_DIR) + "/" + GetParam(), "--frames", "20"}, GetParam());
}

INSTANTIATE_TEST_SUITE_P(Apps, TracedSampleApp, ::testing::Values("gles1_cube", "gles2_shaders", "gles3_instanced"),
                         [](const auto& info) { return info.param; });

TEST(TracedPrograms, ThreeThreadsAndSharedContexts) {
  ExpectTraceMatchesCounter({STRATA_THREADED_APP, "40"}, "threaded");
  std::string trace = ScratchPath("threaded2.strace");
  ProcessResult r = RunProcess({STRATA_CLI, "trace", "-o", trace, "--", STRATA_THREADED_APP, "40"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ProcessResult dump = RunProcess({STRATA_CLI, "dump", "--json", trace});
  ASSERT_EQ(dump.exit_code, 0) << dump.err;
  // Per thread, calls appear in the file in the order they were made.
  std::map<long, long> last_sequence;
  std::set<std::string> contexts;
  static const std::regex call(R"re("seq":(\d+),"thread":(\d+),"context":(\d+))re");
  for (auto it = std::sregex_iterator(dump.out.begin(), dump.out.end(), call); it != std::sregex_iterator(); ++it) {
    long seq = std::stol((*it)[1]), thread = std::stol((*it)[2]);
    if (last_sequence.count(thread)) {
      EXPECT_GT(seq, last_sequence[thread]);
    }
    last_sequence[thread] = seq;
    contexts.insert((*it)[3]);
  }
  EXPECT_GE(last_sequence.size(), 4u) << "the main thread and three render threads";
  EXPECT_GE(contexts.size(), 4u) << "no context, and three contexts";
  // Every call carries the context current on its thread, state calls too
  // (their raw entries leave it out: src/layers/trace/raw_entry.h): one id
  // from a thread's eglMakeCurrent to its next, and none after it made no
  // context current.
  struct ThreadCalls {
    bool made_current = false, released = false;
    std::string context;
    int clear_colors = 0;
  };
  std::map<std::string, ThreadCalls> threads;
  static const std::regex record(R"re("thread":(\d+),"context":(\d+),"function":"(\w+)")re");
  std::stringstream lines(dump.out);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (!std::regex_search(line, m, record)) continue;
    ThreadCalls& t = threads[m[1]];
    const std::string context = m[2], function = m[3];
    if (function == "eglMakeCurrent") {
      t.made_current = true;
      t.released = line.find(R"({"name":"ctx","value":null})") != std::string::npos;
      t.context.clear();
      continue;
    }
    if (!t.made_current) continue;
    if (t.released) {
      EXPECT_EQ(context, "0") << line;
      continue;
    }
    if (t.context.empty()) t.context = context;
    EXPECT_NE(context, "0") << line;
    EXPECT_EQ(context, t.context) << line;
    t.clear_colors += function == "glClearColor";
  }
  int clear_colors = 0;
  for (const auto& [thread, calls] : threads) clear_colors += calls.clear_colors;
  EXPECT_EQ(clear_colors, 3 * 40) << "glClearColor, a state call, once per frame on each render thread";
  ProcessResult stats = RunProcess({STRATA_CLI, "stats", trace});
  EXPECT_NE(stats.out.find("(120 draws)"), std::string::npos) << stats.out;  // 3 threads x 40 frames
  unlink(trace.c_str());
}

// The bytes the trace holds behind pointers, against the bytes the app itself
// passed or read (it prints them): what goes in (attribute lists, texture and
// buffer data) and what comes out (the config list, glGet answers, generated
// names, glReadPixels pixels).
// Catches: pointer data recorded empty, short, from the wrong moment (before
// the call wrote it) or from the wrong argument.
// A program that links no GL library and dlopens the system's libEGL.so.1 and
// libGLESv2.so.2 by absolute path gets Strata's (libstrata_audit.so): its
// calls pass the layers (the call counter) and are traced, and it renders.
// Catches: loads by path that bypass Strata ("no trace written"), or a
// redirect that also catches the loader's own load of the real driver (which
// would loop or fail to initialize), here also through the test's preloaded
// dlopen wrapper.
// The other side of loads by path: a layer from outside Strata's directory
// that opens the system's libEGL by path gets the driver (by_path_layer.cpp),
// not Strata's libEGL, whose calls would enter the layer chain again.
// Catches: the audit module redirecting the loads of what Strata itself loaded.
TEST(TracedPrograms, LayersLoadingTheDriverByPathGetTheDriver) {
  ProcessResult r = RunProcess({STRATA_CLI, "run", "--layer-path", STRATA_TEST_LAYER_DIR, "--layers",
                                "libby_path_layer.so", "--", STRATA_SWAP_KINDS_APP});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("by_path_layer: libEGL from " STRATA_SYSTEM_LIB_DIR "/"), std::string::npos) << r.err;
}

TEST(TracedPrograms, LibrariesLoadedByAbsolutePathAreLayeredAndTraced) {
  strata::test::TracedRun run = strata::test::RunTracedAndCounted(STRATA_CLI, {STRATA_ABSOLUTE_PATH_APP}, "by-path");
  ASSERT_EQ(run.process.exit_code, 0) << run.process.out << run.process.err;
  EXPECT_NE(run.process.out.find("pixel 00ff00ff"), std::string::npos) << run.process.out;
  for (const char* name : {"eglGetPlatformDisplay", "eglInitialize", "eglMakeCurrent", "glClear", "glReadPixels",
                           "eglSwapBuffers"}) {
    EXPECT_GE(run.counted[name], 1) << name << " did not pass the layers";
    EXPECT_GE(run.traced[name], 1) << name << " is not in the trace";
  }
  EXPECT_EQ(run.traced, run.counted) << "per-function call counts differ between the trace and the call counter";
  EXPECT_EQ(run.undecodable_records, 0) << run.stats_json.substr(0, 400);
}

// When no call reaches Strata, `strata trace` says why instead of "cannot
// open": a program that loads no GL library, one statically linked, and one
// that brings its own libEGL/libGLESv2 through DT_RPATH and is started with
// glvnd's vendor list reset (so neither route reaches it).
// Catches: a silent "no trace written", or a reason that names the wrong cause.
TEST(TracedPrograms, ProgramsStrataCannotReachAreExplained) {
  std::string trace = ScratchPath("unreached.strace");
  ProcessResult no_gl = RunProcess({STRATA_CLI, "trace", "-o", trace, "--", "/bin/true"});
  EXPECT_EQ(no_gl.exit_code, 0);
  EXPECT_TRUE(std::regex_search(no_gl.err, std::regex("no trace written: no EGL/GLES call reached Strata: process "
                                                      "[0-9]+ \\(true\\) loaded no EGL or GLES library")))
      << no_gl.err;

  ProcessResult static_program = RunProcess({STRATA_CLI, "trace", "-o", trace, "--", STRATA_STATIC_APP});
  EXPECT_EQ(static_program.exit_code, 0);
  EXPECT_NE(static_program.err.find("no EGL/GLES call reached Strata: " STRATA_STATIC_APP " is statically linked"),
            std::string::npos)
      << static_program.err;

  const std::string dir = BundledDriverApp("bundled");
  ProcessResult bundled =
      RunProcess({STRATA_CLI, "trace", "-o", trace, "--", "env", "-u", "__EGL_VENDOR_LIBRARY_FILENAMES", dir + "/app"});
  EXPECT_EQ(bundled.exit_code, 0) << bundled.out << bundled.err;
  EXPECT_NE(bundled.out.find("frame 3"), std::string::npos) << "the app ran on its own libraries\n" << bundled.out;
  EXPECT_NE(bundled.err.find("loaded " + dir + "/bundled/libEGL.so.1 from outside Strata"), std::string::npos)
      << bundled.err;
  EXPECT_NE(access(trace.c_str(), F_OK), 0) << "no trace file";
  std::filesystem::remove_all(dir);
}

// Programs that reach EGL only through the system's libEGL (glvnd) pass the
// loader as glvnd's first vendor: one with glvnd's libEGL/libGLESv2 in its
// DT_RPATH (searched before LD_LIBRARY_PATH), and ones started by a launcher
// that resets the library path and the audit module (GLES 2 and GLES 1.1).
// Catches: a glvnd route that bypasses the layers or the tracer, records a
// call twice (the vendor and the public libraries both serving), or renders
// something else.
TEST(TracedPrograms, ProgramsReachingEglOnlyThroughGlvndAreLayeredAndTraced) {
  const std::string dir = BundledDriverApp("glvnd-bundled");
  const std::vector<std::vector<std::string>> programs = {
      {dir + "/app"},
      {"env", "-u", "LD_LIBRARY_PATH", "-u", "LD_AUDIT", STRATA_BIN_DIR "/gles2_shaders", "--frames", "5"},
      {"env", "-u", "LD_LIBRARY_PATH", "-u", "LD_AUDIT", STRATA_BIN_DIR "/gles1_cube", "--frames", "5"},
  };
  for (const auto& argv : programs) {
    std::string command_line;
    for (const std::string& arg : argv) command_line += arg + " ";
    SCOPED_TRACE(command_line);
    strata::test::TracedRun run = strata::test::RunTracedAndCounted(STRATA_CLI, argv, "glvnd-route");
    ASSERT_EQ(run.process.exit_code, 0) << run.process.out << run.process.err;
    EXPECT_EQ(run.process.err.find("strata: error"), std::string::npos) << run.process.err;
    for (const char* name : {"eglInitialize", "eglMakeCurrent", "eglSwapBuffers", "glClear"}) {
      EXPECT_GE(run.counted[name], 1) << name << " did not pass the layers";
    }
    EXPECT_EQ(run.traced, run.counted) << "per-function call counts differ between the trace and the call counter";
    // glvnd answers some calls itself: eglGetProcAddress (from what the loader
    // told it), eglQueryString of EGL_NO_DISPLAY (from what it gathered), and
    // an eglBindAPI that keeps the bound API (it passes on only changes).
    std::map<std::string, long> preloaded = run.PreloadedComparable(), traced = run.TracedComparable();
    for (const char* name : {"eglGetProcAddress", "eglQueryString", "eglBindAPI"}) {
      EXPECT_LE(traced[name], preloaded[name]) << name;
      preloaded.erase(name);
      traced.erase(name);
    }
    EXPECT_EQ(traced, preloaded) << "per-function counts differ between the trace and the preloaded shim";
    EXPECT_EQ(run.undecodable_records, 0) << run.stats_json.substr(0, 400);
    EXPECT_TRUE(run.complete) << run.stats_json.substr(0, 400);
  }
  std::filesystem::remove_all(dir);
}

TEST(TracedPrograms, PointerDataIsWhatTheAppPassedAndRead) {
  std::string trace = ScratchPath("pointer-data.strace");
  ProcessResult r = RunProcess({STRATA_CLI, "trace", "-o", trace, "--", STRATA_POINTER_DATA_APP});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  std::map<std::string, std::string> app;  // "function.argument" (or ".pname") -> hex
  std::stringstream lines(r.out);
  for (std::string key, hex; lines >> key >> hex;) app[key] = hex;
  ASSERT_EQ(app.size(), 12u) << r.out;

  auto hex = [](std::span<const uint8_t> bytes) {
    std::string text;
    char digits[3];
    for (uint8_t b : bytes) {
      std::snprintf(digits, sizeof digits, "%02x", b);
      text += digits;
    }
    return text;
  };
  std::string error;
  auto reader = strata::stream::OrderedRecordReader::Open(trace, &error);
  ASSERT_TRUE(reader) << error;
  strata::stream::CallDecoder decoder(reader->functions());
  // Which argument of which call holds each of the app's values; in = passed, out = read.
  struct Place {
    int arg;
    bool out;
    std::string key;
  };
  const std::map<std::string, std::vector<Place>> places = {
      {"eglChooseConfig", {{1, false, "attrib_list"}, {2, true, "configs"}, {4, true, "num_config"}}},
      {"glGenTextures", {{1, true, "textures"}}},
      {"glGenBuffers", {{1, true, "buffers"}}},
      {"glGenFramebuffers", {{1, true, "framebuffers"}}},
      {"glBufferData", {{2, false, "data"}}},
      {"glTexImage2D", {{8, false, "pixels"}}},
      {"glReadPixels", {{6, true, "pixels"}}},
  };
  const std::map<uint64_t, std::string> pnames = {
      {0x0BA2, "GL_VIEWPORT"}, {0x0D33, "GL_MAX_TEXTURE_SIZE"}, {0x0C22, "GL_COLOR_CLEAR_VALUE"}};
  std::map<std::string, std::string> traced;
  strata::stream::Record record;
  while (reader->Next(&record)) {
    if (record.type != strata::stream::RecordType::kCall) continue;
    strata::stream::DecodedCall call;
    ASSERT_TRUE(decoder.Decode(record.payload, record.thread_id, record.chunk, &call, &error)) << error;
    std::string function(call.name);
    if (function == "glGetIntegerv" || function == "glGetFloatv") {
      auto pname = pnames.find(call.args[0].u);
      if (pname == pnames.end()) continue;
      ASSERT_TRUE(call.args[1].has_out) << function << " " << pname->second;
      traced[function + "." + pname->second] = hex(call.args[1].out);
      continue;
    }
    auto it = places.find(function);
    if (it == places.end()) continue;
    for (const Place& place : it->second) {
      const strata::stream::DecodedValue& arg = call.args[place.arg];
      ASSERT_TRUE(place.out ? arg.has_out : arg.has_in) << function << "." << place.key;
      traced[function + "." + place.key] = hex(place.out ? arg.out : arg.in);
    }
  }
  EXPECT_TRUE(reader->error().empty()) << reader->error();
  for (const auto& [key, expected] : app) {
    EXPECT_EQ(traced[key], expected) << key << ": the trace's bytes differ from what the app passed or read";
  }
  // The pixels read are the texels uploaded: the check above compares real data, not zeros.
  EXPECT_EQ(app["glReadPixels.pixels"], app["glTexImage2D.pixels"]);
  EXPECT_NE(app["glGenTextures.textures"], std::string(24, '0'));
  unlink(trace.c_str());
}

TEST(TracedPrograms, KilledProcessLeavesAReadableTrace) {
  std::string trace = ScratchPath("killed.strace");
  ProcessOptions options;
  options.set_env = {{"STRATA_LAYERS", "libstrata_trace.so"}, {"STRATA_TRACE", "file:" + trace}};
  options.timeout_seconds = 3;  // then SIGKILL
  ProcessResult r = RunProcess({STRATA_CLI, "run", "--", STRATA_BIN_DIR "/gles2_shaders", "--frames", "100000000"},
                               options);
  ASSERT_TRUE(r.timed_out) << "the app should still have been running: " << r.err;
  ProcessResult dump = RunProcess({STRATA_CLI, "dump", "--no-header", trace});
  EXPECT_EQ(dump.exit_code, 0) << dump.err;
  int lines = 0, frames = 0;
  std::stringstream s(dump.out);
  for (std::string line; std::getline(s, line);) {
    lines += line.find("(") != std::string::npos;
    frames += line.rfind("-- end of frame", 0) == 0;
  }
  EXPECT_GT(lines, 500) << "calls made before the kill must be in the trace";
  EXPECT_GT(frames, 2);
  ProcessResult stats = RunProcess({STRATA_CLI, "stats", trace});
  EXPECT_EQ(stats.exit_code, 0) << stats.err;
  EXPECT_NE(stats.out.find("[incomplete: no index]"), std::string::npos) << stats.out;
  unlink(trace.c_str());
}

// A sink that cannot be opened: one clear message, the app runs on untraced.
TEST(TracedPrograms, UnwritableOrFullTraceDestinationLeavesTheAppRunning) {
  for (const std::string& destination : {std::string("file:/proc/strata-no-such-dir/x.strace"),
                                         std::string("file:/dev/full")}) {
    ProcessOptions options;
    options.set_env = {{"STRATA_LAYERS", "libstrata_trace.so"}, {"STRATA_TRACE", destination}};
    ProcessResult r = RunProcess({STRATA_CLI, "run", "--", STRATA_BIN_DIR "/gles2_shaders", "--frames", "5"}, options);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("rendered 5 frames"), std::string::npos);
    int errors = 0;
    for (size_t at = r.err.find("strata: error:"); at != std::string::npos; at = r.err.find("strata: error:", at + 1)) {
      ++errors;
    }
    EXPECT_EQ(errors, 1) << r.err;
    EXPECT_NE(r.err.find("tracing disabled"), std::string::npos) << r.err;
  }
}

// A live trace: the process serves the stream, `strata trace --connect` stores it.
TEST(LiveTrace, HostStoresTheStreamAsATraceFile) {
  std::string address = "unix:@strata-test-live-" + std::to_string(getpid());
  std::string trace = ScratchPath("live.strace");
  pid_t host = fork();
  if (host == 0) {
    execl(STRATA_CLI, STRATA_CLI, "trace", "--connect", address.c_str(), "-o", trace.c_str(), "--wait", "20",
          static_cast<char*>(nullptr));
    _exit(127);
  }
  ProcessResult app = RunProcess({STRATA_CLI, "trace", "--listen", address, "--", STRATA_BIN_DIR "/gles2_shaders",
                                  "--frames", "12"});
  int status = 0;
  waitpid(host, &status, 0);
  ASSERT_EQ(app.exit_code, 0) << app.err;
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  ProcessResult stats = RunProcess({STRATA_CLI, "stats", "--json", trace});
  ASSERT_EQ(stats.exit_code, 0) << stats.err;
  EXPECT_NE(stats.out.find("\"complete\":true"), std::string::npos) << stats.out.substr(0, 300);
  // Twelve swaps are twelve frames; the teardown after the last is not a frame.
  EXPECT_NE(stats.out.find("\"frames\":12,"), std::string::npos) << stats.out.substr(0, 300);
  EXPECT_EQ(stats.out.find("\"calls_after_last_frame\":0,"), std::string::npos) << stats.out.substr(0, 300);
  EXPECT_NE(stats.out.find("\"undecodable_records\":0"), std::string::npos);
  unlink(trace.c_str());
}

// No client comes, or the client goes away: tracing stops, the app runs on.
TEST(LiveTrace, MissingOrVanishingClientStopsTracingOnly) {
  std::string address = "unix:@strata-test-nobody-" + std::to_string(getpid());
  ProcessOptions options;
  options.set_env = {{"STRATA_TRACE_WAIT", "1"}};
  ProcessResult alone = RunProcess({STRATA_CLI, "trace", "--listen", address, "--", STRATA_BIN_DIR "/gles2_shaders",
                                    "--frames", "400"},
                                   options);
  EXPECT_EQ(alone.exit_code, 0) << alone.err;
  EXPECT_NE(alone.out.find("rendered 400 frames"), std::string::npos);
  EXPECT_NE(alone.err.find("tracing stopped: no client connected to " + address + " within 1 s"), std::string::npos)
      << alone.err;

  // A client that reads the header and a little more, then hangs up.
  std::string address2 = address + "-b";
  pid_t client = fork();
  if (client == 0) {
    std::string error;
    int fd = -1;
    for (int i = 0; i < 100 && fd < 0; ++i, usleep(50000)) fd = strata::transport::ConnectTo(address2, &error);
    char buffer[4096];
    if (fd >= 0 && read(fd, buffer, sizeof buffer) > 0) close(fd);
    _exit(0);
  }
  ProcessResult left = RunProcess({STRATA_CLI, "trace", "--listen", address2, "--", STRATA_BIN_DIR "/gles2_shaders",
                                   "--frames", "400"});
  waitpid(client, nullptr, 0);
  EXPECT_EQ(left.exit_code, 0) << left.err;
  EXPECT_NE(left.out.find("rendered 400 frames"), std::string::npos);
  EXPECT_NE(left.err.find("tracing stopped:"), std::string::npos) << left.err;
  EXPECT_NE(left.err.find("the program continues untraced"), std::string::npos) << left.err;
}

// Switching tracing on and off while the program runs. Each attached trace
// opens with a made-up context of the app's client version (2) and config,
// then a snapshot of what the app made before (its program, buffers and
// mipmapped texture, as made-up calls), and stops growing once detach
// returns. It replays alone: every captured frame matches, the first one
// too (the snapshot draws back what the frame held at the attach), and the
// self-check finds no call that behaves otherwise than recorded.
// Every `strata run` is attachable; --capture given at attach time takes
// effect for that attach only (the first captures each swap, the second, with
// no --capture, only what the program's environment says: the final frame).
// Catches: a synthesized context of the wrong version or config, tracing that
// goes on after detach, an attached trace whose broken replay goes unnoticed,
// a plain `strata run` that cannot be attached, --capture ignored at attach.
TEST(AttachDetach, TraceableProcessIsSwitchedOnAndOffTwice) {
  int out[2];
  ASSERT_EQ(pipe(out), 0);
  pid_t app = fork();
  if (app == 0) {
    unsetenv("STRATA_TRACE_CAPTURE");
    dup2(out[1], 1);
    execl(STRATA_CLI, STRATA_CLI, "run", "--", STRATA_BIN_DIR "/gles2_shaders", "--frames", "100000",
          static_cast<char*>(nullptr));
    _exit(127);
  }
  close(out[1]);
  WaitUntilAttachable(app);
  usleep(1500000);  // started and rendering (its first EGL call long made)
  std::string pid = std::to_string(app);
  std::string first = ScratchPath("attach1.strace"), second = ScratchPath("attach2.strace");
  ProcessResult on = RunProcess({STRATA_CLI, "trace", "--attach", pid, "--capture", "swap", "-o", first});
  EXPECT_EQ(on.exit_code, 0) << on.err;
  EXPECT_EQ(RunProcess({STRATA_CLI, "trace", "--attach", pid, "-o", second}).exit_code, 1) << "already tracing";
  usleep(400000);
  ProcessResult off = RunProcess({STRATA_CLI, "trace", "--detach", pid});
  EXPECT_EQ(off.exit_code, 0) << off.err;
  struct stat detached {};
  ASSERT_EQ(stat(first.c_str(), &detached), 0);
  EXPECT_EQ(RunProcess({STRATA_CLI, "trace", "--detach", pid}).exit_code, 1) << "not tracing any more";
  usleep(200000);
  struct stat later {};
  ASSERT_EQ(stat(first.c_str(), &later), 0);
  EXPECT_EQ(later.st_size, detached.st_size) << "the trace grew after detach returned";
  EXPECT_EQ(RunProcess({STRATA_CLI, "trace", "--attach", pid, "-o", second}).exit_code, 0);
  usleep(300000);
  EXPECT_EQ(RunProcess({STRATA_CLI, "trace", "--detach", pid}).exit_code, 0);
  EXPECT_EQ(kill(app, 0), 0) << "the program keeps running";
  kill(app, SIGTERM);
  waitpid(app, nullptr, 0);
  close(out[0]);

  for (const std::string& trace : {first, second}) {
    const bool captured_swaps = trace == first;
    {
      std::string error;
      auto reader = strata::stream::RecordReader::Open(trace, &error);
      ASSERT_NE(reader, nullptr) << error;
      int swap_images = 0;
      strata::stream::Record record;
      strata::stream::FramebufferImage image;
      while (reader->Next(&record)) {
        swap_images += record.type == strata::stream::RecordType::kFramebuffer &&
                       strata::stream::DecodeFramebuffer(record.payload, &image) && !image.final_frame;
      }
      if (captured_swaps) {
        EXPECT_GT(swap_images, 0) << "--capture swap given at attach time was ignored";
      } else {
        EXPECT_EQ(swap_images, 0) << "the first attach's --capture outlived it";
      }
    }
    ProcessResult dump = RunProcess({STRATA_CLI, "dump", "--json", trace});
    ASSERT_EQ(dump.exit_code, 0) << dump.err;
    // It opens with the made-up creation of the context, then making it current, then the swap.
    auto first_line = dump.out.substr(0, dump.out.find('\n'));
    EXPECT_NE(first_line.find("\"function\":\"eglCreateContext\""), std::string::npos) << first_line;
    EXPECT_NE(first_line.find("\"synthesized\":true"), std::string::npos) << first_line;
    // EGL_CONTEXT_CLIENT_VERSION 2, as gles2_shaders asked, and a config.
    EXPECT_NE(first_line.find(R"("value":[["EGL_CONTEXT_CLIENT_VERSION",2]])"), std::string::npos) << first_line;
    EXPECT_EQ(first_line.find(R"("name":"config","value":null)"), std::string::npos) << first_line;
    auto second_line = dump.out.substr(first_line.size() + 1, dump.out.find('\n', first_line.size() + 1) - first_line.size() - 1);
    EXPECT_NE(second_line.find("\"function\":\"eglMakeCurrent\""), std::string::npos) << second_line;
    // The snapshot: the program linked again, the texture's levels with their images.
    EXPECT_NE(dump.out.find(R"("function":"glLinkProgram")"), std::string::npos);
    EXPECT_NE(dump.out.find(R"("function":"glTexImage2D")"), std::string::npos);
    ProcessResult stats = RunProcess({STRATA_CLI, "stats", "--json", trace});
    EXPECT_NE(stats.out.find("\"complete\":true"), std::string::npos) << stats.out.substr(0, 300);
    EXPECT_NE(stats.out.find("\"undecodable_records\":0"), std::string::npos);
    std::smatch draws;
    ASSERT_TRUE(std::regex_search(stats.out, draws, std::regex(R"re(^\{"program":"[^"]*","calls":\d+,"draws":(\d+))re")));
    EXPECT_GT(std::stol(draws[1]), 0) << "frames were traced";
    // The second trace holds no images to verify (its attach captured none).
    ProcessResult replayed = captured_swaps ? RunProcess({STRATA_CLI, "replay", "--verify", "--strict", trace})
                                            : RunProcess({STRATA_CLI, "replay", "--strict", trace});
    EXPECT_EQ(replayed.exit_code, 0) << replayed.out << replayed.err;
    EXPECT_NE(replayed.out.find("all agree"), std::string::npos) << replayed.out;
    if (captured_swaps) {
      std::smatch matched;
      ASSERT_TRUE(std::regex_search(replayed.out, matched, std::regex(R"(verify: all (\d+) framebuffers match)")))
          << replayed.out;
      EXPECT_GT(std::stol(matched[1]), 0);
    }
    unlink(trace.c_str());
  }
}

// Waits until the trace being written at `trace` holds `frames` framebuffer
// records in its finished chunks (up to 30 s), so that a test detaches once
// frames were captured, however busy the machine, rather than after a fixed
// dwell that a loaded machine can spend before the first capture.
void WaitForCapturedFrames(const std::string& trace, int frames) {
  for (int tries = 0; tries < 600; ++tries) {
    std::string error;
    if (auto reader = strata::stream::RecordReader::Open(trace, &error)) {
      int seen = 0;
      strata::stream::Record record;
      while (reader->Next(&record)) {
        if (record.type == strata::stream::RecordType::kFramebuffer && ++seen >= frames) return;
      }
    }
    usleep(50000);
  }
  ADD_FAILURE() << trace << " held no " << frames << " captured frames within 30 s";
}

// Whether the program an attach found no control socket of still runs, and
// if not, how it ended (left unreaped: the caller's waitpid reaps it, and no
// kill can reach another process that took its pid).
std::string ProgramFate(pid_t app) {
  siginfo_t info{};
  if (waitid(P_PID, static_cast<id_t>(app), &info, WEXITED | WNOHANG | WNOWAIT) != 0) {
    return "\n(the program is not this test's child any more)";
  }
  if (info.si_pid == 0) return "\n(the program still runs)";
  if (info.si_code == CLD_EXITED) return "\n(the program exited with status " + std::to_string(info.si_status) + ")";
  return "\n(the program was killed by signal " + std::to_string(info.si_status) + ")";
}

// Runs `program` under `strata run` (with `environment` set), attaches once
// it has rendered for a while, capturing every swap, into `trace`, and
// detaches once two frames are captured.
void TraceByAttach(const std::vector<std::string>& program, const std::vector<std::string>& environment,
                   const std::string& trace) {
  pid_t app = fork();
  if (app == 0) {
    unsetenv("STRATA_TRACE_CAPTURE");
    for (const std::string& setting : environment) putenv(const_cast<char*>(setting.c_str()));
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    std::vector<char*> argv = {const_cast<char*>(STRATA_CLI), const_cast<char*>("run"), const_cast<char*>("--")};
    for (const std::string& arg : program) argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    execv(STRATA_CLI, argv.data());
    _exit(127);
  }
  WaitUntilAttachable(app);
  usleep(1500000);  // and rendering
  const std::string pid = std::to_string(app);
  ProcessResult on = RunProcess({STRATA_CLI, "trace", "--attach", pid, "--capture", "swap", "-o", trace});
  EXPECT_EQ(on.exit_code, 0) << on.err << ProgramFate(app);
  WaitForCapturedFrames(trace, 2);
  EXPECT_EQ(RunProcess({STRATA_CLI, "trace", "--detach", pid}).exit_code, 0);
  kill(app, SIGTERM);
  waitpid(app, nullptr, 0);
}

// The trace replays alone (--strict: every call runs) to every frame it captured, and it captured some.
void ExpectEveryCapturedFrameReplays(const std::string& trace) {
  ProcessResult replayed = RunProcess({STRATA_CLI, "replay", "--verify", "--strict", trace});
  EXPECT_EQ(replayed.exit_code, 0) << replayed.out << replayed.err;
  std::smatch matched;
  ASSERT_TRUE(std::regex_search(replayed.out, matched, std::regex(R"(verify: all (\d+) framebuffers match)")))
      << replayed.out;
  EXPECT_GT(std::stol(matched[1]), 0);
}

// An attach to a GLES 3 program after it made its vertex array objects,
// instanced attributes and uniform values: the snapshot recreates them and
// the trace replays to every captured frame.
TEST(AttachDetach, Gles3ProgramAttachedMidRunReplaysAlone) {
  const std::string trace = ScratchPath("attach-gles3.strace");
  TraceByAttach({STRATA_BIN_DIR "/gles3_instanced", "--frames", "100000"}, {}, trace);
  ProcessResult dump = RunProcess({STRATA_CLI, "dump", trace});
  EXPECT_NE(dump.out.find("glGenVertexArrays"), std::string::npos) << "the snapshot has the vertex array objects";
  EXPECT_NE(dump.out.find("glVertexAttribDivisor"), std::string::npos) << "and their instanced attributes";
  ExpectEveryCapturedFrameReplays(trace);
  unlink(trace.c_str());
}

// GLES 1.1 reads back neither texture images nor buffer contents: an attach
// to a GLES 1.1 program carries them from the copies the tracer keeps of its
// uploads while it is off, and its fixed-function state, matrix stacks,
// client arrays and the frame being drawn from the driver. gles1_cube
// (client arrays, a texture, lighting set once) and gles1_state_app (buffer
// objects, a two-deep stack, fog) replay to every captured frame; without
// the copies (STRATA_TRACE_SHADOWS=0) gles1_state_app's buffers are empty
// and its frames differ.
TEST(AttachDetach, Gles1ProgramsAttachedMidRunReplayAlone) {
  for (const std::vector<std::string>& program :
       {std::vector<std::string>{STRATA_BIN_DIR "/gles1_cube", "--frames", "100000"},
        std::vector<std::string>{STRATA_GLES1_STATE_APP, "--frames", "100000000"}}) {
    SCOPED_TRACE(program[0]);
    const std::string trace = ScratchPath("attach-gles1.strace");
    TraceByAttach(program, {}, trace);
    ProcessResult dump = RunProcess({STRATA_CLI, "dump", trace});
    EXPECT_NE(dump.out.find("glLoadMatrixf"), std::string::npos) << "the snapshot has the matrix stacks";
    ExpectEveryCapturedFrameReplays(trace);
    unlink(trace.c_str());
  }
  const std::string without = ScratchPath("attach-gles1-without.strace");
  TraceByAttach({STRATA_GLES1_STATE_APP, "--frames", "100000000"}, {"STRATA_TRACE_SHADOWS=0"}, without);
  ProcessResult differs = RunProcess({STRATA_CLI, "replay", "--verify", without});
  EXPECT_EQ(differs.exit_code, 1) << differs.out;
  EXPECT_NE(differs.out.find("framebuffers differ"), std::string::npos) << differs.out;
  unlink(without.c_str());
}

// Two contexts of one share group, both made before the attach: the trace
// makes them again as one share group (the tracer notes which context a
// new one shares with even while it is off), the group's objects once, in
// the first to join. The loader context changes a texel of the shared
// texture every frame and the other draws it: in separate groups the
// replayed frames would keep the first texels.
// Catches: made-up contexts that share nothing, a group's objects written
// twice (the second copy replaces the first under the same names).
TEST(AttachDetach, ContextsSharingObjectsAttachedMidRunReplayAlone) {
  const std::string trace = ScratchPath("attach-shared.strace");
  TraceByAttach({STRATA_SHARED_CONTEXT_APP, "--frames", "100000000"}, {}, trace);
  ProcessResult dump = RunProcess({STRATA_CLI, "dump", "--no-header", trace});
  EXPECT_NE(dump.out.find("eglCreateContext(dpy="), std::string::npos) << dump.out.substr(0, 2000);
  size_t made_up_contexts = 0, shared = 0, textures = 0;
  std::istringstream lines(dump.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.find("eglCreateContext(") != std::string::npos) {
      ++made_up_contexts;
      if (line.find("share_context=NULL") == std::string::npos) ++shared;
    }
    // The app's 2x2 texture (the surfaces' pixels are drawn back through textures of their size).
    if (line.find("glTexImage2D(target=GL_TEXTURE_2D, level=0, internalformat=GL_RGBA, width=2, height=2") !=
        std::string::npos) {
      ++textures;
    }
  }
  EXPECT_EQ(made_up_contexts, 2u);
  EXPECT_EQ(shared, 1u) << "the second context shares the first's objects";
  EXPECT_EQ(textures, 1u) << "the shared texture is made once";
  ExpectEveryCapturedFrameReplays(trace);
  unlink(trace.c_str());
}

// Compressed images cannot be read back from GLES: an attach carries them
// from the copies the tracer keeps of compressed uploads while it is off
// (one glCompressedTexImage2D, one glCompressedTexSubImage2D into
// glTexStorage2D storage). With the copies switched off
// (STRATA_TRACE_SHADOWS=0) the frames after the first differ: the test
// sees the difference the copies make.
TEST(AttachDetach, CompressedTexturesComeFromTheTracersCopies) {
  const std::string trace = ScratchPath("attach-compressed.strace");
  TraceByAttach({STRATA_COMPRESSED_TEXTURE_APP, "100000000"}, {}, trace);
  ProcessResult dump = RunProcess({STRATA_CLI, "dump", trace});
  EXPECT_NE(dump.out.find("glCompressedTexImage2D"), std::string::npos);
  EXPECT_NE(dump.out.find("glTexStorage2D"), std::string::npos);
  EXPECT_NE(dump.out.find("glCompressedTexSubImage2D"), std::string::npos);
  ProcessResult replayed = RunProcess({STRATA_CLI, "replay", "--verify", "--strict", trace});
  EXPECT_EQ(replayed.exit_code, 0) << replayed.out << replayed.err;
  EXPECT_NE(replayed.out.find("framebuffers match"), std::string::npos) << replayed.out;

  const std::string without = ScratchPath("attach-compressed-without.strace");
  TraceByAttach({STRATA_COMPRESSED_TEXTURE_APP, "100000000"}, {"STRATA_TRACE_SHADOWS=0"}, without);
  ProcessResult differs = RunProcess({STRATA_CLI, "replay", "--verify", without});
  EXPECT_EQ(differs.exit_code, 1) << differs.out;
  EXPECT_NE(differs.out.find("framebuffers differ"), std::string::npos) << differs.out;
  unlink(trace.c_str());
  unlink(without.c_str());
}

// One command to a process's control socket (unix:@strata-trace-PID): what
// came back before the process closed the connection, or within `seconds`.
std::string AskControlSocket(pid_t pid, const std::string& line, int seconds) {
  std::string error;
  const int fd = strata::transport::ConnectTo("unix:@strata-trace-" + std::to_string(pid), &error);
  if (fd < 0) return "cannot connect: " + error;
  const timeval patience{seconds, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &patience, sizeof patience);
  std::string answer;
  if (send(fd, line.data(), line.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(line.size())) {
    char buffer[256];
    for (ssize_t got; (got = recv(fd, buffer, sizeof buffer, 0)) > 0;) answer.append(buffer, static_cast<size_t>(got));
  }
  close(fd);
  return answer;
}

// The control socket answers one peer at a time: one that connects and says
// nothing is dropped after 2 s, and the next is answered; a command line past
// the limit (8 KiB) is refused whole, not cut (both found by
// fuzz/control_fuzz.cpp's target).
// Catches: a control socket held forever by a silent peer (the process can
// then never be attached to again), a long line cut short and taken as a command.
TEST(AttachDetach, ControlSocketOutlastsASilentPeerAndRefusesLongLines) {
  pid_t app = fork();
  if (app == 0) {
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    execl(STRATA_CLI, STRATA_CLI, "run", "--", STRATA_BIN_DIR "/gles2_shaders", "--frames", "100000",
          static_cast<char*>(nullptr));
    _exit(127);
  }
  WaitUntilAttachable(app);
  std::string error;
  const int silent = strata::transport::ConnectTo("unix:@strata-trace-" + std::to_string(app), &error);
  ASSERT_GE(silent, 0) << error;
  EXPECT_EQ(AskControlSocket(app, "status\n", 8), "idle\n") << "a peer that says nothing holds the socket";
  EXPECT_EQ(AskControlSocket(app, std::string(9000, 'x') + "\n", 8), "error command longer than 8192 bytes\n");
  EXPECT_EQ(AskControlSocket(app, "status\n", 8), "idle\n");
  close(silent);
  kill(app, SIGTERM);
  waitpid(app, nullptr, 0);
}

TEST(AttachDetach, UntraceableProcessGivesAClearError) {
  ProcessResult r = RunProcess({STRATA_CLI, "trace", "--attach", "1", "-o", ScratchPath("never.strace")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("process 1 is not traceable"), std::string::npos) << r.err;
  EXPECT_EQ(RunProcess({STRATA_CLI, "trace", "--attach", "abc"}).exit_code, 2);
}

// Capture of multisampled framebuffer objects (a renderbuffer and a GLES 3.1
// texture): each is resolved into the tracer's own buffer and read; the app,
// which leaves a GL error pending across each draw and checks its bindings
// and scissor test after it, sees nothing of it (it exits 1 otherwise); the
// images hold the colours it drew, and replay reads them back alike.
// Catches: glReadPixels of a multisampled framebuffer (GL_INVALID_OPERATION
// reaching the app), a capture that takes the app's pending error, bindings
// left changed, a multisampled texture not captured.
TEST(CapturedMultisampling, ResolvedWithoutTheAppNoticing) {
  const std::string trace = ScratchPath("multisample.strace");
  ProcessResult traced = RunProcess({STRATA_CLI, "trace", "--capture", "draw", "-o", trace, "--", STRATA_MULTISAMPLE_APP});
  ASSERT_EQ(traced.exit_code, 0) << traced.out << traced.err;
  std::map<uint64_t, std::string> drawn;  // framebuffer -> RRGGBBAA, as the app printed
  static const std::regex line(R"(framebuffer (\d+) ([0-9a-f]{8}))");
  for (std::sregex_iterator it(traced.out.begin(), traced.out.end(), line), end; it != end; ++it) {
    drawn[std::stoull((*it)[1])] = (*it)[2];
  }
  ASSERT_EQ(drawn.size(), 2u) << traced.out;
  std::string error;
  auto reader = strata::stream::RecordReader::Open(trace, &error);
  ASSERT_NE(reader, nullptr) << error;
  std::map<uint64_t, std::string> captured;
  strata::stream::Record record;
  while (reader->Next(&record)) {
    if (record.type != strata::stream::RecordType::kFramebuffer) continue;
    strata::stream::FramebufferImage image;
    std::vector<uint8_t> rgba;  // a BGRA8 capture as RGBA8
    ASSERT_TRUE(strata::stream::DecodeFramebufferAsRgba(record.payload, &image, &rgba));
    if (image.framebuffer == 0 || image.final_frame) continue;
    ASSERT_EQ(image.pixels.size(), image.width * image.height * 4);
    char first[9];
    std::snprintf(first, sizeof first, "%02x%02x%02x%02x", image.pixels[0], image.pixels[1], image.pixels[2],
                  image.pixels[3]);
    for (size_t i = 0; i < image.pixels.size(); i += 4) {
      ASSERT_EQ(std::memcmp(&image.pixels[i], image.pixels.data(), 4), 0) << "framebuffer " << image.framebuffer;
    }
    captured[image.framebuffer] = first;
  }
  EXPECT_EQ(captured, drawn) << "an image per multisampled framebuffer, of the colour drawn into it";
  ProcessResult replayed = RunProcess({STRATA_CLI, "replay", "--verify", "--strict", trace});
  EXPECT_EQ(replayed.exit_code, 0) << replayed.out << replayed.err;
  EXPECT_NE(replayed.out.find("framebuffers match the trace"), std::string::npos) << replayed.out;
  unlink(trace.c_str());
}

// Framebuffer capture: the image taken before the last swap is the frame the
// app itself saved, and capturing does not change what the app renders.
class CapturedSampleApp : public ::testing::TestWithParam<std::string> {};

bool IsDrawCall(std::string_view name) {
  return name.rfind("glDraw", 0) == 0 && name.rfind("glDrawBuffers", 0) != 0;
}

TEST_P(CapturedSampleApp, LastSwapImageIsTheAppsLastFrame) {
  std::string app = std::string(STRATA_BIN_DIR) + "/" + GetParam();
  std::string trace = ScratchPath(GetParam() + "-capture.strace"), traced_png = ScratchPath(GetParam() + "-traced.png"),
              native_png = ScratchPath(GetParam() + "-native.png");
  ProcessResult traced = RunProcess({STRATA_CLI, "trace", "--capture", "swap,draw", "-o", trace, "--", app,
                                     "--frames", "6", "--size", "160x120", "--output", traced_png});
  ASSERT_EQ(traced.exit_code, 0) << traced.err;
  ProcessResult native = RunProcess({app, "--frames", "6", "--size", "160x120", "--output", native_png});
  ASSERT_EQ(native.exit_code, 0) << native.err;
  strata::test::Image saved, untraced;
  std::string error;
  ASSERT_TRUE(strata::test::ReadPng(traced_png, &saved, &error)) << error;
  ASSERT_TRUE(strata::test::ReadPng(native_png, &untraced, &error)) << error;
  EXPECT_EQ(saved.rgba, untraced.rgba) << "capturing changed what the app rendered";

  auto reader = strata::stream::RecordReader::Open(trace, &error);
  ASSERT_NE(reader, nullptr) << error;
  int surface_images = 0, draw_images = 0, draws = 0;
  std::vector<uint8_t> last_surface;
  strata::stream::Record record;
  strata::stream::CallDecoder decoder(reader->functions());
  strata::stream::DecodedCall call;
  while (reader->Next(&record)) {
    if (record.type == strata::stream::RecordType::kCall &&
        decoder.Decode(record.payload, record.thread_id, record.chunk, &call, &error) &&
        IsDrawCall(call.name)) {
      ++draws;
    }
    if (record.type != strata::stream::RecordType::kFramebuffer) continue;
    strata::stream::FramebufferImage image;
    std::vector<uint8_t> rgba;  // a BGRA8 capture as RGBA8
    ASSERT_TRUE(strata::stream::DecodeFramebufferAsRgba(record.payload, &image, &rgba));
    uint64_t framebuffer = image.framebuffer, width = image.width, height = image.height;
    std::span<const uint8_t> pixels = image.pixels;
    ASSERT_EQ(pixels.size(), width * height * 4);
    // The surface is captured before each swap; after a draw, the draw's framebuffer.
    if (framebuffer == 0 && width == 160 && height == 120 && call.name.rfind("eglSwap", 0) != 0) {
      ++surface_images;
      last_surface.assign(pixels.begin(), pixels.end());
    }
    if (IsDrawCall(call.name)) ++draw_images;
  }
  EXPECT_EQ(draw_images, draws) << "one image after each draw";
  EXPECT_GE(surface_images, 6);
  ASSERT_EQ(last_surface.size(), saved.rgba.size());
  // glReadPixels rows start at the bottom; the PNG's at the top.
  size_t row = 160 * 4, differing = 0;
  for (size_t y = 0; y < 120; ++y) {
    differing += std::memcmp(&last_surface[(119 - y) * row], &saved.rgba[y * row], row) != 0;
  }
  EXPECT_EQ(differing, 0u) << "rows of the captured frame differ from the app's own last frame";
  unlink(trace.c_str());
  unlink(traced_png.c_str());
  unlink(native_png.c_str());
}

INSTANTIATE_TEST_SUITE_P(Apps, CapturedSampleApp, ::testing::Values("gles1_cube", "gles2_shaders", "gles3_instanced"),
                         [](const auto& info) { return info.param; });

// eglSwapBuffersWithDamageKHR and ..EXT end frames exactly as eglSwapBuffers
// does: a frame record after each, and --capture swap takes the surface before
// each. The app clears every frame to its own colour, so the images say which
// swap they were taken at.
// Catches: a damage swap that is recorded as an ordinary call (frames merge,
// no capture), or a capture taken after the wrong swap.
TEST(TraceCommand, DamageRegionSwapsEndFramesAndCapture) {
  std::string trace = ScratchPath("swap-kinds.strace");
  ProcessResult r = RunProcess({STRATA_CLI, "trace", "--capture", "swap", "-o", trace, "--", STRATA_SWAP_KINDS_APP});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("4 frames"), std::string::npos) << r.err;
  std::vector<std::string> colours;  // "RRGGBBAA" per frame, from the app
  std::string read_order;             // the driver's own order for the surface, from the app
  std::stringstream out(r.out);
  for (std::string line; std::getline(out, line);) {
    if (line.rfind("frame ", 0) == 0) colours.push_back(line.substr(line.rfind(' ') + 1));
    if (line.rfind("read order ", 0) == 0) read_order = line.substr(11);
  }
  ASSERT_EQ(colours.size(), 4u) << r.out;
  ASSERT_FALSE(read_order.empty()) << r.out;
  // Captured in the driver's own order: a copy, where the other order is a conversion per pixel.
  const uint64_t native_format =
      read_order == "bgra" ? strata::stream::kFramebufferBgra8 : strata::stream::kFramebufferRgba8;

  std::string error;
  auto reader = strata::stream::RecordReader::Open(trace, &error);
  ASSERT_NE(reader, nullptr) << error;
  strata::stream::CallDecoder decoder(reader->functions());
  strata::stream::DecodedCall call;
  strata::stream::Record record;
  std::vector<std::string> swaps;         // the swap calls, in order
  std::vector<std::string> surface_images; // the colour of each surface image
  int frames = 0;
  while (reader->Next(&record)) {
    if (record.type == strata::stream::RecordType::kFrame) ++frames;
    if (record.type == strata::stream::RecordType::kCall &&
        decoder.Decode(record.payload, record.thread_id, record.chunk, &call, &error) &&
        call.name.rfind("eglSwapBuffers", 0) == 0) {
      swaps.emplace_back(call.name);
      EXPECT_EQ(frames, static_cast<int>(swaps.size()) - 1) << call.name << " is not the end of its own frame";
    }
    if (record.type != strata::stream::RecordType::kFramebuffer) continue;
    strata::stream::FramebufferImage image;
    std::vector<uint8_t> rgba;  // a BGRA8 capture as RGBA8
    ASSERT_TRUE(strata::stream::DecodeFramebuffer(record.payload, &image));
    EXPECT_EQ(image.format, native_format);
    ASSERT_TRUE(strata::stream::DecodeFramebufferAsRgba(record.payload, &image, &rgba));
    if (image.framebuffer != 0 || image.final_frame) continue;
    ASSERT_EQ(image.pixels.size(), image.width * image.height * 4);
    char hex[9];
    std::snprintf(hex, sizeof hex, "%02x%02x%02x%02x", image.pixels[0], image.pixels[1], image.pixels[2],
                  image.pixels[3]);
    surface_images.push_back(hex);
  }
  EXPECT_EQ(frames, 4);
  EXPECT_EQ(swaps, (std::vector<std::string>{"eglSwapBuffers", "eglSwapBuffersWithDamageKHR",
                                             "eglSwapBuffersWithDamageEXT", "eglSwapBuffersWithDamageEXT"}));
  EXPECT_EQ(surface_images, colours) << "one image before each swap, of the frame that swap ends";
  unlink(trace.c_str());
}

TEST(TraceCommand, WritesDumpsAndSummarizes) {
  std::string trace = ScratchPath("cmd.strace");
  ProcessResult r = RunProcess({STRATA_CLI, "trace", "-o", trace, "--compression", "zstd", "--",
                                STRATA_BIN_DIR "/gles3_instanced", "--frames", "6"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("strata trace: " + trace + ": "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("6 frames"), std::string::npos) << r.err;
  ProcessResult draws = RunProcess({STRATA_CLI, "dump", "--frames", "2-3", "--grep", "^glDraw", "--no-header", trace});
  ASSERT_EQ(draws.exit_code, 0) << draws.err;
  std::stringstream s(draws.out);
  int lines = 0;
  for (std::string line; std::getline(s, line);) {
    ++lines;
    EXPECT_NE(line.find("] glDraw"), std::string::npos) << line;
  }
  EXPECT_GE(lines, 2) << draws.out;
  ProcessResult stats = RunProcess({STRATA_CLI, "stats", trace});
  EXPECT_NE(stats.out.find("frame"), std::string::npos);
  EXPECT_NE(stats.out.find("glDrawElementsInstanced"), std::string::npos) << stats.out;
  unlink(trace.c_str());
}

// Calls that only set state are recorded without reading the clock: marked
// untimed, duration 0, starting where the thread's previous timed call ended.
// Calls that do work keep their times; --timing all times every call.
TEST(TraceCommand, StateSettingCallsAreUntimedUnlessAllAreAskedFor) {
  const std::set<std::string> state_setters = {"glUniform4f", "glEnable", "glDisable", "glBindBuffer", "glUseProgram",
                                               "glBindTexture", "glDepthMask", "glViewport"};
  const std::set<std::string> workers = {"glDrawArrays", "glDrawElements", "eglSwapBuffers", "glCompileShader",
                                         "glLinkProgram", "glTexImage2D", "glGenerateMipmap"};
  const std::regex fields(R"re("thread":(\d+).*"function":"(\w+)".*?("untimed":true,)?"start_ns":(\d+),"duration_ns":(\d+)\})re");
  for (std::string timing : {"work", "all"}) {
    SCOPED_TRACE("--timing " + timing);
    std::string trace = ScratchPath("timing-" + timing + ".strace");
    ProcessResult r = RunProcess({STRATA_CLI, "trace", "--timing", timing, "-o", trace, "--",
                                  STRATA_BIN_DIR "/gles2_shaders", "--frames", "4"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    ProcessResult dump = RunProcess({STRATA_CLI, "dump", "--json", trace});
    ASSERT_EQ(dump.exit_code, 0) << dump.err;
    std::map<std::string, uint64_t> timed_end;  // per thread: where its last timed call ended
    std::map<std::string, uint64_t> last_start;
    int untimed_state = 0, timed_state = 0, timed_work = 0, untimed_other = 0;
    std::stringstream lines(dump.out);
    for (std::string line; std::getline(lines, line);) {
      std::smatch m;
      if (line.empty() || line[0] != '{' || line.find("\"function\"") == std::string::npos) continue;
      ASSERT_TRUE(std::regex_search(line, m, fields)) << line;
      const std::string thread = m[1], function = m[2];
      const bool untimed = m[3].matched;
      const uint64_t start = std::stoull(m[4]), duration = std::stoull(m[5]);
      EXPECT_GE(start, last_start[thread]) << "starts go backwards: " << line;
      last_start[thread] = start;
      if (untimed) {
        EXPECT_EQ(duration, 0u) << line;
        if (timed_end.count(thread)) {
          EXPECT_EQ(start, timed_end[thread]) << line;
        }
        if (state_setters.count(function)) {
          ++untimed_state;
        } else {
          ++untimed_other;
        }
        EXPECT_TRUE(workers.count(function) == 0) << "a call that does work went untimed: " << line;
        continue;
      }
      timed_end[thread] = start + duration;
      if (state_setters.count(function)) ++timed_state;
      if (workers.count(function)) {
        ++timed_work;
        EXPECT_GT(duration, 0u) << line;
      }
    }
    EXPECT_GT(timed_work, 10);
    if (timing == "work") {
      EXPECT_GT(untimed_state, 30);
      EXPECT_EQ(timed_state, 0) << "state-setting calls are timed by default";
      ProcessResult stats = RunProcess({STRATA_CLI, "stats", trace});
      EXPECT_NE(stats.out.find("state-setting calls are not timed"), std::string::npos) << stats.out;
    } else {
      EXPECT_EQ(untimed_state + untimed_other, 0) << "--timing all leaves calls untimed";
      EXPECT_GT(timed_state, 30);
    }
    unlink(trace.c_str());
  }
  ProcessResult bad = RunProcess({STRATA_CLI, "trace", "--timing", "some", "--", STRATA_BIN_DIR "/gles2_shaders"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--timing takes work or all"), std::string::npos) << bad.err;
}

// STRATA_TRACE_PROCESS: of a program and its children, only the named one is traced.
TEST(TraceCommand, ProcessFilterTracesOnlyTheNamedProgram) {
  std::string trace = ScratchPath("filtered.strace");
  std::string script = std::string(STRATA_BIN_DIR) + "/gles1_cube --frames 3 && " + STRATA_BIN_DIR +
                       "/gles2_shaders --frames 3";
  ProcessResult r = RunProcess({STRATA_CLI, "trace", "--process", "gles2_shaders", "-o", trace, "--", "sh", "-c",
                                script});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ProcessResult dump = RunProcess({STRATA_CLI, "dump", trace});
  ASSERT_EQ(dump.exit_code, 0) << dump.err;
  EXPECT_NE(dump.out.find("# program: gles2_shaders"), std::string::npos) << dump.out.substr(0, 300);
  EXPECT_EQ(dump.out.find("glRotatef"), std::string::npos) << "gles1_cube must not be traced";
  unlink(trace.c_str());
}

// The files `strata trace` shares with the program (where its processes say
// which trace file each took, why calls bypassed Strata) are its own to
// remove. Told to end (SIGTERM), it passes the signal on to the program and
// ends as the program does (its trace readable), its files removed; one
// killed outright leaves them, and the next run removes the files of runs
// that ended.
// Catches: `strata trace` dying on SIGTERM with the program left running and
// its files in /tmp, files of killed runs piling up in /tmp forever.
std::vector<std::string> TemporaryFilesOf(pid_t pid) {
  std::vector<std::string> names;
  const std::string middle = "-" + std::to_string(pid) + "-";
  for (const auto& entry : std::filesystem::directory_iterator("/tmp")) {
    const std::string name = entry.path().filename();
    if (name.rfind("strata-trace-", 0) == 0 && name.find(middle) != std::string::npos) names.push_back(name);
  }
  return names;
}

TEST(TraceCommand, EndedAndKilledRunsLeaveNoFilesBehind) {
  const std::string trace = ScratchPath("terminated.strace");
  pid_t tracer = fork();
  if (tracer == 0) {
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    execl(STRATA_CLI, STRATA_CLI, "trace", "-o", trace.c_str(), "--", STRATA_BIN_DIR "/gles2_shaders", "--frames",
          "1000000", static_cast<char*>(nullptr));
    _exit(127);
  }
  for (int tries = 0; tries < 300 && TemporaryFilesOf(tracer).size() < 2; ++tries) usleep(20000);
  EXPECT_EQ(TemporaryFilesOf(tracer).size(), 2u) << "the registry and the audit report";
  usleep(500000);  // the program renders
  // The program, to end it here should strata trace leave it running.
  std::ifstream children("/proc/" + std::to_string(tracer) + "/task/" + std::to_string(tracer) + "/children");
  pid_t program = 0;
  children >> program;
  EXPECT_GT(program, 0) << "strata trace runs the program as its child";
  kill(tracer, SIGTERM);
  int status = 0;
  waitpid(tracer, &status, 0);
  const bool program_left = program > 0 && kill(program, 0) == 0;
  if (program_left) kill(program, SIGKILL);
  EXPECT_FALSE(program_left) << "the program outlived strata trace";
  EXPECT_TRUE(WIFEXITED(status)) << "strata trace ended as the program did, not by the signal";
  EXPECT_TRUE(TemporaryFilesOf(tracer).empty());
  EXPECT_EQ(WEXITSTATUS(status), 128 + SIGTERM) << "as the program ended";
  ProcessResult stats = RunProcess({STRATA_CLI, "stats", "--json", trace});
  EXPECT_EQ(stats.exit_code, 0) << "what the program traced is readable: " << stats.err;

  // A run killed outright: its files stay until a later run finds it ended.
  pid_t ended = fork();
  if (ended == 0) _exit(0);
  waitpid(ended, nullptr, 0);
  const std::string left = "/tmp/strata-trace-files-" + std::to_string(ended) + "-Xy12ab";
  std::ofstream(left) << "left by a killed run\n";
  ProcessResult r = RunProcess({STRATA_CLI, "trace", "-o", ScratchPath("next.strace"), "--",
                                STRATA_BIN_DIR "/gles2_shaders", "--frames", "1"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(access(left.c_str(), F_OK), 0) << left << " was left";
  unlink(left.c_str());
}

TEST(TraceCommand, BadTracesGiveOneClearError) {
  ProcessResult foreign = RunProcess({STRATA_CLI, "dump", "/bin/true"});
  EXPECT_EQ(foreign.exit_code, 1);
  EXPECT_NE(foreign.err.find("byte"), std::string::npos) << foreign.err;
  ProcessResult missing = RunProcess({STRATA_CLI, "stats", "/nonexistent.strace"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("/nonexistent.strace"), std::string::npos) << missing.err;
  EXPECT_EQ(RunProcess({STRATA_CLI, "dump"}).exit_code, 2);
  EXPECT_EQ(RunProcess({STRATA_CLI, "trace", "--compression", "gzip", "--", "true"}).exit_code, 2);
  ProcessResult unwritable = RunProcess({STRATA_CLI, "trace", "-o", "/proc/nope/x.strace", "--", "true"});
  EXPECT_EQ(unwritable.exit_code, 1);
  EXPECT_NE(unwritable.err.find("not writable"), std::string::npos) << unwritable.err;
}

}  // namespace

namespace {

// The pids a forking_app run printed, by child name.
std::map<std::string, std::string> ForkedChildren(const std::string& out) {
  std::map<std::string, std::string> children;
  std::stringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    std::stringstream words(line);
    std::string child, name, pid;
    if (words >> child >> name >> pid && child == "child") children[name] = pid;
  }
  return children;
}

std::string DumpOf(const std::string& trace) {
  ProcessResult dump = RunProcess({STRATA_CLI, "dump", trace});
  EXPECT_EQ(dump.exit_code, 0) << trace << ": " << dump.err;
  return dump.out;
}

}  // namespace

// A launcher that initializes EGL and forks (forking_app.cpp): each process
// decides for itself. The launcher's early decision must not decide for its
// children; a child that opens a display of its own traces to a file of its
// own, one that only goes on with what it inherited records nothing.
// Catches: the decision taken once at load (children never trace, or trace
// into the parent's file), a child overwriting the parent's trace.
TEST(TraceCommand, ForkedChildrenDecideForThemselves) {
  const std::string trace = ScratchPath("forked") + ".strace";
  ProcessResult r = RunProcess({STRATA_CLI, "trace", "-o", trace, "--", STRATA_FORKING_APP});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  std::map<std::string, std::string> children = ForkedChildren(r.out);
  ASSERT_EQ(children.size(), 2u) << r.out;
  const std::string stem = trace.substr(0, trace.size() - std::string(".strace").size());
  const std::string app_trace = stem + "." + children["forked-app"] + ".strace";
  EXPECT_NE(r.err.find(trace + ": "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(app_trace + ": "), std::string::npos) << "every trace written is listed\n" << r.err;
  EXPECT_NE(access((stem + "." + children["inheritor"] + ".strace").c_str(), F_OK), 0)
      << "the child that opened no display of its own traced";

  const std::string launcher = DumpOf(trace), app = DumpOf(app_trace);
  EXPECT_NE(launcher.find("glClearColor(red=0, green=0, blue=1"), std::string::npos) << launcher.substr(0, 2000);
  EXPECT_EQ(launcher.find("green=1"), std::string::npos) << "the child's frame is in the launcher's trace";
  EXPECT_EQ(launcher.find("glGetError"), std::string::npos) << "the inheritor's call is in the launcher's trace";
  EXPECT_NE(app.find("program: forked-app (pid " + children["forked-app"] + ")"), std::string::npos)
      << "the child's trace names it as it named itself\n" << app.substr(0, 400);
  EXPECT_NE(app.find("eglInitialize"), std::string::npos) << "the child's trace begins at its own display";
  EXPECT_NE(app.find("glClearColor(red=0, green=1, blue=0"), std::string::npos) << app.substr(0, 2000);
  EXPECT_EQ(app.find("blue=1"), std::string::npos) << "the launcher's frame is in the child's trace";
  EXPECT_EQ(app.find("glGetError"), std::string::npos);
  unlink(trace.c_str());
  unlink(app_trace.c_str());

  // Only the child named by --process traces: the launcher, which does not
  // match, initialized EGL before the fork and so took the decision first.
  const std::string only = ScratchPath("forked-only") + ".strace";
  r = RunProcess({STRATA_CLI, "trace", "--process", "forked-app", "-o", only, "--", STRATA_FORKING_APP});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  children = ForkedChildren(r.out);
  const std::string named = DumpOf(only);
  EXPECT_NE(named.find("(pid " + children["forked-app"] + ")"), std::string::npos) << named.substr(0, 400);
  EXPECT_NE(named.find("glClearColor(red=0, green=1, blue=0"), std::string::npos) << named.substr(0, 2000);
  EXPECT_EQ(named.find("blue=1"), std::string::npos);
  unlink(only.c_str());
}

// A function Strata's registry does not know (served by a layer below the
// tracer, as a vendor's driver serves its own extension) passes through the
// trace layer with every argument intact, registers and stack alike, and
// each call is in the trace by name, flagged: dump shows it, stats counts it,
// replay says it cannot run it and runs the rest.
// Catches: unknown functions dropped from the trace without a word, a stub
// that loses an argument, a replay that stops at such a call or hides it.
TEST(TraceCommand, UnknownFunctionsAreRecordedByName) {
  const std::string trace = ScratchPath("vendor-function.strace");
  ProcessResult r = RunProcess({STRATA_CLI, "trace", "-o", trace, "--layer-path", STRATA_TEST_LAYER_DIR, "--layers",
                                "libvendor_function_layer.so", "--", STRATA_VENDOR_FUNCTION_APP});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  // The layer's weighted sum of the app's arguments, worked out here.
  std::vector<std::string> expected;
  for (int frame = 0; frame < 2; ++frame) {
    for (int i = 0; i < 3; ++i) {
      double ints = (1 + i) + 2.0 * 2 + 3.0 * 3 + 4.0 * 4 + 5.0 * 5 + 6.0 * 6 + 7.0 * (7 + frame);
      double floats = 8 * 0.5 + 9 * 1.5 + 10 * 2.5 + 11 * 3.5 + 12 * 4.5 + 13 * 5.5 + 14 * 6.5 + 15 * 7.5 +
                      16 * (8.5 + i) + 17 * 0.25;
      char line[64];
      std::snprintf(line, sizeof line, "sum %.3f", ints + floats);
      expected.push_back(line);
    }
  }
  std::vector<std::string> sums;
  std::stringstream out(r.out);
  for (std::string line; std::getline(out, line);) {
    if (line.rfind("sum ", 0) == 0) sums.push_back(line);
  }
  EXPECT_EQ(sums, expected) << "an argument changed on its way through the trace layer";

  ProcessResult dump = RunProcess({STRATA_CLI, "dump", trace});
  ASSERT_EQ(dump.exit_code, 0) << dump.err;
  size_t flagged = 0;
  for (size_t at = 0; (at = dump.out.find("glStrataVendorSumEXT(...)  [unknown function", at)) != std::string::npos; ++at) {
    ++flagged;
  }
  EXPECT_EQ(flagged, 6u) << dump.out;
  EXPECT_EQ(dump.err.find("warning"), std::string::npos) << dump.err;
  ProcessResult json = RunProcess({STRATA_CLI, "dump", "--json", trace});
  EXPECT_NE(json.out.find(R"("function":"glStrataVendorSumEXT","unknown_function":true)"), std::string::npos)
      << json.out.substr(0, 2000);
  ProcessResult stats = RunProcess({STRATA_CLI, "stats", "--json", trace});
  EXPECT_NE(stats.out.find("\"unknown_function_calls\":6"), std::string::npos) << stats.out.substr(0, 600);
  EXPECT_NE(stats.out.find("\"undecodable_records\":0"), std::string::npos) << stats.out.substr(0, 600);
  ProcessResult replayed = RunProcess({STRATA_CLI, "replay", trace});
  EXPECT_EQ(replayed.exit_code, 0) << replayed.out << replayed.err;
  EXPECT_NE(replayed.err.find("glStrataVendorSumEXT: 6 calls not run (a function Strata's registry does not know"),
            std::string::npos)
      << replayed.out << replayed.err;
  EXPECT_NE(replayed.out.find("2 frames"), std::string::npos) << "replay went on past the unknown calls\n"
                                                               << replayed.out;
  unlink(trace.c_str());
}

// One set of conventions for the trace-reading commands: `--option=VALUE`,
// lists of frames (0,2), counts that cannot be negative, `strata help COMMAND`.
// Catches: a command that rejects --frames=N or a list, accepts --top -3, or
// a `strata help dump` that prints the top-level help.
// One definition of frames (stream/frame_numbering.h): every tool counts the
// frame ends, and none counts the calls after the last one (a teardown, or an
// off-screen program's whole run) as a frame.
// Catches: a tool that counts the unfinished last frame (stats and view once
// said 5 where trace, replay and export said 4; an off-screen trace 1 and 0).
TEST(TraceTools, EveryToolCountsTheSameFrames) {
  struct Case {
    std::vector<std::string> app_args;
    std::string frames;
  };
  for (const Case& c : {Case{{"--frames", "4"}, "4 frames"}, Case{{"--frames", "3", "--fbo"}, "0 frames"}}) {
    SCOPED_TRACE(c.frames);
    const std::string trace = ScratchPath("frame-count.strace"), json = ScratchPath("frame-count") + ".json",
                      html = ScratchPath("frame-count") + ".html";
    std::vector<std::string> argv = {STRATA_CLI, "trace", "-o", trace, "--", STRATA_BIN_DIR "/gles2_shaders"};
    argv.insert(argv.end(), c.app_args.begin(), c.app_args.end());
    ProcessResult traced = RunProcess(argv);
    ASSERT_EQ(traced.exit_code, 0) << traced.err;
    EXPECT_NE(traced.err.find(", " + c.frames), std::string::npos) << traced.err;
    ProcessResult replayed = RunProcess({STRATA_CLI, "replay", trace});
    EXPECT_NE(replayed.out.find("calls, " + c.frames), std::string::npos) << replayed.out << replayed.err;
    ProcessResult exported = RunProcess({STRATA_CLI, "export", "-o", json, trace});
    EXPECT_NE(exported.err.find("calls, " + c.frames), std::string::npos) << exported.err;
    ProcessResult viewed = RunProcess({STRATA_CLI, "view", "-o", html, trace});
    EXPECT_NE(viewed.out.find("calls in " + c.frames), std::string::npos) << viewed.out << viewed.err;
    ProcessResult stats = RunProcess({STRATA_CLI, "stats", trace});
    EXPECT_NE(stats.out.find("draws) in " + c.frames), std::string::npos) << stats.out;
    // The teardown after the last swap, or every call of the off-screen run, is listed as unfinished.
    EXPECT_NE(stats.out.find("(unfinished: no frame end)"), std::string::npos) << stats.out;
    ProcessResult stats_json = RunProcess({STRATA_CLI, "stats", "--json", trace});
    EXPECT_NE(stats_json.out.find("\"frames\":" + c.frames.substr(0, 1) + ","), std::string::npos)
        << stats_json.out.substr(0, 300);
    for (const std::string& path : {trace, json, html}) unlink(path.c_str());
  }
}

TEST(TraceTools, OptionsFollowOneConvention) {
  const std::string trace = ScratchPath("conventions.strace");
  ASSERT_EQ(RunProcess({STRATA_CLI, "trace", "-o", trace, "--", STRATA_SWAP_KINDS_APP}).exit_code, 0);
  ProcessResult spaced = RunProcess({STRATA_CLI, "dump", "--no-header", "--frames", "1", trace});
  ProcessResult joined = RunProcess({STRATA_CLI, "dump", "--no-header", "--frames=1", trace});
  ASSERT_EQ(joined.exit_code, 0) << joined.err;
  EXPECT_EQ(joined.out, spaced.out);
  EXPECT_NE(joined.out.find("eglSwapBuffersWithDamageKHR(dpy"), std::string::npos) << joined.out;

  // Frames 0 and 2 end with eglSwapBuffers and the first EXT damage swap; frame 1's KHR swap is left out.
  ProcessResult listed = RunProcess({STRATA_CLI, "dump", "--no-header", "--frames", "0,2", trace});
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  EXPECT_NE(listed.out.find("eglSwapBuffers("), std::string::npos) << listed.out;
  EXPECT_NE(listed.out.find("eglSwapBuffersWithDamageEXT(dpy"), std::string::npos) << listed.out;
  EXPECT_EQ(listed.out.find("eglSwapBuffersWithDamageKHR(dpy"), std::string::npos) << listed.out;
  const std::string json = ScratchPath("conventions") + ".json";
  ProcessResult exported = RunProcess({STRATA_CLI, "export", "--frames=0,2", "-o", json, trace});
  EXPECT_EQ(exported.exit_code, 0) << exported.err;
  EXPECT_NE(exported.err.find("2 frames"), std::string::npos) << exported.err;
  unlink(json.c_str());

  ProcessResult negative = RunProcess({STRATA_CLI, "stats", "--top", "-3", trace});
  EXPECT_EQ(negative.exit_code, 2);
  EXPECT_NE(negative.err.find("--top takes a number of 0 or more"), std::string::npos) << negative.err;
  EXPECT_EQ(RunProcess({STRATA_CLI, "stats", "--top=1", trace}).exit_code, 0);
  ProcessResult flag_value = RunProcess({STRATA_CLI, "dump", "--json=yes", trace});
  EXPECT_EQ(flag_value.exit_code, 2);
  EXPECT_NE(flag_value.err.find("--json takes no value"), std::string::npos) << flag_value.err;

  ProcessResult help = RunProcess({STRATA_CLI, "help", "dump"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_EQ(help.out, RunProcess({STRATA_CLI, "dump", "--help"}).out);
  EXPECT_EQ(RunProcess({STRATA_CLI, "help", "nothing"}).exit_code, 2);
  unlink(trace.c_str());
}
