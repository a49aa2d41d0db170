// Programs nobody here wrote, in X11 windows (the test runs under xvfb-run):
// es2_info and glmark2-es2 give the same results natively and through Strata,
// and a sample app renders into a real window through Strata.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <string>
#include <thread>

#include "support/process.h"
#include "support/renderer.h"
#include "support/scratch.h"
#include "support/trace_check.h"

namespace {

using strata::test::ProcessResult;
using strata::test::RunProcess;

ProcessResult RunProgram(std::vector<std::string> argv, bool through_strata, const std::string& remote = "") {
  if (through_strata) argv.insert(argv.begin(), {STRATA_CLI, "run", "--log", "info", "--"});
  if (!remote.empty()) argv.insert(argv.begin() + 2, {"--remote", remote});
  return RunProcess(argv, strata::test::ProcessOptions{});
}

const std::vector<std::string> kGlmark2Validation = {
    "glmark2-es2", "--validate", "-b", "build:use-vbo=true", "-b", "texture", "-b", "shading:shading=phong",
    "-b", "bump", "-b", "pulsar", "-b", "desktop", "-b", "buffer"};

TEST(X11Programs, DisplayIsAvailable) { ASSERT_NE(getenv("DISPLAY"), nullptr) << "run under xvfb-run"; }

TEST(X11Programs, Es2InfoPrintsTheSameThroughStrata) {
  ProcessResult native = RunProgram({"es2_info"}, false);
  ProcessResult strata = RunProgram({"es2_info"}, true);
  ASSERT_EQ(native.exit_code, 0) << native.err;
  ASSERT_EQ(strata.exit_code, 0) << strata.err;
  EXPECT_NE(native.out.find("GL_VERSION: OpenGL ES"), std::string::npos) << native.out;
  EXPECT_EQ(strata.out, native.out);
  EXPECT_NE(strata.err.find("strata: loader ready"), std::string::npos) << strata.err;
}

// "[build] use-vbo=true: Validation: Success" lines, as a set.
std::set<std::string> Validations(const std::string& out) {
  static const std::regex line(R"re(\[[a-z0-9-]+\][^\n]*Validation: [A-Za-z]+)re");
  std::set<std::string> found;
  for (auto it = std::sregex_iterator(out.begin(), out.end(), line); it != std::sregex_iterator(); ++it) {
    found.insert(it->str());
  }
  return found;
}

TEST(X11Programs, Glmark2ValidatesTheSameThroughStrata) {
  const std::vector<std::string>& argv = kGlmark2Validation;
  ProcessResult native = RunProgram(argv, false);
  ProcessResult strata = RunProgram(argv, true);
  ASSERT_EQ(native.exit_code, 0) << native.out << native.err;
  ASSERT_EQ(strata.exit_code, 0) << strata.out << strata.err;
  std::set<std::string> expected = Validations(native.out);
  int successes = 0;
  for (const std::string& v : expected) successes += v.find("Validation: Success") != std::string::npos;
  EXPECT_GE(successes, 6) << native.out;
  EXPECT_EQ(Validations(strata.out), expected) << strata.out;
  EXPECT_NE(strata.err.find("strata: loader ready"), std::string::npos) << strata.err;
}

TEST(X11Programs, Glmark2ValidatesTheSameUnderTheCallCounter) {
  const std::vector<std::string> argv = {"glmark2-es2", "--validate", "-b", "build:use-vbo=true", "-b", "texture",
                                         "-b", "shading:shading=phong", "-b", "bump", "-b", "pulsar"};
  ProcessResult native = RunProgram(argv, false);
  std::string counts = strata::test::ScratchPath("glmark2-counts.txt");
  std::vector<std::string> counted_argv = {STRATA_CLI, "run", "--layers", "libstrata_call_counter.so", "--"};
  counted_argv.insert(counted_argv.end(), argv.begin(), argv.end());
  strata::test::ProcessOptions options;
  options.set_env["STRATA_CALL_COUNTER_OUTPUT"] = counts;
  ProcessResult counted = RunProcess(counted_argv, options);
  ASSERT_EQ(counted.exit_code, 0) << counted.out << counted.err;
  EXPECT_EQ(Validations(counted.out), Validations(native.out)) << counted.out;
  std::ifstream in(counts);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  static const std::regex draw_line(R"re(\s(\d+)  glDraw[A-Za-z]*\n)re");
  long draws = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), draw_line); it != std::sregex_iterator(); ++it) {
    draws += std::stol((*it)[1]);
  }
  EXPECT_GE(draws, 5) << "each of glmark2's 5 scenes draws through the layer\n" << text;
}

TEST(X11Programs, Glmark2TracedRecordsEveryCall) {
  strata::test::TracedRun run = strata::test::RunTracedAndCounted(
      STRATA_CLI, {"glmark2-es2", "-b", "build:duration=0.3", "-b", "texture:duration=0.3", "-b", "shading:duration=0.3",
                   "-b", "bump:duration=0.3"},
      "glmark2");
  ASSERT_EQ(run.process.exit_code, 0) << run.process.out << run.process.err;
  EXPECT_NE(run.process.out.find("glmark2 Score:"), std::string::npos);
  long draws = 0;
  for (const char* draw : {"glDrawArrays", "glDrawElements"}) {
    if (auto it = run.counted.find(draw); it != run.counted.end()) draws += it->second;
  }
  EXPECT_GT(draws, 10);
  EXPECT_EQ(run.traced, run.counted) << "per-function counts differ between the trace and the call counter";
  // glmark2 dlopens libGLESv2 and libEGL itself: the shim counts through that too.
  EXPECT_EQ(run.TracedComparable(), run.PreloadedComparable()) << "per-function counts differ between the trace and the preloaded shim";
  EXPECT_GT(run.preloaded["glDrawArrays"] + run.preloaded["glDrawElements"], 10);
  EXPECT_EQ(run.undecodable_records, 0);
  EXPECT_EQ(run.uncovered_calls, 0) << run.stats_json.substr(0, 300);
  EXPECT_TRUE(run.complete);
}

TEST(X11Programs, Glmark2ShortRunCompletesThroughStrata) {
  ProcessResult strata =
      RunProgram({"glmark2-es2", "-b", "build:duration=0.5", "-b", "texture:duration=0.5", "-b", "shadow:duration=0.5"}, true);
  ASSERT_EQ(strata.exit_code, 0) << strata.out << strata.err;
  EXPECT_NE(strata.out.find("glmark2 Score:"), std::string::npos) << strata.out;
  EXPECT_EQ(strata.err.find("strata: error"), std::string::npos) << strata.err;
}

TEST(X11Programs, SampleAppRendersInAWindowThroughStrata) {
  ProcessResult strata = RunProgram({STRATA_BIN_DIR "/gles3_instanced", "--window", "--frames", "20"}, true);
  ASSERT_EQ(strata.exit_code, 0) << strata.err;
  EXPECT_NE(strata.out.find("rendered 20 frames"), std::string::npos) << strata.out;
}

// A program run through `renderer` and, two seconds in, the number of
// colours on the screen in the box (x0, y0)-(x1, y1); -1 when it could not be grabbed.
struct AppAndScreen {
  ProcessResult app;
  long colours = -1;
  std::string grab_error;
};
AppAndScreen RunWhileGrabbing(const std::vector<std::string>& app, const strata::test::Renderer& renderer, int x0,
                              int y0, int x1, int y1) {
  AppAndScreen result;
  std::thread app_thread([&] { result.app = RunProgram(app, true, renderer.address()); });
  std::this_thread::sleep_for(std::chrono::seconds(2));
  const std::string box = std::to_string(x0) + ", " + std::to_string(y0) + ", " + std::to_string(x1) + ", " +
                          std::to_string(y1);
  ProcessResult grab = RunProcess({"/usr/bin/python3", "-c",
                                   "from PIL import ImageGrab\n"
                                   "im = ImageGrab.grab().crop((" + box + "))\n"
                                   "print('colours', len(set(im.getdata())))\n"});
  app_thread.join();
  const auto at = grab.out.find("colours ");
  if (grab.exit_code == 0 && at != std::string::npos) result.colours = std::stol(grab.out.substr(at + 8));
  else result.grab_error = grab.out + grab.err;
  return result;
}

// glmark2 in an X11 window through a renderer (strata serve), every scene
// (glmark2's own --list-scenes): each scene's frame, read back through the
// wire, validates as it does natively (the scenes glmark2 has no reference
// for say "Unknown" both ways, after drawing their frame through the renderer).
TEST(X11Programs, Glmark2EverySceneValidatesTheSameThroughARemoteRenderer) {
  ProcessResult listed = RunProcess({"glmark2-es2", "--list-scenes"});
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  std::vector<std::string> every_scene = {"glmark2-es2", "--validate"};
  static const std::regex scene_line(R"(\[Scene\] ([a-z0-9-]+))");
  for (auto it = std::sregex_iterator(listed.out.begin(), listed.out.end(), scene_line); it != std::sregex_iterator();
       ++it) {
    every_scene.insert(every_scene.end(), {"-b", (*it)[1]});
  }
  ASSERT_GE(every_scene.size(), 2u + 2 * 17) << listed.out;
  strata::test::Renderer renderer(STRATA_CLI);
  ProcessResult native = RunProgram(every_scene, false);
  ProcessResult remote = RunProgram(every_scene, true, renderer.address());
  EXPECT_EQ(Validations(native.out).size(), (every_scene.size() - 2) / 2) << native.out;
  ASSERT_EQ(native.exit_code, 0) << native.out << native.err;
  ASSERT_EQ(remote.exit_code, 0) << remote.out << remote.err << renderer.Log();
  EXPECT_EQ(Validations(remote.out), Validations(native.out)) << remote.out;
  EXPECT_NE(remote.err.find("libstrata_remote.so"), std::string::npos) << "not the remote driver:\n" << remote.err;
  EXPECT_EQ(remote.err.find("strata remote: error"), std::string::npos) << remote.err;
}

// A sample app's window through a renderer: the frames the renderer reads
// back are put into the client's own window (grabbed from the X server while
// the app runs). Fails with a window left black.
TEST(X11Programs, SampleAppWindowShowsTheRenderersFrames) {
  strata::test::Renderer renderer(STRATA_CLI);
  // Frames enough to still be running at the grab, two seconds in (600 took
  // 1.9 s once the client answered state queries itself).
  const std::vector<std::string> app = {STRATA_BIN_DIR "/gles2_shaders", "--window", "--size", "320x240",
                                        "--frames", "2000"};
  // The window sits at the screen's top-left corner on Xvfb (no window manager).
  const AppAndScreen run = RunWhileGrabbing(app, renderer, 0, 0, 320, 240);
  ASSERT_EQ(run.app.exit_code, 0) << run.app.out << run.app.err << renderer.Log();
  ASSERT_GE(run.colours, 0) << run.grab_error;
  EXPECT_GT(run.colours, 50) << "the window shows no rendered frame";
}

// strata serve --display: the renderer shows each client window's frames in a
// window of its own (at the screen's right edge, 1280 wide here), scaled to fit.
TEST(X11Programs, ServeDisplayShowsClientFramesInItsOwnWindow) {
  strata::test::Renderer renderer(STRATA_CLI, {"--display"});
  // Frames enough to still be running at the grab, two seconds in (600 took
  // 1.9 s once the client answered state queries itself).
  const std::vector<std::string> app = {STRATA_BIN_DIR "/gles2_shaders", "--window", "--size", "320x240",
                                        "--frames", "2000"};
  const AppAndScreen run = RunWhileGrabbing(app, renderer, 960, 0, 1280, 240);
  ASSERT_EQ(run.app.exit_code, 0) << run.app.out << run.app.err << renderer.Log();
  EXPECT_NE(renderer.Log().find("showing gles2_shaders"), std::string::npos) << renderer.Log();
  EXPECT_NE(renderer.Log().find("in a window of 320x240"), std::string::npos) << renderer.Log();
  ASSERT_GE(run.colours, 0) << run.grab_error;
  EXPECT_GT(run.colours, 50) << "the renderer's window shows no frame";
}

}  // namespace
