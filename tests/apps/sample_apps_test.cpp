// The sample apps, headless: each runs natively and through `strata run`, and
// the last frames must be identical pixel for pixel.
#include <gtest/gtest.h>

#include <string>

#include "support/png_image.h"
#include "support/process.h"
#include "support/scratch.h"

namespace {

using strata::test::Image;
using strata::test::ProcessResult;
using strata::test::RunProcess;

std::string OutputPath(const std::string& app, const std::string& mode) {
  return strata::test::ScratchPath(app + "-" + mode + ".png");
}

class SampleApp : public ::testing::TestWithParam<std::string> {};

// Catches: the loader changing what an app renders (wrong driver entry, a dropped call).
TEST_P(SampleApp, FramesAreIdenticalNativelyAndThroughStrata) {
  const std::string app = std::string(STRATA_BIN_DIR) + "/" + GetParam();
  const std::vector<std::string> args = {"--frames", "30", "--size", "256x192"};
  Image images[2];
  for (int through_strata = 0; through_strata < 2; ++through_strata) {
    std::string png = OutputPath(GetParam(), through_strata ? "strata" : "native");
    std::vector<std::string> argv;
    if (through_strata) argv = {STRATA_CLI, "run", "--log", "info", "--"};
    argv.push_back(app);
    argv.insert(argv.end(), args.begin(), args.end());
    argv.insert(argv.end(), {"--output", png});
    ProcessResult r = RunProcess(argv);
    ASSERT_EQ(r.exit_code, 0) << strata::test::Describe(argv) << "\n" << r.out << r.err;
    EXPECT_NE(r.out.find("rendered 30 frames 256x192"), std::string::npos) << r.out;
    // Proof that Strata's loader really was in the process (and only then).
    EXPECT_EQ(r.err.find("strata: loader ready") != std::string::npos, through_strata == 1) << r.err;
    std::string error;
    ASSERT_TRUE(strata::test::ReadPng(png, &images[through_strata], &error)) << error;
  }
  ASSERT_EQ(images[0].width, 256);
  ASSERT_EQ(images[0].height, 192);
  EXPECT_GT(strata::test::CountColours(images[0]), 50) << "the native frame looks blank";
  ASSERT_EQ(images[0].width, images[1].width);
  ASSERT_EQ(images[0].height, images[1].height);
  EXPECT_EQ(strata::test::DifferingBytes(images[0], images[1]), 0u) << "bytes differ between the native and the Strata frame";
}

INSTANTIATE_TEST_SUITE_P(Headless, SampleApp, ::testing::Values("gles1_cube", "gles2_shaders", "gles3_instanced"),
                         [](const auto& info) { return info.param; });

}  // namespace
