// `strata diff` on real traces: two runs of one program are equal; a run
// with one uniform changed differs in exactly that call, once per frame; a
// run with one more frame differs by that frame's calls; the frames' images
// differ where the tint does, and the side-by-side PNG marks those pixels.
// Bad input: a missing, foreign or cut-short trace, wrong arguments.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "support/png_image.h"
#include "support/process.h"
#include "support/scratch.h"

namespace {

using strata::test::ProcessResult;
using strata::test::RunProcess;
using strata::test::ScratchPath;

constexpr int kFrames = 3;

ProcessResult Strata(std::vector<std::string> args) {
  args.insert(args.begin(), STRATA_CLI);
  return RunProcess(args);
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The printed calls of a diff, by their mark: ' ', '|', '-' or '+'.
std::vector<std::string> CallLines(const std::string& out, char mark) {
  std::vector<std::string> found;
  for (const std::string& line : Lines(out)) {
    if (line.size() > 2 && line[0] == mark && line[1] == ' ' && std::isdigit(static_cast<unsigned char>(line[2]))) {
      found.push_back(line);
    }
  }
  return found;
}

class DiffCommand : public testing::Test {
 protected:
  static std::string Trace(const std::string& name, const std::string& red, int frames, bool capture) {
    const std::string path = ScratchPath(name + ".strata");
    std::vector<std::string> args = {STRATA_CLI, "trace", "-o", path};
    if (capture) args.insert(args.end(), {"--capture", "swap"});
    args.insert(args.end(), {"--", STRATA_TINTED_APP, red, std::to_string(frames)});
    ProcessResult run = RunProcess(args);
    EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
    return path;
  }
  static void SetUpTestSuite() {
    base_ = Trace("base", "0.25", kFrames, true);
    again_ = Trace("again", "0.25", kFrames, true);
    tinted_ = Trace("tinted", "0.75", kFrames, true);
    longer_ = Trace("longer", "0.25", kFrames + 1, false);
  }
  static void TearDownTestSuite() {
    for (const std::string& path : {base_, again_, tinted_, longer_}) std::filesystem::remove(path);
  }
  static std::string base_, again_, tinted_, longer_;
};
std::string DiffCommand::base_, DiffCommand::again_, DiffCommand::tinted_, DiffCommand::longer_;

// Catches: EGL handles or program addresses compared by value (they move every run).
TEST_F(DiffCommand, TwoRunsOfOneProgramAreEqual) {
  // Separate processes: the EGL handles (addresses) differ, the calls do not.
  for (const std::string& other : {base_, again_}) {
    ProcessResult run = Strata({"diff", base_, other});
    EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
    EXPECT_EQ(run.out, "");
    EXPECT_NE(run.err.find("the traces are equal"), std::string::npos) << run.err;
  }
}

// Catches: a changed call shown as removed and added, values not compared, wrong old/new.
TEST_F(DiffCommand, OneChangedUniformIsReportedAsThatCallOnly) {
  ProcessResult run = Strata({"diff", "--color", "never", base_, tinted_});
  ASSERT_EQ(run.exit_code, 1) << run.out << run.err;
  const std::vector<std::string> changed = CallLines(run.out, '|');
  ASSERT_EQ(changed.size(), static_cast<size_t>(kFrames)) << run.out;
  const std::regex uniform(R"(^\| \d+ glUniform4f\(location=\d+, v0=0\.25 -> 0\.75, v1=0\.5, v2=0\.25, v3=1\)$)");
  for (const std::string& line : changed) EXPECT_TRUE(std::regex_match(line, uniform)) << line;
  EXPECT_TRUE(CallLines(run.out, '-').empty()) << run.out;
  EXPECT_TRUE(CallLines(run.out, '+').empty()) << run.out;
  // Context around each change, numbered once (the numbers agree).
  EXPECT_FALSE(CallLines(run.out, ' ').empty()) << run.out;
  EXPECT_NE(run.err.find("3 calls differ: 3 changed, 0 only in A, 0 only in B"), std::string::npos) << run.err;
  // Without context only the changed calls print; --brief prints none.
  ProcessResult bare = Strata({"diff", "-U", "0", base_, tinted_});
  EXPECT_EQ(bare.exit_code, 1);
  EXPECT_TRUE(CallLines(bare.out, ' ').empty()) << bare.out;
  EXPECT_EQ(CallLines(bare.out, '|').size(), static_cast<size_t>(kFrames));
  ProcessResult brief = Strata({"diff", "--brief", base_, tinted_});
  EXPECT_EQ(brief.exit_code, 1);
  EXPECT_EQ(brief.out, "");
  // Colors mark the old value struck through in red, the new in green.
  ProcessResult colored = Strata({"diff", "--color=always", base_, tinted_});
  EXPECT_NE(colored.out.find("\033[9m\033[31m0.25\033[0m -> \033[32m0.75\033[0m"), std::string::npos) << colored.out;
}

// Catches: an insertion misaligned (shown as changes), --frames not applied to both traces.
TEST_F(DiffCommand, OneMoreFrameIsItsCallsAdded) {
  ProcessResult run = Strata({"diff", base_, longer_});
  ASSERT_EQ(run.exit_code, 1) << run.out << run.err;
  EXPECT_TRUE(CallLines(run.out, '|').empty()) << run.out;
  EXPECT_TRUE(CallLines(run.out, '-').empty()) << run.out;
  const std::vector<std::string> added = CallLines(run.out, '+');
  // One frame: clear color, clear, uniform, draw, swap.
  ASSERT_EQ(added.size(), 5u) << run.out;
  EXPECT_NE(added.front().find("glClearColor"), std::string::npos) << added.front();
  EXPECT_NE(added.back().find("eglSwapBuffers"), std::string::npos) << added.back();
  // Frames chosen alike in both: equal.
  ProcessResult first_frames = Strata({"diff", "--frames", "0-" + std::to_string(kFrames - 1), base_, longer_});
  EXPECT_EQ(first_frames.exit_code, 0) << first_frames.out << first_frames.err;
}

// Catches: --calls ignored or applied to one trace only.
TEST_F(DiffCommand, CallSelectionComparesOnlyThoseCalls) {
  // The uniform of the first frame is the only change; calls before it are equal.
  ProcessResult changed = Strata({"diff", "-U", "0", base_, tinted_});
  const std::vector<std::string> lines = CallLines(changed.out, '|');
  ASSERT_FALSE(lines.empty());
  const uint64_t first_change = std::stoull(lines.front().substr(2));
  ProcessResult before = Strata({"diff", "--calls", "-" + std::to_string(first_change - 1), base_, tinted_});
  EXPECT_EQ(before.exit_code, 0) << before.out << before.err;
  ProcessResult at = Strata({"diff", "--calls=" + std::to_string(first_change), base_, tinted_});
  EXPECT_EQ(at.exit_code, 1) << at.out << at.err;
  EXPECT_EQ(CallLines(at.out, '|').size(), 1u) << at.out;
}

// Catches: images compared by the wrong frame, panels swapped or unmarked, --threshold ignored.
TEST_F(DiffCommand, ImagesDifferWhereTheTintDoesAndAreMarked) {
  const std::string out_dir = ScratchPath("images");
  std::filesystem::remove_all(out_dir);
  ProcessResult same = Strata({"diff", "--images", "-o", out_dir, base_, again_});
  EXPECT_EQ(same.exit_code, 0) << same.out << same.err;
  EXPECT_NE(same.err.find("3 frames compared (captured): 0 differ"), std::string::npos) << same.err;
  EXPECT_FALSE(std::filesystem::exists(out_dir)) << "nothing to write, nothing written";

  for (const char* source : {"captured", "replayed"}) {
    SCOPED_TRACE(source);
    std::filesystem::remove_all(out_dir);
    ProcessResult run = Strata({"diff", "--images", "--source", source, "-o", out_dir, base_, tinted_});
    ASSERT_EQ(run.exit_code, 1) << run.out << run.err;
    const std::vector<std::string> lines = Lines(run.out);
    ASSERT_EQ(lines.size(), static_cast<size_t>(kFrames)) << run.out;
    // The quad covers the 64x64 surface: every pixel's red differs by 0.5 (127 or 128).
    // The red channel alone off by 127 or 128: PSNR 10 log10(255^2 / (127.5^2 / 4)) = 12.04 dB.
    EXPECT_TRUE(std::regex_search(lines[0], std::regex(R"(^frame 0: 4096 of 4096 pixels differ \(100 %\), largest )"
                                                       R"(channel difference 12[78], PSNR 12\.0\d dB -> )")))
        << lines[0];
    strata::test::Image image;
    std::string error;
    ASSERT_TRUE(strata::test::ReadPng(out_dir + "/frame-000001.png", &image, &error)) << error;
    ASSERT_EQ(image.width, 3 * 64 + 8);
    ASSERT_EQ(image.height, 64);
    auto pixel = [&](int x, int y) { return &image.rgba[(static_cast<size_t>(y) * image.width + x) * 4]; };
    EXPECT_NEAR(pixel(10, 10)[0], 64, 1) << "A's panel shows A (red 0.25)";
    EXPECT_NEAR(pixel(68 + 10, 10)[0], 191, 1) << "B's panel shows B (red 0.75)";
    const uint8_t* marked = pixel(2 * 68 + 10, 10);
    EXPECT_EQ(marked[0], 255);
    EXPECT_EQ(marked[1], 0);
    EXPECT_EQ(marked[2], 255);
  }
  // A threshold above the difference: within the tolerance, and said so.
  ProcessResult tolerant = Strata({"diff", "--images", "--threshold", "200", "-o", out_dir, base_, tinted_});
  EXPECT_EQ(tolerant.exit_code, 0) << tolerant.out << tolerant.err;
  EXPECT_TRUE(std::regex_search(tolerant.out, std::regex(R"(^frame 0: 0 of 4096 pixels differ by more than 200 \(0 %\), )"
                                                         R"(largest channel difference 12[78], PSNR 12\.0\d dB \(within )"
                                                         R"(the tolerance\))")))
      << tolerant.out;
  // The PSNR test catches what the threshold let through.
  ProcessResult by_psnr = Strata({"diff", "--images", "--threshold", "200", "--min-psnr", "20", "-o", out_dir, base_, tinted_});
  EXPECT_EQ(by_psnr.exit_code, 1) << by_psnr.out << by_psnr.err;
  // A frame only one trace has.
  ProcessResult longer = Strata({"diff", "--images", "--source", "replayed", "-o", out_dir, base_, longer_});
  EXPECT_EQ(longer.exit_code, 1);
  EXPECT_NE(longer.out.find("frame 3: only B has it"), std::string::npos) << longer.out;
  std::filesystem::remove_all(out_dir);
}

// Catches: a crash or exit 0/1 on a bad trace or arguments; a cut-short trace refused.
TEST_F(DiffCommand, BadInputIsOneClearErrorWithStatus2) {
  const std::string missing = ScratchPath("missing.strata");
  ProcessResult run = Strata({"diff", base_, missing});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find(missing), std::string::npos) << run.err;

  const std::string foreign = ScratchPath("foreign.strata");
  std::ofstream(foreign) << "not a trace at all\n";
  run = Strata({"diff", foreign, base_});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("error"), std::string::npos) << run.err;

  // A trace cut short compares up to its end, with a warning: cut inside its
  // last data chunk, it lacks calls; cut by one byte (its trailer), it has
  // every call but no confirmed index; without index and trailer at all, it
  // ends cleanly on a chunk boundary but is still not a finished trace.
  std::string bytes;
  {
    std::ifstream in(base_, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  const size_t last_chunk = bytes.rfind("CHNK");
  const size_t index = bytes.rfind("INDX");
  ASSERT_NE(last_chunk, std::string::npos);
  ASSERT_NE(index, std::string::npos);
  ASSERT_LT(last_chunk, index);
  const std::string cut = ScratchPath("cut.strata");
  struct Cut {
    size_t keep;
    int exit_code;
    const char* says;
  };
  for (const Cut& c : {Cut{last_chunk + (index - last_chunk) / 2, 1, "is truncated"},
                       Cut{bytes.size() - 1, 0, "index at byte"}, Cut{index, 0, "has no index"}}) {
    SCOPED_TRACE(c.says);
    std::ofstream(cut, std::ios::binary | std::ios::trunc) << bytes.substr(0, c.keep);
    run = Strata({"diff", base_, cut});
    EXPECT_EQ(run.exit_code, c.exit_code) << run.out << run.err;
    EXPECT_NE(run.err.find("strata diff: warning: " + cut + ": "), std::string::npos) << run.err;
    EXPECT_NE(run.err.find(c.says), std::string::npos) << run.err;
  }
  for (const std::string& path : {foreign, cut}) std::filesystem::remove(path);

  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"diff", base_},
                                             {"diff", base_, again_, tinted_},
                                             {"diff", "--color", "sometimes", base_, again_},
                                             {"diff", "--images", "--calls", "1-5", base_, again_},
                                             {"diff", "--threshold", "300", base_, again_},
                                             {"diff", "--frames", "5-2", base_, again_},
                                             {"diff", "--bogus", base_, again_}}) {
    ProcessResult wrong = Strata(args);
    EXPECT_EQ(wrong.exit_code, 2) << args[1];
    EXPECT_NE(wrong.err.find("strata diff: error:"), std::string::npos) << wrong.err;
  }
  ProcessResult help = Strata({"help", "diff"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("usage: strata diff"), std::string::npos);
}

}  // namespace
