// strata export --format c: traces of the sample apps, of test programs that
// draw from client memory through extension entry points, and of
// glmark2-es2's scenes (run under a virtual X server by CTest) are exported,
// built with the system's compiler through the CMakeLists.txt the export
// writes, and run; every frame the program saves must equal, pixel for
// pixel, the frame `strata replay` saves of the same trace.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdio>
#include <string>
#include <vector>

#include "support/png_image.h"
#include "support/process.h"
#include "support/scratch.h"

namespace {

using strata::test::ProcessResult;
using strata::test::RunProcess;
using strata::test::ScratchPath;

ProcessResult RunFor(const std::vector<std::string>& argv, int timeout = 240) {
  strata::test::ProcessOptions options;
  options.timeout_seconds = timeout;
  return RunProcess(argv, options);
}

bool Exists(const std::string& path) {
  struct stat s;
  return stat(path.c_str(), &s) == 0;
}

std::string FramePath(const std::string& dir, uint64_t frame) {
  char name[32];
  std::snprintf(name, sizeof name, "/frame-%06llu.png", static_cast<unsigned long long>(frame));
  return dir + name;
}

// Traces `program` into ScratchPath(name + ".strace").
void Trace(const std::string& name, const std::vector<std::string>& program) {
  std::vector<std::string> traced = {STRATA_CLI, "trace", "-o", ScratchPath(name + ".strace"), "--"};
  traced.insert(traced.end(), program.begin(), program.end());
  ProcessResult r = RunFor(traced);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
}

// Exports ScratchPath(name + ".strace") as C, builds and runs the program,
// and compares its frames with strata replay's (how many: `*compared`).
void ExportBuildAndCompare(const std::string& name, uint64_t least_frames, uint64_t* compared = nullptr) {
  const std::string trace = ScratchPath(name + ".strace"), dir = ScratchPath(name + "-c");
  ProcessResult r = RunFor({STRATA_CLI, "export", "--format", "c", trace, "-o", dir});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("left out"), std::string::npos) << "calls the C program does not make:\n" << r.err;

  r = RunFor({"cmake", "-S", dir, "-B", dir + "/build", "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  r = RunFor({"cmake", "--build", dir + "/build"}, 480);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;

  const std::string exported = ScratchPath(name + "-exported"), replayed = ScratchPath(name + "-replayed");
  ASSERT_EQ(mkdir(exported.c_str(), 0755), 0);
  r = RunFor({dir + "/build/" + name, "--snapshot", exported});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  r = RunFor({STRATA_CLI, "replay", "--snapshot", "0-", "-o", replayed, trace});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;

  uint64_t frames = 0;
  for (; Exists(FramePath(replayed, frames)); ++frames) {
    strata::test::Image ours, replay;
    std::string error;
    ASSERT_TRUE(strata::test::ReadPng(FramePath(exported, frames), &ours, &error)) << "frame " << frames << ": " << error;
    ASSERT_TRUE(strata::test::ReadPng(FramePath(replayed, frames), &replay, &error)) << error;
    ASSERT_EQ(ours.width, replay.width) << "frame " << frames;
    ASSERT_EQ(ours.height, replay.height) << "frame " << frames;
    ASSERT_EQ(strata::test::DifferingBytes(ours, replay), 0u) << name << " frame " << frames << " differs";
  }
  EXPECT_GE(frames, least_frames);
  if (compared) *compared = frames;
  EXPECT_FALSE(Exists(FramePath(exported, frames))) << "the program saved more frames than strata replay";
  EXPECT_NE(r.out.find("wrote " + std::to_string(frames) + " snapshots"), std::string::npos) << r.out;
}

// Catches: calls written with the wrong arguments, names or locations not
// mapped, GLES 1 client arrays or mapped buffer writes not replayed (the
// three sample apps use each).
TEST(CExport, SampleAppsReplayPixelEqualToStrataReplay) {
  for (const char* app : {"gles1_cube", "gles2_shaders", "gles3_instanced"}) {
    SCOPED_TRACE(app);
    ASSERT_NO_FATAL_FAILURE(Trace(app, {std::string(STRATA_BIN_DIR) + "/" + app, "--frames", "6", "--size", "160x120"}));
    ExportBuildAndCompare(app, 6);
  }
}

// Catches: client-memory vertex arrays and index arrays of draws through
// EXT and OES entry points (instanced, base-vertex, multi-draw) not pointed
// at the data file before the draw.
TEST(CExport, ClientArrayDrawsThroughAliasesReplayPixelEqual) {
  ASSERT_NO_FATAL_FAILURE(Trace("alias_draws_app", {STRATA_ALIAS_DRAWS_APP}));
  ExportBuildAndCompare("alias_draws_app", 4);
}

// Catches: a program nobody here wrote whose scenes the C program draws
// differently (vertex arrays in client memory, textures, shaders, glmark2's
// own state changes between scenes), and, in a range trimmed out of it,
// objects the snapshot makes under names the driver does not give (made-up
// shader names) used without being mapped.
TEST(CExport, Glmark2ScenesAndATrimmedRangeReplayPixelEqual) {
  if (std::getenv("DISPLAY") == nullptr) GTEST_FAIL() << "needs an X server: CTest runs it under xvfb-run";
  ASSERT_NO_FATAL_FAILURE(Trace("glmark2", {"glmark2-es2", "-s", "96x72", "-b", "build:use-vbo=false:duration=0.05",
                                            "-b", "texture:duration=0.05", "-b", "shading:shading=phong:duration=0.05",
                                            "-b", "bump:bump-render=normals:duration=0.05"}));
  uint64_t frames = 0;
  ASSERT_NO_FATAL_FAILURE(ExportBuildAndCompare("glmark2", 8, &frames));

  // Three frames of the last scene (bump).
  const std::string range = std::to_string(frames * 7 / 8) + "-" + std::to_string(frames * 7 / 8 + 2);
  ProcessResult r = RunFor({STRATA_CLI, "trim", "--frames", range, ScratchPath("glmark2.strace"), "-o",
                            ScratchPath("glmark2_last.strace")});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  ExportBuildAndCompare("glmark2_last", 3);
}

// Catches: a trace of several rendering threads exported as if it were one,
// or a refused export that leaves a half-written directory.
TEST(CExport, TracesOfSeveralThreadsAreRefusedAndLeaveNothing) {
  const std::string trace = ScratchPath("threads.strace"), dir = ScratchPath("threads-c");
  ProcessResult r = RunFor({STRATA_CLI, "trace", "-o", trace, "--", STRATA_THREADED_APP});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = RunFor({STRATA_CLI, "export", "--format", "c", trace, "-o", dir});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("more than one thread"), std::string::npos) << r.err;
  EXPECT_FALSE(Exists(dir));
}

// Catches: an export that writes over a directory holding other files, a
// range option taken for c and ignored, and a built program that takes
// options it does not know or runs without its data.
TEST(CExport, BadArgumentsAreClearErrors) {
  const std::string trace = ScratchPath("small.strace"), dir = ScratchPath("small-c");
  ProcessResult r = RunFor({STRATA_CLI, "trace", "-o", trace, "--", std::string(STRATA_BIN_DIR) + "/gles2_shaders", "--frames",
                         "3", "--size", "64x48"});
  ASSERT_EQ(r.exit_code, 0) << r.err;

  r = RunFor({STRATA_CLI, "export", "--format", "c", "--frames", "1-2", trace, "-o", dir});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("strata trim --frames"), std::string::npos) << r.err;

  const std::string occupied = ScratchPath("occupied");
  ASSERT_EQ(mkdir(occupied.c_str(), 0755), 0);
  FILE* f = std::fopen((occupied + "/notes.txt").c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fclose(f);
  r = RunFor({STRATA_CLI, "export", "--format", "c", trace, "-o", occupied});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("is not empty"), std::string::npos) << r.err;
  EXPECT_TRUE(Exists(occupied + "/notes.txt"));

  r = RunFor({STRATA_CLI, "export", "--format", "c", trace, "-o", dir});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = RunFor({"cmake", "-S", dir, "-B", dir + "/build", "-G", "Ninja"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  r = RunFor({"cmake", "--build", dir + "/build"}, 480);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const std::string program = dir + "/build/small";

  r = RunFor({program, "--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("(3 frames)"), std::string::npos) << r.out;
  r = RunFor({program, "--bogus"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("'--bogus'"), std::string::npos) << r.err;
  r = RunFor({program, "--frames", "0"});
  EXPECT_EQ(r.exit_code, 2);
  r = RunFor({program, "--data", ScratchPath("no-such-file")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("cannot read the trace's data file"), std::string::npos) << r.err;

  // --frames N: the first N frames, no more.
  const std::string saved = ScratchPath("small-saved");
  ASSERT_EQ(mkdir(saved.c_str(), 0755), 0);
  r = RunFor({program, "--frames", "2", "--snapshot", saved});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Exists(FramePath(saved, 1)));
  EXPECT_FALSE(Exists(FramePath(saved, 2)));
}

}  // namespace
