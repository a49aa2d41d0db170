// Each test of the checked-in piglit list (gles_tests.txt) runs natively and
// through `strata run`; both must give the same piglit result.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "support/process.h"
#include "support/renderer.h"
#include "support/scratch.h"
#include "support/trace_check.h"

namespace {

using strata::test::ProcessOptions;
using strata::test::ProcessResult;
using strata::test::RunProcess;

struct PiglitCase {
  std::string expected;           // pass, skip or fail, as recorded natively
  std::vector<std::string> argv;  // relative to the piglit root
  std::string name;               // for the test's name
  std::string replay_exception;   // why its replay differs (replay_exceptions.txt), or empty
  std::string remote_exception;   // why it differs through a remote renderer (remote_exceptions.txt), or empty
};

// Command line -> reason, from an exceptions file (replay_exceptions.txt, remote_exceptions.txt).
std::map<std::string, std::string> LoadExceptions(const char* path) {
  std::map<std::string, std::string> exceptions;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    auto tab = line.find('\t');
    if (tab != std::string::npos) exceptions[line.substr(0, tab)] = line.substr(tab + 1);
  }
  return exceptions;
}

std::vector<PiglitCase> LoadList() {
  std::vector<PiglitCase> cases;
  const std::map<std::string, std::string> exceptions = LoadExceptions(STRATA_PIGLIT_REPLAY_EXCEPTIONS);
  const std::map<std::string, std::string> remote_exceptions = LoadExceptions(STRATA_PIGLIT_REMOTE_EXCEPTIONS);
  std::ifstream in(STRATA_PIGLIT_LIST);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    auto tab = line.find('\t');
    if (tab == std::string::npos) continue;
    PiglitCase c;
    c.expected = line.substr(0, tab);
    if (auto it = exceptions.find(line.substr(tab + 1)); it != exceptions.end()) c.replay_exception = it->second;
    if (auto it = remote_exceptions.find(line.substr(tab + 1)); it != remote_exceptions.end()) {
      c.remote_exception = it->second;
    }
    std::stringstream words(line.substr(tab + 1));
    for (std::string word; words >> word;) c.argv.push_back(word);
    for (const std::string& word : c.argv) {
      if (word[0] == '-') continue;
      std::string base = word.substr(word.rfind('/') + 1);
      if (base == "shader_runner_gles2" || base == "shader_runner_gles3") continue;
      c.name += (c.name.empty() ? "" : "_") + base;
    }
    for (char& ch : c.name) {
      if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
    }
    cases.push_back(c);
  }
  return cases;
}

// Headless: piglit's surfaceless platform, and Mesa's surfaceless display for
// the tests that ask eglGetDisplay(EGL_DEFAULT_DISPLAY) for one.
std::map<std::string, std::string> PiglitEnvironment() {
  return {{"PIGLIT_PLATFORM", "surfaceless_egl"}, {"EGL_PLATFORM", "surfaceless"}};
}

// The result piglit printed last ("pass", "fail", "skip", ...), or "crash"/"none".
std::string PiglitResult(const ProcessResult& r) {
  if (r.signal != 0 || r.timed_out) return "crash";
  static const std::regex pattern(R"re(PIGLIT: \{"result": "([a-z]+)")re");
  std::string result = "none";
  for (auto it = std::sregex_iterator(r.out.begin(), r.out.end(), pattern); it != std::sregex_iterator(); ++it) {
    result = (*it)[1];
  }
  return result;
}

// The running test's name with its list index: several list entries share a
// PiglitCase name (the same program with other arguments), and tests run in parallel.
std::string UniqueName() {
  std::string name = testing::UnitTest::GetInstance()->current_test_info()->name();
  for (char& ch : name) {
    if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return name;
}

// How a piglit test is run: natively, through Strata, through Strata with
// the call counter layer, or through a remote renderer at `argument`.
enum class Mode { kNative, kStrata, kCallCounter, kRemote };

ProcessResult RunPiglit(const PiglitCase& c, Mode mode, const std::string& argument = "") {
  std::vector<std::string> argv;
  if (mode == Mode::kStrata) argv = {STRATA_CLI, "run", "--"};
  if (mode == Mode::kCallCounter) argv = {STRATA_CLI, "run", "--layers", "libstrata_call_counter.so", "--"};
  if (mode == Mode::kRemote) argv = {STRATA_CLI, "run", "--log", "info", "--remote", argument, "--"};
  argv.push_back(std::string(STRATA_PIGLIT_ROOT) + "/" + c.argv[0]);
  argv.insert(argv.end(), c.argv.begin() + 1, c.argv.end());
  ProcessOptions options;
  options.set_env = PiglitEnvironment();
  if (mode == Mode::kCallCounter) options.set_env["STRATA_CALL_COUNTER_OUTPUT"] = argument;
  options.working_directory = STRATA_PIGLIT_ROOT;
  options.timeout_seconds = 60;
  return RunProcess(argv, options);
}

class Piglit : public ::testing::TestWithParam<PiglitCase> {};

// Calls the counter saw: {all calls, GL calls}.
std::pair<long, long> CountedCalls(const std::string& path) {
  std::ifstream in(path);
  long all = 0, gl = 0;
  std::string first;
  std::getline(in, first);
  for (long n; in >> n;) {
    std::string name;
    in >> name;
    all += n;
    if (name.rfind("gl", 0) == 0) gl += n;
  }
  return {all, gl};
}

TEST_P(Piglit, SameResultNativelyThroughStrataAndUnderTheCallCounter) {
  const PiglitCase& c = GetParam();
  std::string counts = strata::test::ScratchPath("piglit-counts-" + c.name + ".txt");
  ProcessResult native = RunPiglit(c, Mode::kNative);
  ProcessResult strata = RunPiglit(c, Mode::kStrata);
  ProcessResult counted = RunPiglit(c, Mode::kCallCounter, counts);
  std::string native_result = PiglitResult(native);
  EXPECT_EQ(native_result, c.expected) << "native run no longer gives the recorded result\n" << native.out << native.err;
  EXPECT_EQ(PiglitResult(strata), native_result) << "through strata:\n" << strata.out << strata.err;
  EXPECT_EQ(strata.exit_code, native.exit_code);
  EXPECT_EQ(strata.err.find("strata: error"), std::string::npos) << strata.err;
  EXPECT_EQ(PiglitResult(counted), native_result) << "under the call counter:\n" << counted.out << counted.err;
  // The counter proves the calls really went through Strata's tables.
  auto [all_calls, gl_calls] = CountedCalls(counts);
  EXPECT_GT(all_calls, 0) << "the call counter saw no calls";
  bool egl_only = c.argv[0].find("bin/egl") == 0;
  if (!egl_only && native_result == "pass") {
    EXPECT_GT(gl_calls, 0) << "no GL call went through Strata";
  }
}

// Through a renderer of its own (strata serve on a private address): the
// same result as natively, through the remote client driver, and the
// renderer closed no client. The listed exceptions must still differ, so that a fix shows.
TEST_P(Piglit, SameResultThroughARemoteRenderer) {
  const PiglitCase& c = GetParam();
  ProcessResult native = RunPiglit(c, Mode::kNative);
  strata::test::Renderer renderer(STRATA_CLI);
  ProcessResult remote = RunPiglit(c, Mode::kRemote, renderer.address());
  renderer.Stop();
  const std::string log = renderer.Log();
  if (!c.remote_exception.empty()) {
    EXPECT_NE(PiglitResult(remote), PiglitResult(native))
        << "listed as differing through a renderer (" << c.remote_exception << ") but gives the native result";
    return;
  }
  EXPECT_EQ(PiglitResult(remote), PiglitResult(native)) << "through a renderer:\n" << remote.out << remote.err
                                                        << "\nrenderer:\n" << log;
  EXPECT_EQ(remote.err.find("strata remote: error"), std::string::npos) << remote.err;
  EXPECT_NE(remote.err.find("libstrata_remote.so"), std::string::npos) << "not the remote driver:\n" << remote.err;
  EXPECT_EQ(log.find("closing "), std::string::npos) << "the renderer closed the client:\n" << log;
}

// Traced, with the call counter above the trace layer and the test's counting
// shim preloaded: same result, every call in the trace, no record the decoder
// cannot read.
// Catches: calls the tracer drops or invents (counted outside Strata too).
TEST_P(Piglit, TracedGivesTheSameResultAndRecordsEveryCall) {
  const PiglitCase& c = GetParam();
  std::vector<std::string> argv = {std::string(STRATA_PIGLIT_ROOT) + "/" + c.argv[0]};
  argv.insert(argv.end(), c.argv.begin() + 1, c.argv.end());
  ProcessOptions options;
  options.set_env = PiglitEnvironment();
  options.working_directory = STRATA_PIGLIT_ROOT;
  strata::test::TracedRun run = strata::test::RunTracedAndCounted(STRATA_CLI, argv, "piglit-" + UniqueName(), options);
  EXPECT_EQ(PiglitResult(run.process), c.expected) << run.process.out << run.process.err;
  EXPECT_EQ(run.traced, run.counted) << "per-function counts differ between the trace and the call counter";
  EXPECT_EQ(run.TracedComparable(), run.PreloadedComparable()) << "per-function counts differ between the trace and the preloaded shim";
  EXPECT_FALSE(run.preloaded.empty()) << "the preloaded shim counted nothing";
  EXPECT_EQ(run.undecodable_records, 0) << run.stats_json.substr(0, 300);
}

// Traced with framebuffer images after every draw and at every swap (and the
// final frame), then replayed with --strict: every image the replay draws must
// equal the one traced, every call must run, and every call the replay
// compares with the recording (glGetError, link status, ...) must agree.
// Tests that draw nothing are judged by those comparisons, never by the exit
// status alone. The listed exceptions must still differ (and replay to the
// end), so that a fix shows.
// Catches: replay that runs a call wrongly (the app's errors, statuses or
// pixels differ), a final frame not captured, a self-check that compares nothing.
TEST_P(Piglit, ReplayDrawsWhatWasTraced) {
  const PiglitCase& c = GetParam();
  std::string trace = strata::test::ScratchPath("piglit-replay-" + UniqueName() + ".strace");
  std::vector<std::string> argv = {STRATA_CLI, "trace", "-o", trace, "--capture", "swap,draw", "--",
                                   std::string(STRATA_PIGLIT_ROOT) + "/" + c.argv[0]};
  argv.insert(argv.end(), c.argv.begin() + 1, c.argv.end());
  ProcessOptions options;
  options.set_env = PiglitEnvironment();
  options.working_directory = STRATA_PIGLIT_ROOT;
  ProcessResult traced = RunProcess(argv, options);
  ASSERT_EQ(PiglitResult(traced), c.expected) << traced.out << traced.err;
  ProcessResult replayed = RunProcess({STRATA_CLI, "replay", "--verify", "--strict", trace});
  if (!c.replay_exception.empty()) {
    EXPECT_EQ(replayed.exit_code, 1) << "listed as differing (" << c.replay_exception << ") but:\n"
                                     << replayed.out << replayed.err;
    EXPECT_TRUE(replayed.out.find("framebuffers differ") != std::string::npos ||
                replayed.out.find("differ from the recording") != std::string::npos)
        << replayed.out << replayed.err;
  } else {
    EXPECT_EQ(replayed.out.find("differ from the recording"), std::string::npos) << replayed.out << replayed.err;
    if (replayed.err.find("holds no framebuffer images") != std::string::npos) {
      replayed = RunProcess({STRATA_CLI, "replay", "--strict", trace});
      EXPECT_EQ(replayed.exit_code, 0) << replayed.out << replayed.err;
      static const std::regex compared(R"(check: (\d+) calls compared with the recording, all agree)");
      std::smatch m;
      ASSERT_TRUE(std::regex_search(replayed.out, m, compared)) << replayed.out << replayed.err;
      EXPECT_GT(std::stol(m[1]), 0) << "no image and no call compared: judged by the exit status alone";
    } else {
      EXPECT_EQ(replayed.exit_code, 0) << replayed.out << replayed.err;
      EXPECT_NE(replayed.out.find("framebuffers match the trace"), std::string::npos) << replayed.out << replayed.err;
    }
  }
  EXPECT_EQ(replayed.out.find("could not run"), std::string::npos) << replayed.out << replayed.err;
  std::remove(trace.c_str());
}

INSTANTIATE_TEST_SUITE_P(List, Piglit, ::testing::ValuesIn(LoadList()),
                         [](const auto& info) { return info.param.name + "_" + std::to_string(info.index); });

// The list is only worth something if most of it exercises passing GL paths.
TEST(PiglitList, HasAtLeastFiftyPassingTests) {
  int pass = 0;
  for (const PiglitCase& c : LoadList()) pass += c.expected == "pass";
  EXPECT_GE(pass, 50);
}

}  // namespace
