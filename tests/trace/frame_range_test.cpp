// A frame range traced while the program runs: `strata trace --frames A-B`
// (STRATA_TRACE_FRAMES) and `strata trace --attach PID --frames N`. The
// program runs untraced until frame A begins; each context then joins with
// the snapshot an attach makes, and after frame B the trace is finished while
// the program runs on. The file holds just those frames and replays alone.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <regex>
#include <string>
#include <vector>

#include "support/process.h"
#include "support/scratch.h"
#include "support/trace_check.h"

namespace {

using strata::test::ProcessResult;
using strata::test::RunProcess;
using strata::test::ScratchPath;

const std::string kShaders = STRATA_BIN_DIR "/gles2_shaders";

long Number(const std::string& text, const std::string& pattern) {
  std::smatch m;
  if (!std::regex_search(text, m, std::regex(pattern))) return -1;
  return std::stol(m[1]);
}

// `strata trace` of `program` with `options` before the `--`; its result.
ProcessResult Trace(const std::string& trace, std::vector<std::string> options,
                    const std::vector<std::string>& program) {
  std::vector<std::string> argv = {STRATA_CLI, "trace", "-o", trace};
  argv.insert(argv.end(), options.begin(), options.end());
  argv.push_back("--");
  argv.insert(argv.end(), program.begin(), program.end());
  return RunProcess(argv);
}

// The number of frames `strata stats` counts in a finished trace (-1: not finished or unreadable).
long FinishedFrames(const std::string& trace) {
  ProcessResult stats = RunProcess({STRATA_CLI, "stats", "--json", trace});
  if (stats.exit_code != 0 || stats.out.find("\"complete\":true") == std::string::npos) return -1;
  return Number(stats.out, R"("frames":(\d+))");
}

// `strata replay --strict --verify`: every call agrees and all `images` captured images match.
void ExpectReplaysAlone(const std::string& trace, long images) {
  ProcessResult r = RunProcess({STRATA_CLI, "replay", "--strict", "--verify", trace});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("all agree"), std::string::npos) << r.out;
  EXPECT_EQ(Number(r.out, R"(verify: all (\d+) framebuffers match)"), images) << r.out;
}

// Frames 10-12 of a 20-frame run: a trace of those 3 frames, opening with
// the made-up context and snapshot, that replays alone and shows the same
// images as frames 10-12 of a trace of the whole run (gles2_shaders draws
// the same frames every run).
// Catches: a range off by a frame (tracing switched on at the swap that ends
// frame A rather than after it, or off a frame late), a range that traces
// from the start, a snapshot taken at the frame's start that draws back the
// surface a swap left undefined, frames after B still in the file.
TEST(FrameRange, FramesOfARunReplayAloneAndEqualTheSameFramesOfAWholeTrace) {
  const std::string whole = ScratchPath("whole.strace"), range = ScratchPath("range.strace");
  ProcessResult all = Trace(whole, {"--capture", "swap"}, {kShaders, "--frames", "20"});
  ASSERT_EQ(all.exit_code, 0) << all.err;
  ProcessResult part = Trace(range, {"--capture", "swap", "--frames", "10-12"}, {kShaders, "--frames", "20"});
  ASSERT_EQ(part.exit_code, 0) << part.err;
  EXPECT_NE(part.out.find("rendered 20 frames"), std::string::npos) << "the program ran to its end: " << part.out;
  EXPECT_EQ(Number(part.err, R"(iB, (\d+) frames)"), 3) << part.err;
  EXPECT_EQ(FinishedFrames(range), 3);
  ProcessResult dump = RunProcess({STRATA_CLI, "dump", "--json", range});
  ASSERT_EQ(dump.exit_code, 0) << dump.err;
  const std::string first_line = dump.out.substr(0, dump.out.find('\n'));
  EXPECT_NE(first_line.find("\"function\":\"eglCreateContext\""), std::string::npos) << first_line;
  EXPECT_NE(first_line.find("\"synthesized\":true"), std::string::npos) << first_line;
  EXPECT_NE(dump.out.find(R"("function":"glLinkProgram")"), std::string::npos) << "the snapshot's program";
  ExpectReplaysAlone(range, 3);

  const std::string trimmed = ScratchPath("trimmed.strace");
  ProcessResult trim = RunProcess({STRATA_CLI, "trim", "--frames", "10-12", "-o", trimmed, whole});
  ASSERT_EQ(trim.exit_code, 0) << trim.err;
  ProcessResult diff = RunProcess({STRATA_CLI, "diff", "--images", "-o", ScratchPath("differing"), trimmed, range});
  EXPECT_EQ(diff.exit_code, 0) << diff.out << diff.err;
  EXPECT_NE(diff.err.find("3 frames compared (captured): 0 differ, 0 only in A, 0 only in B"), std::string::npos)
      << diff.err;
}

// Three threads rendering at once, two of them sharing objects: the one
// whose swap begins the range joins at once, the others at their next swap,
// all at about the same moment. Several runs, as the threads' order varies.
// Catches: threads joining at once writing their contexts' made-up calls
// interleaved (a config described by one thread while another records a
// surface of it first: the replay made that surface in another format; a
// context of a share group binding an object before the group's snapshot
// created it), and the snapshot's own reading framebuffer recorded as one
// of the app's.
TEST(FrameRange, ThreadsJoiningAtOnceReplayAlone) {
  for (int run = 0; run < 6; ++run) {
    const std::string trace = ScratchPath("threads-" + std::to_string(run) + ".strace");
    ProcessResult r = Trace(trace, {"--capture", "swap", "--frames", "3-5"}, {STRATA_THREADED_APP});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    const long frames = Number(r.err, R"(iB, (\d+) frames)");
    EXPECT_GE(frames, 3) << r.err;
    ProcessResult replayed = RunProcess({STRATA_CLI, "replay", "--strict", "--verify", trace});
    EXPECT_EQ(replayed.exit_code, 0) << "run " << run << ":\n" << replayed.out << replayed.err;
    EXPECT_NE(replayed.out.find("verify: all"), std::string::npos) << replayed.out;
    ProcessResult dump = RunProcess({STRATA_CLI, "dump", "--grep", "glGenFramebuffers", trace});
    EXPECT_EQ(dump.out.find("glGenFramebuffers("), std::string::npos)
        << "the app makes no framebuffer objects:\n" << dump.out;
    unlink(trace.c_str());
  }
}

// A range the program does not reach, or reaches only in part: the program
// runs to its end all the same, the tracer says what happened, and what was
// traced replays.
// Catches: a range that never begins left silent, a range cut short by the
// program's end that leaves an unfinished or unreplayable trace.
TEST(FrameRange, RangesPastTheProgramsEndAreSaid) {
  const std::string never = ScratchPath("never.strace");
  ProcessResult r = Trace(never, {"--frames", "30-35"}, {kShaders, "--frames", "20"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("ended after 20 frames, before the range began"), std::string::npos) << r.err;
  EXPECT_EQ(FinishedFrames(never), 0);

  const std::string part = ScratchPath("part.strace");
  r = Trace(part, {"--capture", "swap", "--frames", "18-25"}, {kShaders, "--frames", "20"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("ended after 2 of the range's 8 frames"), std::string::npos) << r.err;
  EXPECT_EQ(FinishedFrames(part), 2);
  ExpectReplaysAlone(part, 3);  // each frame's image, and the final frame's as the program ended
}

// Catches: a malformed range taken as something else (all frames, frame 0),
// a range given where it means nothing accepted silently, or a bad
// STRATA_TRACE_FRAMES that traces anyway.
TEST(FrameRange, BadRangesGiveOneClearError) {
  for (const std::string bad : {"x", "5-3", "-", "", "3-x", "1,2"}) {
    const std::string trace = ScratchPath("bad.strace");
    ProcessResult r = Trace(trace, {"--frames", bad}, {kShaders, "--frames", "2"});
    EXPECT_EQ(r.exit_code, 2) << "--frames '" << bad << "'";
    EXPECT_NE(r.err.find("strata trace: error: --frames takes one range of frames"), std::string::npos) << r.err;
    EXPECT_EQ(access(trace.c_str(), F_OK), -1) << "no program ran for --frames '" << bad << "'";
    unlink(trace.c_str());
  }
  ProcessResult r = RunProcess({STRATA_CLI, "trace", "--attach", "1", "--frames", "2-3"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("with --attach, --frames takes how many frames"), std::string::npos) << r.err;
  r = RunProcess({STRATA_CLI, "trace", "--detach", "1", "--frames", "2"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--frames is for"), std::string::npos) << r.err;
  r = RunProcess({STRATA_CLI, "trace", "--connect", "tcp:127.0.0.1:1", "--frames", "2"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--frames is for the traced program, not --connect"), std::string::npos) << r.err;

  const std::string unset = ScratchPath("unset.strace");
  r = RunProcess({STRATA_CLI, "run", "--layers", "libstrata_trace.so", "--", kShaders, "--frames", "2"},
                 strata::test::WithEnv({{"STRATA_TRACE", "file:" + unset}, {"STRATA_TRACE_FRAMES", "3-1"}}));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("STRATA_TRACE_FRAMES: frames '3-1': use A-B, A-, -B or N (frame numbers from 0, B not before A); "
                      "tracing disabled"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(access(unset.c_str(), F_OK), -1) << "traced despite the bad range";
}

// `strata trace --attach PID --frames N`: the next N frames of a running
// program, from where the next frame begins; the trace is finished by the
// program itself after them, the program runs on, and it can be attached
// to again.
// Catches: an attached range that never ends (or ends a frame early or
// late), a finished range that leaves the process unattachable, the
// snapshot of a range begun mid-run missing what the frames draw with.
TEST(FrameRange, AttachTracesTheNextFramesAndFinishesByItself) {
  pid_t app = fork();
  if (app == 0) {
    unsetenv("STRATA_TRACE_CAPTURE");
    execl(STRATA_CLI, STRATA_CLI, "run", "--", kShaders.c_str(), "--frames", "1000000", static_cast<char*>(nullptr));
    _exit(127);
  }
  strata::test::WaitUntilAttachable(app);
  const std::string pid = std::to_string(app);
  const std::string first = ScratchPath("next5.strace"), second = ScratchPath("next2.strace");
  ProcessResult on = RunProcess({STRATA_CLI, "trace", "--attach", pid, "--frames", "5", "--capture", "swap", "-o", first});
  EXPECT_EQ(on.exit_code, 0) << on.err;
  EXPECT_NE(on.err.find("tracing the next 5 frames"), std::string::npos) << on.err;
  long frames = -1;
  for (int tries = 0; tries < 300 && frames < 0; ++tries, usleep(100000)) frames = FinishedFrames(first);
  EXPECT_EQ(frames, 5) << "the range's trace finished by itself";
  // Finished: a detach has nothing to stop, and a new range can begin.
  EXPECT_EQ(RunProcess({STRATA_CLI, "trace", "--detach", pid}).exit_code, 1);
  ProcessResult again = RunProcess({STRATA_CLI, "trace", "--attach", pid, "--frames", "2", "-o", second});
  EXPECT_EQ(again.exit_code, 0) << again.err;
  frames = -1;
  for (int tries = 0; tries < 300 && frames < 0; ++tries, usleep(100000)) frames = FinishedFrames(second);
  EXPECT_EQ(frames, 2);
  EXPECT_EQ(kill(app, 0), 0) << "the program keeps running";
  ProcessResult zero = RunProcess({STRATA_CLI, "trace", "--attach", pid, "--frames", "0", "-o", second});
  EXPECT_EQ(zero.exit_code, 2) << zero.err;
  kill(app, SIGTERM);
  waitpid(app, nullptr, 0);
  ExpectReplaysAlone(first, 5);
}

}  // namespace
