// `strata pixel` on real traces: pixel_app's pixels, whose histories the test
// knows (each fragment test rejecting a draw, a blit and a sampled texture
// followed back into a framebuffer object), and pixels of the sample apps,
// whose last entry must leave the colour the frame shows. Bad input.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "support/json_value.h"
#include "support/png_image.h"
#include "support/process.h"
#include "support/scratch.h"

namespace {

using strata::test::Json;
using strata::test::ProcessResult;
using strata::test::RunProcess;
using strata::test::ScratchPath;

ProcessResult Strata(std::vector<std::string> args) {
  args.insert(args.begin(), STRATA_CLI);
  strata::test::ProcessOptions options;
  options.timeout_seconds = 180;
  return RunProcess(args, options);
}

std::string Trace(const std::string& name, const std::vector<std::string>& program) {
  const std::string path = ScratchPath(name + ".strace");
  std::vector<std::string> args = {STRATA_CLI, "trace", "-o", path, "--"};
  args.insert(args.end(), program.begin(), program.end());
  ProcessResult run = RunProcess(args);
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  return path;
}

// The history of pixel (x, y) (top-left origin) of `frame`, as JSON.
Json History(const std::string& trace, int frame, int x, int y) {
  ProcessResult run = Strata({"pixel", trace, "--frame", std::to_string(frame), "--at",
                              std::to_string(x) + "," + std::to_string(y), "--json"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  Json json;
  std::string error;
  EXPECT_TRUE(strata::test::ParseJson(run.out, &json, &error)) << error << "\n" << run.out;
  return json;
}

// The frame's image as the replay snapshots it.
strata::test::Image Frame(const std::string& trace, int frame) {
  const std::string dir = ScratchPath("frames-" + std::filesystem::path(trace).stem().string());
  ProcessResult run = Strata({"replay", "--snapshot", std::to_string(frame), "-o", dir, trace});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  char name[32];
  std::snprintf(name, sizeof name, "/frame-%06d.png", frame);
  strata::test::Image image;
  std::string error;
  EXPECT_TRUE(strata::test::ReadPng(dir + name, &image, &error)) << error;
  return image;
}

std::vector<int> Colour(const Json& value) {
  std::vector<int> out;
  for (const Json& c : value["color"].array) out.push_back(static_cast<int>(c.number));
  return out;
}

std::vector<int> PixelOf(const strata::test::Image& image, int x, int y) {
  const size_t at = (static_cast<size_t>(y) * image.width + x) * 4;
  return {image.rgba[at], image.rgba[at + 1], image.rgba[at + 2], image.rgba[at + 3]};
}

std::string Describe(const Json& history) {
  std::ostringstream out;
  for (const Json& e : history["entries"].array) {
    out << e["call"].number << " " << e["text"].string << " on " << e["target"]["image"].string << ": "
        << e["outcome"].string << " " << e["rejected_by"].string << (e["changed"].boolean ? " changed" : "") << "\n";
  }
  return out.str();
}

class PixelApp : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    trace_ = new std::string(Trace("pixel_app", {STRATA_PIXEL_APP, "3"}));
    frame_ = new strata::test::Image(Frame(*trace_, 1));
  }
  static void TearDownTestSuite() {
    delete trace_;
    delete frame_;
  }
  static std::string* trace_;
  static strata::test::Image* frame_;
};
std::string* PixelApp::trace_ = nullptr;
strata::test::Image* PixelApp::frame_ = nullptr;

// Catches: a rejected draw left out or blamed on the wrong test (the occlusion
// queries run with the wrong tests on, the scissor box compared wrongly), a
// draw that never reaches the pixel listed, colours read from the wrong
// pixel (y not flipped) or image, depth and stencil not read.
TEST_F(PixelApp, EachRejectedDrawNamesTheTestThatRejectedIt) {
  const Json history = History(*trace_, 1, 8, 55);  // GL (8, 8)
  ASSERT_EQ(history["gl_y"].number, 8);
  const auto& entries = history["entries"].array;
  ASSERT_EQ(entries.size(), 6u) << Describe(history);
  EXPECT_EQ(entries[0]["function"].string, "glClear");
  EXPECT_EQ(Colour(entries[0]["after"]), (std::vector<int>{0, 0, 0, 255}));
  EXPECT_EQ(entries[0]["after"]["depth"].number, 1.0);
  EXPECT_EQ(entries[0]["after"]["stencil"].number, 0);
  const char* expected[][2] = {{"passed", ""}, {"rejected", "depth"}, {"rejected", "stencil"}, {"rejected", "scissor"},
                               {"passed", ""}};
  for (size_t i = 1; i < entries.size(); ++i) {
    EXPECT_EQ(entries[i]["function"].string, "glDrawArrays") << Describe(history);
    EXPECT_EQ(entries[i]["outcome"].string, expected[i - 1][0]) << "entry " << i << "\n" << Describe(history);
    EXPECT_EQ(entries[i]["rejected_by"].string, expected[i - 1][1]) << "entry " << i << "\n" << Describe(history);
    EXPECT_TRUE(entries[i]["target"]["surface"].boolean);
  }
  EXPECT_EQ(Colour(entries[1]["after"]), (std::vector<int>{255, 0, 0, 255}));
  EXPECT_NEAR(entries[1]["after"]["depth"].number, 0.5, 1e-6);
  EXPECT_TRUE(entries[1]["changed"].boolean);
  for (size_t i = 2; i < entries.size(); ++i) EXPECT_FALSE(entries[i]["changed"].boolean) << "entry " << i;
  // The last entry leaves the colour the frame shows.
  EXPECT_EQ(Colour(entries.back()["after"]), Colour(history["final"]));
  EXPECT_EQ(Colour(history["final"]), PixelOf(*frame_, 8, 55));
}

// Catches: a blit not followed back into the framebuffer object it read
// (or mapped to the wrong pixel there), writes into the object missing.
TEST_F(PixelApp, ABlittedPixelIsFollowedIntoTheFramebufferObject) {
  const Json history = History(*trace_, 1, 48, 15);  // GL (48, 48): the blit's destination
  const auto& entries = history["entries"].array;
  ASSERT_EQ(entries.size(), 4u) << Describe(history);
  EXPECT_EQ(entries[0]["function"].string, "glClear");
  EXPECT_FALSE(entries[0]["target"]["surface"].boolean);
  EXPECT_EQ(entries[0]["target"]["x"].number, 16);
  EXPECT_EQ(entries[0]["target"]["y"].number, 16);
  EXPECT_EQ(entries[0]["target"]["position"].string, "exact");
  EXPECT_NE(entries[0]["target"]["via"].string.find("blitted by call"), std::string::npos);
  EXPECT_EQ(Colour(entries[0]["after"]), (std::vector<int>{0, 0, 255, 255}));
  EXPECT_EQ(entries[1]["function"].string, "glDrawArrays");
  EXPECT_EQ(entries[1]["outcome"].string, "passed");
  EXPECT_EQ(Colour(entries[1]["after"]), (std::vector<int>{255, 0, 255, 255}));
  EXPECT_EQ(entries[2]["function"].string, "glClear");
  EXPECT_TRUE(entries[2]["target"]["surface"].boolean);
  EXPECT_EQ(entries[3]["function"].string, "glBlitFramebuffer");
  EXPECT_EQ(Colour(entries[3]["after"]), (std::vector<int>{255, 0, 255, 255}));
  EXPECT_EQ(Colour(history["final"]), PixelOf(*frame_, 48, 15));
}

// Catches: a texture a draw samples not followed back to the draws that made
// it, or followed without saying the position is assumed.
TEST_F(PixelApp, ASampledTextureIsFollowedByTheDrawsViewport) {
  const Json history = History(*trace_, 1, 48, 47);  // GL (48, 16)
  const auto& entries = history["entries"].array;
  ASSERT_EQ(entries.size(), 4u) << Describe(history);
  EXPECT_FALSE(entries[1]["target"]["surface"].boolean);
  EXPECT_EQ(entries[1]["target"]["position"].string, "assumed");
  EXPECT_NE(entries[1]["target"]["via"].string.find("sampled by call"), std::string::npos);
  EXPECT_EQ(Colour(entries[1]["after"]), (std::vector<int>{255, 0, 255, 255}));
  EXPECT_EQ(entries[3]["function"].string, "glDrawArrays");
  EXPECT_TRUE(entries[3]["target"]["surface"].boolean);
  EXPECT_EQ(Colour(entries[3]["after"]), (std::vector<int>{255, 0, 255, 255}));
  EXPECT_EQ(Colour(history["final"]), PixelOf(*frame_, 48, 47));
}

// Catches: bad frames and pixels crashing or replaying on, wrong usage accepted.
TEST_F(PixelApp, BadInputIsOneClearError) {
  ProcessResult past = Strata({"pixel", *trace_, "--frame", "9", "--at", "1,1"});
  EXPECT_EQ(past.exit_code, 1);
  EXPECT_NE(past.err.find("has no frame 9 (it has 3 frames"), std::string::npos) << past.err;
  ProcessResult off = Strata({"pixel", *trace_, "--frame", "0", "--at", "64,0"});
  EXPECT_EQ(off.exit_code, 1);
  EXPECT_NE(off.err.find("off frame 0's surface, which is 64x64"), std::string::npos) << off.err;
  ProcessResult bad = Strata({"pixel", *trace_, "--frame", "0", "--at", "3"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--at"), std::string::npos) << bad.err;
  ProcessResult missing = Strata({"pixel", *trace_, "--at", "3,3"});
  EXPECT_EQ(missing.exit_code, 2);
  ProcessResult not_a_trace = Strata({"pixel", STRATA_PIXEL_APP, "--frame", "0", "--at", "1,1"});
  EXPECT_EQ(not_a_trace.exit_code, 1);
  EXPECT_NE(not_a_trace.err.find("strata pixel: error:"), std::string::npos) << not_a_trace.err;
}

// Catches: histories of real programs (GLES 1.1, 2, 3) whose last entry does
// not leave the colour the frame shows, or a pixel the programs draw with no history.
class SampleAppPixel : public ::testing::TestWithParam<const char*> {};

TEST_P(SampleAppPixel, TheLastEntryLeavesTheFramesColour) {
  const std::string app = GetParam();
  const std::string trace = Trace(app, {std::string(STRATA_BIN_DIR) + "/" + app, "--frames", "3", "--size", "96x64"});
  const strata::test::Image frame = Frame(trace, 2);
  ASSERT_EQ(frame.width, 96);
  const Json history = History(trace, 2, 48, 32);
  const auto& entries = history["entries"].array;
  ASSERT_FALSE(entries.empty()) << Describe(history);
  std::vector<int> last;
  for (const Json& e : entries) {
    if (e["target"]["surface"].boolean) last = Colour(e["after"]);
    EXPECT_TRUE(e["outcome"].string == "passed" || e["outcome"].string == "rejected" ||
                e["outcome"].string == "untested") << Describe(history);
  }
  EXPECT_EQ(last, Colour(history["final"])) << Describe(history);
  EXPECT_EQ(Colour(history["final"]), PixelOf(frame, 48, 32)) << Describe(history);
}

INSTANTIATE_TEST_SUITE_P(Headless, SampleAppPixel, ::testing::Values("gles1_cube", "gles2_shaders", "gles3_instanced"),
                         [](const auto& info) { return std::string(info.param); });

}  // namespace
