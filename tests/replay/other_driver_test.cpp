// A trace made on Mesa's llvmpipe replayed on Mesa's other software driver,
// softpipe (GALLIUM_DRIVER=softpipe, GLES 3.1), as a replay on another
// machine's GPU would be: compared exactly its frames differ (gles2_shaders
// filters textures, and the drivers round differently); with the tolerance
// docs/replay.md gives for another driver every frame passes; --strict
// passes, leaving out the driver's own answers (strings, limits), which it
// names, and which it does compare on the driver that recorded them.
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "stream/byte_reader.h"
#include "stream/record_format.h"
#include "stream/trace_file.h"
#include "support/process.h"
#include "support/scratch.h"

namespace {

using strata::test::ProcessResult;
using strata::test::RunProcess;
using strata::test::ScratchPath;
using strata::test::WithEnv;

// docs/replay.md, "Replaying on another driver": the tolerance it suggests.
const std::vector<std::string> kOtherDriverTolerance = {"--threshold", "16", "--max-differing", "1%", "--min-psnr",
                                                        "40"};
constexpr int kFramebuffers = 5;  // 4 swaps and the final frame

ProcessResult OnDriver(const char* driver, std::vector<std::string> args) {
  args.insert(args.begin(), STRATA_CLI);
  return RunProcess(args, WithEnv({{"GALLIUM_DRIVER", driver}}));
}

std::vector<std::string> WithTolerance(std::vector<std::string> args) {
  args.insert(args.end() - 1, kOtherDriverTolerance.begin(), kOtherDriverTolerance.end());
  return args;
}

long Number(const std::string& text, const std::string& pattern) {
  std::smatch m;
  if (!std::regex_search(text, m, std::regex(pattern))) return -1;
  return std::stol(m[1]);
}

class OtherDriver : public testing::Test {
 protected:
  static std::string Trace(const char* driver, const std::string& name, const std::vector<std::string>& program) {
    const std::string path = ScratchPath(name);
    std::vector<std::string> args = {"trace", "--capture", "swap", "-o", path, "--"};
    args.insert(args.end(), program.begin(), program.end());
    ProcessResult traced = OnDriver(driver, args);
    EXPECT_EQ(traced.exit_code, 0) << traced.out << traced.err;
    return path;
  }
  static void SetUpTestSuite() {
    // --verbose: the program asks for GL_VENDOR, GL_RENDERER, GL_VERSION and the shading language's.
    const std::vector<std::string> shaders = {std::string(STRATA_BIN_DIR) + "/gles2_shaders", "--frames", "4",
                                              "--verbose"};
    llvmpipe_ = Trace("llvmpipe", "shaders-llvmpipe.strace", shaders);
    softpipe_ = Trace("softpipe", "shaders-softpipe.strace", shaders);
  }
  static std::string llvmpipe_, softpipe_;
};
std::string OtherDriver::llvmpipe_, OtherDriver::softpipe_;

// Catches: a test that proves nothing because the two drivers happen to draw
// alike, and a --verify that lets another driver's frames through by default.
TEST_F(OtherDriver, ComparedExactlyTheFramesDiffer) {
  ProcessResult same = OnDriver("llvmpipe", {"replay", "--verify", llvmpipe_});
  EXPECT_EQ(same.exit_code, 0) << same.out << same.err;
  EXPECT_EQ(Number(same.out, R"(verify: all (\d+) framebuffers match the trace\n)"), kFramebuffers) << same.out;

  ProcessResult other = OnDriver("softpipe", {"replay", "--verify", llvmpipe_});
  EXPECT_EQ(other.exit_code, 1) << other.out << other.err;
  EXPECT_GT(Number(other.out, R"(verify: (\d+) of 5 framebuffers differ:)"), 0) << other.out;
  // Each frame past the tolerance says how far it is off.
  EXPECT_TRUE(std::regex_search(other.out, std::regex(R"(\n  frame 0, before call \d+, framebuffer 0: \d+ of 76800 pixels )"
                                                      R"(differ \([0-9.]+ %\), largest channel difference \d+, PSNR )"
                                                      R"([0-9.]+ dB, first at x=\d+ y=\d+\n)")))
      << other.out;
}

// Catches: a tolerance that does not let two drivers' rounding through, a
// self-check that fails a replay for being on another driver (the strings
// differ), or that leaves the driver's answers out without saying which.
TEST_F(OtherDriver, TheDocumentedToleranceAcceptsEveryFrameAndStrictPasses) {
  ProcessResult r = OnDriver("softpipe", WithTolerance({"replay", "--verify", "--strict", llvmpipe_}));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("verify: all 5 framebuffers match the trace within the tolerance (a channel may be off by 16, "
                       "1 % of pixels by more, PSNR at least 40 dB)"),
            std::string::npos)
      << r.out;
  // How far the frames are off, though they pass.
  EXPECT_GT(Number(r.out, R"(verify: (\d+) framebuffers not equal to the trace's \(\d+ within the tolerance\); the )"
                          R"(furthest off: largest channel difference \d+ \(frame \d+\), )"),
            0)
      << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(other driver: context 1 recorded on [^\n]*llvmpipe[^\n]*; )"
                                                  R"(replayed on [^\n]*softpipe)")))
      << r.out;
  EXPECT_NE(r.out.find("calls compared with the recording, all agree"), std::string::npos) << r.out;
  EXPECT_GT(Number(r.out, R"(check: (\d+) of the driver's own answers not compared)"), 0) << r.out;
  EXPECT_NE(r.out.find("\n  glGetString(GL_RENDERER): 1 call, differs\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n  glGetString(GL_VERSION): 1 call, differs\n"), std::string::npos) << r.out;
}

// Copies the trace with the first byte of `from` in each call record's bytes
// changed to `to`: a recorded answer the replay's driver cannot give.
std::string WithChangedAnswer(const std::string& trace, const std::string& from, char to) {
  const std::string changed = ScratchPath("changed-answer.strace");
  std::string error;
  auto in = strata::stream::TraceFileReader::Open(trace, &error);
  EXPECT_TRUE(in) << error;
  if (!in) return changed;
  auto out = strata::stream::TraceFileWriter::Create(changed, in->header(), strata::stream::Compression::kLz4, &error);
  EXPECT_TRUE(out) << error;
  std::vector<uint8_t> records;
  strata::stream::ChunkInfo info;
  int changes = 0;
  while (out && in->NextChunk(&records, &info, &error)) {
    strata::stream::ByteReader walk(records);
    while (walk.remaining() > 0) {
      const uint8_t type = walk.U8();
      const uint64_t length = walk.Varint();
      const size_t start = walk.offset();
      walk.Bytes(length);
      if (!walk.ok() || type != static_cast<uint8_t>(strata::stream::RecordType::kCall)) continue;
      const std::string_view bytes(reinterpret_cast<const char*>(&records[start]), length);
      if (size_t at = bytes.find(from); at != std::string_view::npos) {
        records[start + at] = static_cast<uint8_t>(to);
        ++changes;
      }
    }
    EXPECT_TRUE(out->WriteChunk(records, info, &error)) << error;
  }
  EXPECT_TRUE(error.empty()) << error;
  EXPECT_TRUE(out && out->Finish(&error)) << error;
  EXPECT_EQ(changes, 1) << "one glGetString(GL_RENDERER) answer names llvmpipe";
  return changed;
}

// Catches: driver answers never compared (on the driver that recorded them),
// or compared on another driver.
TEST_F(OtherDriver, TheDriversOwnAnswersAreComparedOnTheDriverThatRecordedThem) {
  ProcessResult here = OnDriver("llvmpipe", {"replay", "--strict", llvmpipe_});
  ProcessResult there = OnDriver("softpipe", {"replay", "--strict", llvmpipe_});
  ASSERT_EQ(here.exit_code, 0) << here.out << here.err;
  ASSERT_EQ(there.exit_code, 0) << there.out << there.err;
  EXPECT_EQ(here.out.find("not compared"), std::string::npos) << here.out;
  EXPECT_EQ(here.out.find("other driver"), std::string::npos) << here.out;
  const long compared_here = Number(here.out, R"(check: (\d+) calls compared)");
  const long compared_there = Number(there.out, R"(check: (\d+) calls compared)");
  const long left_out = Number(there.out, R"(check: (\d+) of the driver's own answers not compared)");
  EXPECT_GT(left_out, 0) << there.out;
  EXPECT_EQ(compared_here, compared_there + left_out) << here.out << there.out;

  // The recorded GL_RENDERER made "Llvmpipe (...)": llvmpipe answers otherwise.
  const std::string changed = WithChangedAnswer(llvmpipe_, "llvmpipe (", 'L');
  ProcessResult flagged = OnDriver("llvmpipe", {"replay", "--strict", changed});
  EXPECT_EQ(flagged.exit_code, 1) << flagged.out << flagged.err;
  EXPECT_TRUE(std::regex_search(flagged.out, std::regex(R"(\n  call \d+ glGetString\(GL_RENDERER\): recorded "Llvmpipe )"
                                                        R"(\([^\n]*, replayed "llvmpipe \()")))
      << flagged.out;
  ProcessResult ignored = OnDriver("softpipe", {"replay", "--strict", changed});
  EXPECT_EQ(ignored.exit_code, 0) << ignored.out << ignored.err;
  EXPECT_NE(ignored.out.find("\n  glGetString(GL_RENDERER): 1 call, differs\n"), std::string::npos) << ignored.out;
}

// Catches: strata diff --images judging by other figures than replay, a
// tolerance that hides a frame that is really wrong (a changed colour).
TEST_F(OtherDriver, DiffImagesTakesTheSameTolerance) {
  const std::string out_dir = ScratchPath("differing");
  ProcessResult exact = RunProcess({STRATA_CLI, "diff", "--images", "-o", out_dir, llvmpipe_, softpipe_});
  EXPECT_EQ(exact.exit_code, 1) << exact.out << exact.err;
  EXPECT_TRUE(std::regex_search(exact.out, std::regex(R"(^frame 0: \d+ of 76800 pixels differ \([0-9.]+ %\), largest )"
                                                      R"(channel difference \d+, PSNR [0-9.]+ dB -> )")))
      << exact.out;

  std::vector<std::string> tolerant_args = {STRATA_CLI, "diff", "--images", "-o", out_dir, llvmpipe_, softpipe_};
  tolerant_args.insert(tolerant_args.begin() + 3, kOtherDriverTolerance.begin(), kOtherDriverTolerance.end());
  ProcessResult tolerant = RunProcess(tolerant_args);
  EXPECT_EQ(tolerant.exit_code, 0) << tolerant.out << tolerant.err;
  EXPECT_TRUE(std::regex_search(tolerant.out, std::regex(R"(^frame 0: \d+ of 76800 pixels differ by more than 16 )"
                                                         R"(\([0-9.]+ %\), largest channel difference \d+, PSNR )"
                                                         R"([0-9.]+ dB \(within the tolerance\)\n)")))
      << tolerant.out;
  EXPECT_NE(tolerant.err.find(": 0 differ ("), std::string::npos) << tolerant.err;

  // Two runs of a program with one colour changed stay different under that tolerance.
  const std::string dim = Trace("llvmpipe", "dim.strace", {STRATA_TINTED_APP, "0.25", "2"});
  const std::string bright = Trace("llvmpipe", "bright.strace", {STRATA_TINTED_APP, "0.75", "2"});
  std::vector<std::string> wrong_args = {STRATA_CLI, "diff", "--images", "-o", out_dir, dim, bright};
  wrong_args.insert(wrong_args.begin() + 3, kOtherDriverTolerance.begin(), kOtherDriverTolerance.end());
  ProcessResult wrong = RunProcess(wrong_args);
  EXPECT_EQ(wrong.exit_code, 1) << wrong.out << wrong.err;
  EXPECT_NE(wrong.out.find("frame 0: 4096 of 4096 pixels differ by more than 16 (100 %)"), std::string::npos)
      << wrong.out;
}

// Catches: tolerance options taken where nothing is compared, or values out of range taken.
TEST_F(OtherDriver, ToleranceOptionsAreCheckedAndNeedAComparison) {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"replay", "--threshold", "16", llvmpipe_},
           {"replay", "--verify", "--threshold", "256", llvmpipe_},
           {"replay", "--verify", "--max-differing", "101", llvmpipe_},
           {"replay", "--verify", "--max-differing", "a lot", llvmpipe_},
           {"replay", "--verify", "--min-psnr", "0", llvmpipe_},
           {"diff", "--min-psnr", "40", llvmpipe_, softpipe_},
           {"diff", "--images", "--max-differing", "-1", llvmpipe_, softpipe_}}) {
    ProcessResult r = RunProcess([&] {
      std::vector<std::string> argv = args;
      argv.insert(argv.begin(), STRATA_CLI);
      return argv;
    }());
    EXPECT_EQ(r.exit_code, 2) << strata::test::Describe(args) << "\n" << r.out << r.err;
    EXPECT_NE(r.err.find("strata " + args[0] + ": error: "), std::string::npos) << r.err;
  }
}

}  // namespace
