// strata pixel, replay --replace-shader and replay --gpu-times on a program
// nobody here wrote: glmark2-es2's build, texture and desktop scenes (run
// under a virtual X server, traced with each frame's image). Pixels' last
// entries leave the colours the frames show; a constant-colour fragment
// shader in place of one program's changes exactly the frames that draw with
// it; every draw, clear and blit gets one positive GPU time.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
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
  options.timeout_seconds = 240;
  return RunProcess(args, options);
}

// The trace's calls, with the frame each belongs to.
struct DumpedCall {
  uint64_t sequence = 0, frame = 0;
  std::string line;
};

class Glmark2 : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    trace_ = new std::string(ScratchPath("glmark2.strace"));
    ProcessResult traced = RunProcess({STRATA_CLI, "trace", "-o", *trace_, "--capture", "swap", "--", "glmark2-es2", "-s",
                                       "160x120", "-b", "build:use-vbo=true:duration=0.2", "-b", "texture:duration=0.2",
                                       "-b", "desktop:duration=0.2"});
    ASSERT_EQ(traced.exit_code, 0) << traced.out << traced.err;
    calls_ = new std::vector<DumpedCall>;
    std::istringstream dump(Strata({"dump", "--no-header", *trace_}).out);
    uint64_t frame = 0;
    for (std::string line; std::getline(dump, line);) {
      if (line.starts_with("-- end of frame")) {
        ++frame;
      } else if (!line.empty() && line[0] >= '0' && line[0] <= '9') {
        calls_->push_back({std::stoull(line), frame, line});
      }
    }
    frames_ = frame;
    ASSERT_GT(frames_, 30u);
  }
  static void TearDownTestSuite() {
    delete trace_;
    delete calls_;
  }
  static std::string* trace_;
  static std::vector<DumpedCall>* calls_;
  static uint64_t frames_;
};
std::string* Glmark2::trace_ = nullptr;
std::vector<DumpedCall>* Glmark2::calls_ = nullptr;
uint64_t Glmark2::frames_ = 0;

std::vector<int> Colour(const Json& value) {
  std::vector<int> out;
  for (const Json& c : value["color"].array) out.push_back(static_cast<int>(c.number));
  return out;
}

// Catches: a real program's pixel whose history misses the call that made
// its colour, or reads another pixel than the frame shows.
TEST_F(Glmark2, EachPixelsLastEntryLeavesTheFramesColour) {
  for (uint64_t frame : {frames_ / 6, frames_ / 2, frames_ * 5 / 6}) {  // one in each scene
    const std::string dir = ScratchPath("glmark2-frame-" + std::to_string(frame));
    ProcessResult snapshot = Strata({"replay", "--frames", std::to_string(frame), "--snapshot", std::to_string(frame),
                                     "-o", dir, *trace_});
    ASSERT_EQ(snapshot.exit_code, 0) << snapshot.err;
    char name[32];
    std::snprintf(name, sizeof name, "/frame-%06llu.png", static_cast<unsigned long long>(frame));
    strata::test::Image image;
    std::string error;
    ASSERT_TRUE(strata::test::ReadPng(dir + name, &image, &error)) << error;
    for (auto [x, y] : {std::pair{80, 60}, std::pair{20, 100}}) {
      ProcessResult r = Strata({"pixel", *trace_, "--frame", std::to_string(frame), "--at",
                                std::to_string(x) + "," + std::to_string(y), "--json"});
      ASSERT_EQ(r.exit_code, 0) << r.err;
      Json history;
      ASSERT_TRUE(strata::test::ParseJson(r.out, &history, &error)) << error;
      std::vector<int> last;
      for (const Json& e : history["entries"].array) {
        if (e["target"]["surface"].boolean) last = Colour(e["after"]);
      }
      ASSERT_FALSE(last.empty()) << "frame " << frame << " pixel " << x << "," << y << ": no call wrote it\n" << r.out;
      EXPECT_EQ(last, Colour(history["final"])) << r.out;
      const size_t at = (static_cast<size_t>(y) * image.width + x) * 4;
      EXPECT_EQ(Colour(history["final"]),
                (std::vector<int>{image.rgba[at], image.rgba[at + 1], image.rgba[at + 2], image.rgba[at + 3]}))
          << "frame " << frame << " pixel " << x << "," << y;
    }
  }
}

// Catches: a replacement that misses a link of the program (glmark2 reuses
// program names from scene to scene), reaches other programs, or leaves
// frames that draw with it unchanged.
TEST_F(Glmark2, AConstantFragmentShaderChangesExactlyTheFramesThatDrawWithIt) {
  // Every frame that draws with each program name; the program chosen draws in the most frames short of all.
  const std::regex use(R"(glUseProgram\(program=(\d+)\))"), draw(R"(\] glDraw)");
  std::string current, chosen;
  std::map<std::string, std::set<uint64_t>> frames_drawing;
  for (const DumpedCall& call : *calls_) {
    std::smatch m;
    if (std::regex_search(call.line, m, use)) current = m[1];
    if (std::regex_search(call.line, draw) && current != "0") frames_drawing[current].insert(call.frame);
  }
  for (const auto& [program, frames] : frames_drawing) {
    if (frames.size() < frames_ && (chosen.empty() || frames.size() > frames_drawing[chosen].size())) chosen = program;
  }
  ASSERT_FALSE(chosen.empty()) << "every program draws in every frame";
  const std::set<uint64_t>& expected = frames_drawing[chosen];
  const std::string shader = ScratchPath("orange.frag");
  std::ofstream(shader) << "precision mediump float;\nvoid main() { gl_FragColor = vec4(1.0, 0.5, 0.0, 1.0); }\n";
  ProcessResult r = Strata({"replay", "--verify", "--replace-shader", chosen + "=" + shader, *trace_});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.out, m, std::regex(R"(verify: frames that differ: ([0-9,-]+)\n)"))) << r.out << r.err;
  std::set<uint64_t> differing;
  std::istringstream list(m[1].str());
  for (std::string part; std::getline(list, part, ',');) {
    const size_t dash = part.find('-');
    const uint64_t first = std::stoull(part), last = dash == std::string::npos ? first : std::stoull(part.substr(dash + 1));
    for (uint64_t f = first; f <= last; ++f) {
      if (f < frames_) differing.insert(f);  // the final frame's image (after the last swap) is not a frame of the count
    }
  }
  EXPECT_EQ(differing, expected) << "program " << chosen;
}

// Catches: draws of a real program left untimed or timed twice, the export
// dropping times.
TEST_F(Glmark2, EveryDrawGetsOnePositiveGpuTime) {
  const std::string times_path = ScratchPath("glmark2.gpu");
  ProcessResult r = Strata({"replay", "--gpu-times", times_path, *trace_});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  std::set<uint64_t> work;
  for (const DumpedCall& call : *calls_) {
    if (std::regex_search(call.line, std::regex(R"(\] (glDraw|glClear\(|glBlitFramebuffer))"))) work.insert(call.sequence);
  }
  std::ifstream in(times_path);
  std::set<uint64_t> timed;
  size_t lines = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    ++lines;
    std::istringstream fields(line);
    uint64_t call = 0, frame = 0, context = 0, ns = 0;
    fields >> call >> frame >> context >> ns;
    EXPECT_GT(ns, 0u) << "call " << call;
    timed.insert(call);
  }
  EXPECT_EQ(lines, timed.size()) << "one time per call";
  EXPECT_EQ(timed, work);
  ProcessResult exported = Strata({"export", *trace_, "-o", ScratchPath("glmark2.json"), "--gpu-times", times_path});
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  EXPECT_NE(exported.err.find(", " + std::to_string(work.size()) + " GPU times"), std::string::npos) << exported.err;
}

// `strata trace --frames 10-12` of glmark2's texture scene: a trace of just
// those three frames, each context joined where frame 10 begins with the
// snapshot of what glmark2 made before (its textures, programs, buffers),
// that replays alone to the frames it captured.
// Catches: a frame range whose snapshot misses what a real program's frames
// draw with, or that begins or ends a frame off.
TEST(Glmark2FrameRange, ThreeFramesOfARunReplayAlone) {
  const std::string trace = ScratchPath("glmark2-range.strace");
  ProcessResult traced = RunProcess({STRATA_CLI, "trace", "-o", trace, "--capture", "swap", "--frames", "10-12", "--",
                                     "glmark2-es2", "-s", "160x120", "-b", "texture:duration=0.5"});
  ASSERT_EQ(traced.exit_code, 0) << traced.out << traced.err;
  EXPECT_NE(traced.err.find("iB, 3 frames"), std::string::npos) << traced.err;
  ProcessResult replayed = Strata({"replay", "--strict", "--verify", trace});
  EXPECT_EQ(replayed.exit_code, 0) << replayed.out << replayed.err;
  EXPECT_NE(replayed.out.find("all agree"), std::string::npos) << replayed.out;
  EXPECT_NE(replayed.out.find("verify: all 3 framebuffers match"), std::string::npos) << replayed.out;
  ProcessResult textures = Strata({"dump", "--grep", "glTexImage2D", trace});
  EXPECT_NE(textures.out.find("made up"), std::string::npos) << "the snapshot carries glmark2's texture";
}

}  // namespace
