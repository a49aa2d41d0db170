// Debian's Chromium showing a WebGL 2 page (webgl2_page.html) with ANGLE's
// GL-over-EGL backend, headless: natively, through `strata run`, traced with
// `strata trace` (the GPU process's trace replayed with --verify) and through
// a renderer (`strata run --remote`). Each screenshot must equal the native
// one pixel for pixel, and the page's bar must say Mesa's llvmpipe drew it.
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "support/png_image.h"
#include "support/process.h"
#include "support/renderer.h"
#include "support/scratch.h"

namespace {

using strata::test::Describe;
using strata::test::Image;
using strata::test::ProcessOptions;
using strata::test::ProcessResult;
using strata::test::RunProcess;
using strata::test::ScratchPath;

constexpr int kWidth = 320, kHeight = 320;

// The page's renderer bar (the bottom of its 256x256 canvas): green for llvmpipe.
constexpr int kBarX = 128, kBarY = 240;

// A fresh profile per run, and every file Chromium writes (shared memory,
// caches, crash reports) in the test's scratch directory.
std::vector<std::string> ChromiumArgv(const std::string& name, const std::string& screenshot) {
  return {"/usr/bin/chromium", "--headless=new", "--no-sandbox", "--use-angle=gl-egl", "--enable-gpu",
          "--ignore-gpu-blocklist", "--disable-background-networking", "--disable-component-update",
          "--disable-sync", "--no-first-run", "--disable-quic", "--disable-dev-shm-usage",
          "--force-device-scale-factor=1", "--hide-scrollbars", "--user-data-dir=" + ScratchPath(name + "-profile"),
          "--window-size=" + std::to_string(kWidth) + "," + std::to_string(kHeight), "--screenshot=" + screenshot,
          "file://" STRATA_WEBGL2_PAGE};
}

ProcessOptions ChromiumEnvironment() {
  ProcessOptions options;
  options.set_env = {{"TMPDIR", strata::test::ScratchDir()},
                     {"XDG_CACHE_HOME", ScratchPath("cache")},
                     {"XDG_CONFIG_HOME", ScratchPath("config")}};
  options.timeout_seconds = 180;
  return options;
}

// Runs Chromium (behind `strata_prefix`, a strata command and its options)
// and reads its screenshot; the GPU process must have lived.
ProcessResult Screenshot(const std::string& name, const std::vector<std::string>& strata_prefix, Image* image) {
  const std::string png = ScratchPath(name + ".png");
  std::vector<std::string> argv = strata_prefix;
  for (std::string& arg : ChromiumArgv(name, png)) argv.push_back(std::move(arg));
  ProcessResult r = RunProcess(argv, ChromiumEnvironment());
  EXPECT_EQ(r.exit_code, 0) << Describe(argv) << "\n" << r.err;
  EXPECT_EQ(r.err.find("GPU process exited unexpectedly"), std::string::npos) << Describe(argv) << "\n" << r.err;
  std::string error;
  EXPECT_TRUE(strata::test::ReadPng(png, image, &error)) << error << "\n" << r.err;
  return r;
}

bool BarIsGreen(const Image& image) {
  const uint8_t* pixel = &image.rgba[(static_cast<size_t>(kBarY) * image.width + kBarX) * 4];
  return pixel[0] == 0 && pixel[1] > 64 && pixel[2] == 0;
}

class Chromium : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    native_ = new Image;
    Screenshot("native", {}, native_);
  }
  static void TearDownTestSuite() { delete native_; }

  void SetUp() override {
    ASSERT_EQ(native_->width, kWidth) << "no native screenshot";
    ASSERT_EQ(native_->height, kHeight);
    ASSERT_TRUE(BarIsGreen(*native_)) << "natively, the page was not drawn by llvmpipe through ANGLE's GL backend";
    ASSERT_GT(strata::test::CountColours(*native_), 10) << "the native screenshot looks blank";
  }

  void ExpectNative(const Image& image, const char* how) {
    ASSERT_EQ(image.width, kWidth) << how;
    ASSERT_EQ(image.height, kHeight) << how;
    EXPECT_TRUE(BarIsGreen(image)) << how << ": the page was not drawn by llvmpipe (a fallback renderer)";
    EXPECT_EQ(strata::test::DifferingBytes(*native_, image), 0u) << how << ": pixels differ from the native screenshot";
  }

  static Image* native_;
};

Image* Chromium::native_ = nullptr;

// Catches: Chromium's GPU process dying under Strata (its own allocator
// against a driver deep-bound to libc's), a fallback renderer, changed pixels.
TEST_F(Chromium, PageThroughStrataRunEqualsNative) {
  Image image;
  ProcessResult r = Screenshot("run", {STRATA_CLI, "run", "--log", "info", "--"}, &image);
  // The GPU process's EGL calls went through Strata's loader.
  EXPECT_NE(r.err.find("strata: loader ready in process"), std::string::npos) << r.err;
  ExpectNative(image, "strata run");
}

// Headless, Chromium's GPU process never calls eglSwapBuffers (it draws into
// framebuffer objects and reads the screenshot back), so its trace is taken
// with the framebuffer after every draw: replayed, each must be as captured.
// Catches: the GPU process's calls missing from its trace, or a trace that
// does not replay to the pixels Chromium drew (WebGL's draws among them).
TEST_F(Chromium, GpuProcessTraceReplaysEveryDrawAsDrawn) {
  Image image;
  const std::string trace = ScratchPath("chromium.strace");
  ProcessResult r = Screenshot("trace", {STRATA_CLI, "trace", "--capture", "draw", "-o", trace, "--"}, &image);
  ExpectNative(image, "strata trace");
  // "strata trace: FILE: N KiB, F frames" for each process that traced: only
  // the GPU process makes EGL/GLES calls.
  const std::regex written(R"(strata trace: (\S+): [0-9.]+ KiB, \d+ frames)");
  std::vector<std::string> traces;
  for (std::sregex_iterator it(r.err.begin(), r.err.end(), written), end; it != end; ++it) traces.push_back((*it)[1]);
  ASSERT_EQ(traces.size(), 1u) << r.err;
  // The page's own shader (ANGLE passes its names on, prefixed).
  ProcessResult dump =
      RunProcess({STRATA_CLI, "dump", "--json", "--grep", R"("function":"glShaderSource")", traces[0]});
  EXPECT_NE(dump.out.find("uniform highp float _ucells;"), std::string::npos)
      << "the page's shader is not in the trace";
  ProcessResult replay = RunProcess({STRATA_CLI, "replay", "--verify", traces[0]});
  EXPECT_EQ(replay.exit_code, 0) << replay.out << replay.err;
  std::smatch match;
  ASSERT_TRUE(std::regex_search(replay.out, match, std::regex(R"(verify: all (\d+) framebuffers match)")))
      << replay.out << replay.err;
  EXPECT_GE(std::stol(match[1]), 50) << "fewer framebuffers than Chromium's draws:\n" << replay.out;
}

// Catches: the remote client driver failing in Chromium's GPU process, or
// drawing what the native driver would not.
TEST_F(Chromium, PageThroughARendererEqualsNative) {
  strata::test::Renderer renderer(STRATA_CLI);
  Image image;
  ProcessResult r = Screenshot("remote", {STRATA_CLI, "run", "--remote", renderer.address(), "--"}, &image);
  ExpectNative(image, "strata run --remote");
  EXPECT_EQ(r.err.find("strata remote: error"), std::string::npos) << r.err << "\nrenderer:\n" << renderer.Log();
}

}  // namespace
