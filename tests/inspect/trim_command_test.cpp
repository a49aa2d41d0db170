// `strata trim` on real traces: frames from the middle of the sample apps'
// traces (GLES 2 with mipmapped textures, GLES 3 with vertex array objects
// and instancing) replay alone to the captured images; a range that starts
// mid-frame replays; a texture's image after the snapshot is the one the app
// uploaded; GLES 1.1 frames replay alone too. Bad input: a range past the
// end, wrong arguments: one error, exit 1 or 2, no output left behind.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
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

ProcessResult Strata(std::vector<std::string> args) {
  args.insert(args.begin(), STRATA_CLI);
  return RunProcess(args);
}

std::string App(const char* name) { return std::string(STRATA_BIN_DIR) + "/" + name; }

// A trace with every frame's image (--capture swap), for replay --verify.
std::string Trace(const std::string& name, const std::vector<std::string>& program) {
  const std::string path = ScratchPath(name + ".strace");
  std::vector<std::string> args = {STRATA_CLI, "trace", "-o", path, "--capture", "swap", "--"};
  args.insert(args.end(), program.begin(), program.end());
  ProcessResult run = RunProcess(args);
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  return path;
}

long Number(const std::string& text, const std::string& pattern) {
  std::smatch m;
  if (!std::regex_search(text, m, std::regex(pattern))) return -1;
  return std::stol(m[1]);
}

std::vector<std::string> DumpLines(const std::string& trace, const std::string& frames = "0-") {
  ProcessResult dump = Strata({"dump", "--no-header", "--frames", frames, trace});
  EXPECT_EQ(dump.exit_code, 0) << dump.err;
  std::vector<std::string> lines;
  std::istringstream in(dump.out);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && std::isdigit(static_cast<unsigned char>(line[0]))) lines.push_back(line);
  }
  return lines;
}

// A dump line without its call number and timing: what the call was.
std::string CallText(const std::string& line) {
  std::string text = line.substr(line.find(' ') + 1);
  return text.substr(0, text.find("  ("));
}

// Trims `frames` of `trace` and replays the result with --verify: every
// captured image of the range must come out the same.
void ExpectTrimVerifies(const std::string& trace, const std::string& frames, long frame_count) {
  const std::string trimmed = ScratchPath("out-" + frames + ".strace");
  ProcessResult trim = Strata({"trim", trace, "--frames", frames, "-o", trimmed});
  ASSERT_EQ(trim.exit_code, 0) << trim.out << trim.err;
  EXPECT_EQ(Number(trim.out, R"(: (\d+) frames)"), frame_count) << trim.out;
  ProcessResult replay = Strata({"replay", "--verify", trimmed});
  EXPECT_EQ(replay.exit_code, 0) << replay.out << replay.err;
  EXPECT_EQ(Number(replay.out, R"(replayed \d+ calls, (\d+) frames)"), frame_count) << replay.out;
  EXPECT_EQ(Number(replay.out, R"(verify: all (\d+) framebuffers match)"), frame_count) << replay.out << replay.err;
  EXPECT_EQ(replay.out.find("could not run"), std::string::npos) << replay.out;

  // The new trace: the EGL calls that made the display, surface and
  // context, made-up calls, then exactly the range's calls in order.
  std::vector<std::string> original = DumpLines(trace, frames), out = DumpLines(trimmed);
  size_t at = 0;
  while (at < out.size() && out[at].find("[made up") == std::string::npos) {
    EXPECT_NE(CallText(out[at]).find("] egl"), std::string::npos) << out[at];
    ++at;
  }
  const size_t first_made_up = at;
  while (at < out.size() && out[at].find("[made up") != std::string::npos) ++at;
  EXPECT_GT(at - first_made_up, 10u);
  std::vector<std::string> range_calls;
  for (size_t i = at; i < out.size(); ++i) range_calls.push_back(CallText(out[i]));
  std::vector<std::string> expected;
  for (const std::string& line : original) expected.push_back(CallText(line));
  EXPECT_EQ(range_calls, expected);
}

TEST(TrimCommand, Gles2FramesFromTheMiddleReplayAlone) {
  const std::string trace = Trace("gles2", {App("gles2_shaders"), "--frames", "12", "--size", "64x48"});
  ExpectTrimVerifies(trace, "5-7", 3);
  ExpectTrimVerifies(trace, "11", 1);
}

TEST(TrimCommand, Gles3VertexArraysAndInstancingReplayAlone) {
  const std::string trace = Trace("gles3", {App("gles3_instanced"), "--frames", "8", "--size", "64x48"});
  ExpectTrimVerifies(trace, "3-5", 3);
}

// The range starts right after the frame's first draw into the surface:
// the snapshot must carry what that draw left there (the surface's pixels,
// drawn back) for the frame's image to match.
// GLES 1.1: the fixed-function state set before the range (lights, material,
// matrices, texture environments, client arrays from app memory and from
// buffers, fog) and the textures' and buffers' contents come from the
// snapshot. gles1_cube sets most of it once, at its start; gles1_state_app
// draws from buffer objects with its modelview stack two deep, a light set
// in the first frame only, fog and a combining environment.
// Catches: a piece of GLES 1.1 state the snapshot misses or sets wrongly
// (eye-space light positions, a stack level, an array's pointer): the
// frames come out different.
TEST(TrimCommand, Gles1FramesFromTheMiddleReplayAlone) {
  const std::string cube = Trace("gles1-cube", {App("gles1_cube"), "--frames", "12", "--size", "96x72"});
  ExpectTrimVerifies(cube, "5-7", 3);
  const std::string state = Trace("gles1-state", {STRATA_GLES1_STATE_APP, "--frames", "8"});
  ExpectTrimVerifies(state, "4-6", 3);
  const std::string trimmed = ScratchPath("gles1-state-made-up.strace");
  ProcessResult trim = Strata({"trim", state, "--frames", "4-6", "-o", trimmed});
  ASSERT_EQ(trim.exit_code, 0) << trim.err;
  ProcessResult dump = Strata({"dump", "--no-header", trimmed});
  for (const char* expected : {"glBufferData(target=GL_ELEMENT_ARRAY_BUFFER", "glPushMatrix()",
                               "glFogf(pname=GL_FOG_END, param=4)", "glTexEnvi(target=GL_TEXTURE_ENV, pname=GL_COMBINE_RGB, param=GL_ADD_SIGNED)"}) {
    EXPECT_NE(dump.out.find(expected), std::string::npos) << expected << " is not in the snapshot";
  }
}

// Several contexts alive where the range starts: each gets a snapshot, a
// share group's objects go with its first context. shared_context_app's
// loader context (current nowhere between frames) made the texture, buffer
// and program; its drawing context set up its vertex array, program and
// blending once. threaded_app renders on three threads at once, two of them
// in one share group: their contexts are read on their own threads.
// Catches: a trim that snapshots only the range's context (the drawing
// context's objects do not exist), one that writes a group's objects twice
// or its context state into the wrong context, a snapshot of another
// thread's context read on the range's thread.
TEST(TrimCommand, TracesWithSeveralContextsTrimAndReplayAlone) {
  const std::string shared = Trace("shared", {STRATA_SHARED_CONTEXT_APP, "--frames", "10"});
  ExpectTrimVerifies(shared, "4-6", 3);
  const std::string trimmed_shared = ScratchPath("shared-contexts.strace");
  ProcessResult trim = Strata({"trim", shared, "--frames", "4-6", "-o", trimmed_shared});
  EXPECT_NE(trim.out.find("made-up calls of the snapshots of 2 contexts"), std::string::npos) << trim.out;
  // The texture is made once, in the loader's context.
  ProcessResult dump = Strata({"dump", "--no-header", trimmed_shared});
  size_t made = 0;
  for (size_t at = 0; (at = dump.out.find("glTexImage2D(", at)) != std::string::npos; ++at) ++made;
  EXPECT_EQ(made, 1u) << dump.out;

  const std::string threads = Trace("threads", {STRATA_THREADED_APP, "20"});
  const std::string trimmed = ScratchPath("threads-out.strace");
  trim = Strata({"trim", threads, "--frames", "20-30", "-o", trimmed});
  ASSERT_EQ(trim.exit_code, 0) << trim.out << trim.err;
  EXPECT_NE(trim.out.find("made-up calls of the snapshots of 3 contexts"), std::string::npos) << trim.out;
  ProcessResult replay = Strata({"replay", "--verify", trimmed});
  EXPECT_EQ(replay.exit_code, 0) << replay.out << replay.err;
  EXPECT_GE(Number(replay.out, R"(verify: all (\d+) framebuffers match)"), 6) << replay.out << replay.err;
  EXPECT_EQ(replay.out.find("could not run"), std::string::npos) << replay.out;
}

TEST(TrimCommand, ARangeOfCallsStartingMidFrameReplays) {
  const std::string trace = Trace("calls", {App("gles2_shaders"), "--frames", "6", "--size", "64x48"});
  std::vector<std::string> frame3 = DumpLines(trace, "3");
  size_t at = 0;
  bool on_surface = false;
  for (; at < frame3.size(); ++at) {
    on_surface = on_surface || frame3[at].find("glBindFramebuffer(target=GL_FRAMEBUFFER, framebuffer=0)") != std::string::npos;
    if (on_surface && frame3[at].find("glDraw") != std::string::npos) break;
  }
  ASSERT_LT(at + 1, frame3.size()) << "no draw into the surface in frame 3";
  const uint64_t first = std::stoull(frame3[at + 1]);
  const std::string trimmed = ScratchPath("calls-out.strace");
  ProcessResult trim = Strata({"trim", trace, "--calls", std::to_string(first) + "-", "-o", trimmed});
  ASSERT_EQ(trim.exit_code, 0) << trim.out << trim.err;
  ProcessResult replay = Strata({"replay", "--verify", trimmed});
  EXPECT_EQ(replay.exit_code, 0) << replay.out << replay.err;
  // The end of frame 3, frames 4 and 5, and the app's last drawing at exit: each verified.
  EXPECT_EQ(Number(replay.out, R"(replayed \d+ calls, (\d+) frames)"), 3) << replay.out;
  EXPECT_EQ(Number(replay.out, R"(verify: all (\d+) framebuffers match)"), 4) << replay.out;
}

// The snapshot reads the texture back from the replay; after the trim the
// texture holds what the app uploaded (strata state's image of it, against
// the one from the full trace at the same call).
TEST(TrimCommand, TextureImagesAreTheUploadedOnes) {
  const std::string trace = Trace("texture", {App("gles2_shaders"), "--frames", "6", "--size", "64x48"});
  const std::string trimmed = ScratchPath("texture-out.strace");
  ASSERT_EQ(Strata({"trim", trace, "--frames", "4-5", "-o", trimmed}).exit_code, 0);
  // The first draw that samples the mipmapped texture (1), in both traces.
  const std::vector<std::string> original = DumpLines(trace, "4"), out = DumpLines(trimmed, "0");
  size_t draw = 0;
  bool bound = false;
  for (; draw < original.size(); ++draw) {
    bound = bound || original[draw].find("glBindTexture(target=GL_TEXTURE_2D, texture=1)") != std::string::npos;
    if (bound && original[draw].find("glDraw") != std::string::npos) break;
  }
  ASSERT_LT(draw, original.size());
  size_t range_start = 0;  // past the EGL calls and the made-up ones
  while (range_start < out.size() && out[range_start].find("[made up") == std::string::npos) ++range_start;
  while (range_start < out.size() && out[range_start].find("[made up") != std::string::npos) ++range_start;
  ASSERT_LT(range_start + draw, out.size());
  ASSERT_EQ(CallText(out[range_start + draw]), CallText(original[draw]));
  const std::string full_dir = ScratchPath("texture-full"), trimmed_dir = ScratchPath("texture-trimmed");
  ProcessResult full = Strata({"state", trace, std::to_string(std::stoull(original[draw])), "-o", full_dir});
  ProcessResult cut = Strata({"state", trimmed, std::to_string(std::stoull(out[range_start + draw])), "-o", trimmed_dir});
  ASSERT_EQ(full.exit_code, 0) << full.err;
  ASSERT_EQ(cut.exit_code, 0) << cut.err;
  int compared = 0;
  for (const auto& entry : std::filesystem::directory_iterator(full_dir)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("texture-", 0) != 0) continue;
    strata::test::Image a, b;
    std::string error;
    ASSERT_TRUE(strata::test::ReadPng(entry.path().string(), &a, &error)) << error;
    ASSERT_TRUE(strata::test::ReadPng(trimmed_dir + "/" + name, &b, &error)) << name << " missing after the trim: " << error;
    EXPECT_EQ(a.width, b.width) << name;
    EXPECT_TRUE(a.rgba == b.rgba) << name;
    ++compared;
  }
  EXPECT_GE(compared, 2) << "gles2_shaders' texture has several levels";
}

TEST(TrimCommand, BadInputIsOneErrorAndNoOutput) {
  const std::string trace = Trace("bad", {App("gles2_shaders"), "--frames", "3", "--size", "64x48"});
  const std::string out = ScratchPath("bad-out.strace");
  ProcessResult past = Strata({"trim", trace, "--frames", "7-9", "-o", out});
  EXPECT_EQ(past.exit_code, 1);
  EXPECT_NE(past.err.find("past its end (3 frames)"), std::string::npos) << past.err;
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_FALSE(std::filesystem::exists(out + ".partial"));

  ProcessResult missing = Strata({"trim", ScratchPath("nothing.strace"), "--frames", "1", "-o", out});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("nothing.strace"), std::string::npos) << missing.err;

  EXPECT_EQ(Strata({"trim", trace, "--frames", "1", "--calls", "3-9", "-o", out}).exit_code, 2);
  EXPECT_EQ(Strata({"trim", trace, "--frames", "1"}).exit_code, 2);
  ProcessResult list = Strata({"trim", trace, "--frames", "0,2", "-o", out});
  EXPECT_EQ(list.exit_code, 2);
  EXPECT_NE(list.err.find("one span"), std::string::npos) << list.err;
  EXPECT_EQ(Strata({"trim", trace, "--frames", "1", "-o", trace}).exit_code, 2);
  ProcessResult nowhere = Strata({"trim", trace, "--frames", "1", "-o", ScratchPath("no-such-dir") + "/out.strace"});
  EXPECT_EQ(nowhere.exit_code, 1);
  EXPECT_NE(nowhere.err.find("cannot write there"), std::string::npos) << nowhere.err;
  EXPECT_FALSE(std::filesystem::exists(out));

  // A trace cut short: the frames before the damage trim; those after it are past its end.
  const std::string whole = Trace("cut", {App("gles2_shaders"), "--frames", "60", "--size", "64x48"});
  const std::string cut = ScratchPath("cut-short.strace");
  std::filesystem::copy_file(whole, cut);
  std::filesystem::resize_file(cut, std::filesystem::file_size(whole) * 2 / 3);
  ProcessResult early = Strata({"trim", cut, "--frames", "5-6", "-o", out});
  EXPECT_EQ(early.exit_code, 0) << early.err;
  EXPECT_EQ(Strata({"replay", "--verify", out}).exit_code, 0);
  std::filesystem::remove(out);
  ProcessResult late = Strata({"trim", cut, "--frames", "55", "-o", out});
  EXPECT_EQ(late.exit_code, 1);
  EXPECT_NE(late.err.find("past its end"), std::string::npos) << late.err;
  EXPECT_FALSE(std::filesystem::exists(out));
}

}  // namespace
