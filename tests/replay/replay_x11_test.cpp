// Replay of X11 programs (under a virtual X server): a glmark2-es2 run of
// every scene replays headless to the frames it showed, a trim of its middle frames and
// an attach to it mid-scene replay alone to theirs, a window resized while
// it renders replays at each size, and replay into X11 windows draws what
// was traced.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <regex>
#include <string>
#include <vector>

#include "support/process.h"
#include "support/scratch.h"

namespace {

using strata::test::ProcessResult;
using strata::test::RunProcess;

long Number(const std::string& text, const std::string& pattern) {
  std::smatch m;
  if (!std::regex_search(text, m, std::regex(pattern))) return -1;
  return std::stol(m[1]);
}

// Every scene of glmark2-es2, every frame: its image at eglSwapBuffers, and
// every compared call agreeing (--strict). The scene list is glmark2's own
// (--list-scenes), so a scene a newer glmark2 adds is not left out.
TEST(ReplayX11, Glmark2EverySceneReplaysToTheSameFrames) {
  ProcessResult listed = RunProcess({"glmark2-es2", "--list-scenes"});
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  std::vector<std::string> scenes;
  static const std::regex scene_line(R"(\[Scene\] ([a-z0-9-]+))");
  for (auto it = std::sregex_iterator(listed.out.begin(), listed.out.end(), scene_line); it != std::sregex_iterator();
       ++it) {
    scenes.push_back((*it)[1]);
  }
  ASSERT_GE(scenes.size(), 17u) << listed.out;
  std::string trace = strata::test::ScratchPath("replay-glmark2.strace");
  std::vector<std::string> argv = {STRATA_CLI, "trace", "-o", trace, "--capture", "swap", "--", "glmark2-es2",
                                   "-s", "160x120"};
  for (const std::string& scene : scenes) argv.insert(argv.end(), {"-b", scene + ":duration=0.2"});
  ProcessResult traced = RunProcess(argv);
  ASSERT_EQ(traced.exit_code, 0) << traced.out << traced.err;
  ASSERT_NE(traced.out.find("glmark2 Score:"), std::string::npos) << traced.out;
  ProcessResult r = RunProcess({STRATA_CLI, "replay", "--strict", "--verify", trace});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("all agree"), std::string::npos) << r.out;
  long frames = Number(r.out, R"(replayed \d+ calls, (\d+) frames)");
  EXPECT_GE(frames, static_cast<long>(scenes.size())) << r.out;
  // Every swap's image, and the final frame if the app drew after its last swap.
  ProcessResult dump = RunProcess({STRATA_CLI, "dump", trace});
  long finals = 0;
  for (size_t at = dump.out.find("(final frame)"); at != std::string::npos; at = dump.out.find("(final frame)", at + 1)) {
    ++finals;
  }
  EXPECT_LE(finals, 1) << "one rendering thread, one final frame";
  EXPECT_EQ(Number(r.out, R"(verify: all (\d+) framebuffers match)"), frames + finals) << r.out;
  EXPECT_EQ(r.out.find("could not run"), std::string::npos) << r.out << r.err;
}

// strata trim of frames from the middle of a glmark2 trace: the snapshot
// carries what the scenes made before (textures rendered into by the
// desktop scene's framebuffers among them), and the trimmed trace replays
// to the captured images.
TEST(ReplayX11, TrimOfGlmark2MiddleFramesVerifies) {
  std::string trace = strata::test::ScratchPath("trim-glmark2.strace");
  std::vector<std::string> argv = {STRATA_CLI, "trace", "-o", trace, "--capture", "swap", "--", "glmark2-es2",
                                   "-s", "160x120"};
  for (const char* scene : {"texture", "desktop", "effect2d"}) {
    argv.insert(argv.end(), {"-b", std::string(scene) + ":duration=0.3"});
  }
  ProcessResult traced = RunProcess(argv);
  ASSERT_EQ(traced.exit_code, 0) << traced.out << traced.err;
  const long frames = Number(traced.err, R"((\d+) frames)");
  ASSERT_GT(frames, 30) << traced.err;
  for (long first : {frames / 2, frames * 3 / 4}) {
    const std::string trimmed = strata::test::ScratchPath("trim-glmark2-" + std::to_string(first) + ".strace");
    const std::string range = std::to_string(first) + "-" + std::to_string(first + 5);
    ProcessResult trim = RunProcess({STRATA_CLI, "trim", trace, "--frames", range, "-o", trimmed});
    ASSERT_EQ(trim.exit_code, 0) << trim.out << trim.err;
    ProcessResult r = RunProcess({STRATA_CLI, "replay", "--verify", trimmed});
    EXPECT_EQ(r.exit_code, 0) << range << "\n" << r.out << r.err;
    EXPECT_EQ(Number(r.out, R"(verify: all (\d+) framebuffers match)"), 6) << range << "\n" << r.out;
  }
}

// An attach to glmark2's desktop scene while it runs (its windows are
// textures it rendered into before the attach, drawn from client-side
// arrays): the trace replays alone, every captured frame the same.
TEST(ReplayX11, AttachToGlmark2MidSceneReplays) {
  const std::string trace = strata::test::ScratchPath("attach-glmark2.strace");
  pid_t app = fork();
  if (app == 0) {
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    execl(STRATA_CLI, STRATA_CLI, "run", "--", "glmark2-es2", "-s", "160x120", "-b", "desktop:duration=30",
          static_cast<char*>(nullptr));
    _exit(127);
  }
  usleep(2500000);  // the scene has made its windows and is drawing
  ProcessResult on = RunProcess({STRATA_CLI, "trace", "--attach", std::to_string(app), "--capture", "swap", "-o", trace});
  EXPECT_EQ(on.exit_code, 0) << on.err;
  usleep(400000);
  EXPECT_EQ(RunProcess({STRATA_CLI, "trace", "--detach", std::to_string(app)}).exit_code, 0);
  kill(app, SIGTERM);
  waitpid(app, nullptr, 0);
  ProcessResult r = RunProcess({STRATA_CLI, "replay", "--verify", "--strict", trace});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_GT(Number(r.out, R"(verify: all (\d+) framebuffers match)"), 0) << r.out;
  ProcessResult dump = RunProcess({STRATA_CLI, "dump", trace});
  EXPECT_NE(dump.out.find("glFramebufferTexture2D"), std::string::npos) << "the snapshot has the scene's framebuffers";
}

// A window resized while the program renders (resized_window_app: after its
// surface is current, and between frames): each frame replays at the size
// the driver drew it at. Catches: the tracer recording a window's size only
// when its surface is made, or at the wrong frame, so that the replay draws
// the frames after a resize into a surface of the old size (mpv's first
// frames change its window's size: 10 of its 11 frames differed).
TEST(ReplayX11, WindowResizedWhileRenderingReplaysAtEachSize) {
  const std::string trace = strata::test::ScratchPath("resized-window.strace");
  ProcessResult traced = RunProcess({STRATA_CLI, "trace", "-o", trace, "--capture", "swap", "--",
                                     std::string(STRATA_BIN_DIR) + "/resized_window_app"});
  ASSERT_EQ(traced.exit_code, 0) << traced.out << traced.err;
  ASSERT_NE(traced.out.find("4 frames"), std::string::npos) << traced.out;
  ProcessResult r = RunProcess({STRATA_CLI, "replay", "--strict", "--verify", trace});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(Number(r.out, R"(verify: all (\d+) framebuffers match)"), 4) << r.out;
}

TEST(ReplayX11, ReplaysIntoWindows) {
  std::string trace = strata::test::ScratchPath("replay-window.strace");
  ProcessResult traced = RunProcess({STRATA_CLI, "trace", "-o", trace, "--capture", "swap", "--",
                                     std::string(STRATA_BIN_DIR) + "/gles3_instanced", "--frames", "3", "--window"});
  ASSERT_EQ(traced.exit_code, 0) << traced.err;
  ProcessResult r = RunProcess({STRATA_CLI, "replay", "--window", "--verify", trace});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(Number(r.out, R"(verify: all (\d+) framebuffers match)"), 3) << r.out;
}

}  // namespace
