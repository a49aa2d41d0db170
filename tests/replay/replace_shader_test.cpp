// strata replay --replace-shader on pixel_app, whose "odd" program draws in
// odd frames only: a constant-colour fragment shader in its place changes
// exactly those frames, by shader name or by program name; compile and link
// errors stop the replay with the driver's log; bad names are one error.
#include <gtest/gtest.h>

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

ProcessResult Strata(std::vector<std::string> args) {
  args.insert(args.begin(), STRATA_CLI);
  return RunProcess(args);
}

std::string File(const std::string& name, const std::string& text) {
  const std::string path = ScratchPath(name);
  std::ofstream(path) << text;
  return path;
}

constexpr char kOrange[] =
    "#version 300 es\nprecision mediump float; out vec4 fragment;\n"
    "void main() { fragment = vec4(1.0, 0.5, 0.0, 1.0); }\n";

class ReplaceShader : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    trace_ = new std::string(ScratchPath("pixel_app-5.strace"));
    ProcessResult run = RunProcess({STRATA_CLI, "trace", "--capture", "swap", "-o", *trace_, "--", STRATA_PIXEL_APP, "5"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    // The odd program and its fragment shader: pixel_app makes it third, after "flat" and "textured".
    ProcessResult dump = Strata({"dump", "--no-header", *trace_});
    std::vector<std::string> programs, fragment_shaders;
    const std::regex made(R"(glCreate(Program\(\)|Shader\(type=GL_FRAGMENT_SHADER\)) = (\d+))");
    for (std::sregex_iterator it(dump.out.begin(), dump.out.end(), made), end; it != end; ++it) {
      ((*it)[1].str() == "Program()" ? programs : fragment_shaders).push_back((*it)[2]);
    }
    ASSERT_EQ(programs.size(), 3u) << dump.out;
    ASSERT_EQ(fragment_shaders.size(), 3u) << dump.out;
    program_ = new std::string(programs[2]);
    shader_ = new std::string(fragment_shaders[2]);
  }
  static void TearDownTestSuite() {
    delete trace_;
    delete shader_;
    delete program_;
  }
  static std::string *trace_, *shader_, *program_;
};
std::string *ReplaceShader::trace_ = nullptr, *ReplaceShader::shader_ = nullptr, *ReplaceShader::program_ = nullptr;

// Catches: the replacement not compiled in (no frame changes), compiled into
// other programs too (even frames change), or kept from taking effect by the
// replay's own shader of the same name.
TEST_F(ReplaceShader, AConstantColourChangesExactlyTheFramesThatUseIt) {
  const std::string orange = File("orange.frag", kOrange);
  for (const std::string& name : {*shader_, *program_}) {
    const std::string dir = ScratchPath("replaced-" + name);
    ProcessResult r = Strata({"replay", "--verify", "--replace-shader", name + "=" + orange, "--snapshot", "1", "-o",
                              dir, *trace_});
    EXPECT_EQ(r.exit_code, 1) << "frames differ" << r.out << r.err;
    EXPECT_NE(r.out.find("verify: frames that differ: 1,3\n"), std::string::npos) << r.out << r.err;
    EXPECT_NE(r.out.find(name == *shader_ ? "replace-shader: shader " + name + " from " + orange + ": compiled 1 time"
                                          : "replace-shader: program " + name + " from " + orange + ": linked 1 time"),
              std::string::npos)
        << r.out;
    strata::test::Image frame;
    std::string error;
    ASSERT_TRUE(strata::test::ReadPng(dir + "/frame-000001.png", &frame, &error)) << error;
    const size_t at = (7u * 64 + 8) * 4;  // GL (8, 56): the odd quad
    EXPECT_EQ(frame.rgba[at], 255);
    EXPECT_NEAR(frame.rgba[at + 1], 128, 1);
    EXPECT_EQ(frame.rgba[at + 2], 0);
  }
  // Without it the same replay verifies.
  ProcessResult plain = Strata({"replay", "--verify", *trace_});
  EXPECT_EQ(plain.exit_code, 0) << plain.out << plain.err;
}

// Catches: a compile or link failure replayed on silently, or reported
// without the driver's log or the file's name.
TEST_F(ReplaceShader, CompileAndLinkErrorsStopWithTheDriversLog) {
  const std::string broken = File("broken.frag", "#version 300 es\nprecision mediump float; out vec4 fragment;\n"
                                                 "void main() { fragment = vec4(1.0) }\n");
  ProcessResult compile = Strata({"replay", "--replace-shader", *shader_ + "=" + broken, *trace_});
  EXPECT_EQ(compile.exit_code, 1);
  EXPECT_NE(compile.err.find("strata replay: error: --replace-shader: shader " + *shader_ + " from " + broken +
                             " does not compile"),
            std::string::npos)
      << compile.err;
  EXPECT_NE(compile.err.find("syntax error"), std::string::npos) << "the driver's log\n" << compile.err;
  EXPECT_EQ(compile.out.find("replayed"), std::string::npos) << "the replay stops\n" << compile.out;
  const std::string unlinked = File("unlinked.frag", "#version 300 es\nprecision mediump float; in vec3 nobody_writes;\n"
                                                     "out vec4 fragment; void main() { fragment = vec4(nobody_writes, 1.0); }\n");
  ProcessResult link = Strata({"replay", "--replace-shader", *program_ + "=" + unlinked, *trace_});
  EXPECT_EQ(link.exit_code, 1);
  EXPECT_NE(link.err.find("program " + *program_ + " does not link with " + unlinked), std::string::npos) << link.err;
  EXPECT_NE(link.err.find("nobody_writes"), std::string::npos) << "the driver's log\n" << link.err;
}

// Catches: names the trace never made, a file of the wrong stage, a program
// without a stage to replace, bad syntax, unreadable files accepted.
TEST_F(ReplaceShader, BadNamesAndFilesAreOneError) {
  const std::string orange = File("orange.frag", kOrange);
  ProcessResult unknown = Strata({"replay", "--replace-shader", "999=" + orange, *trace_});
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_NE(unknown.err.find("the replay met no shader or program 999"), std::string::npos) << unknown.err;
  const std::string vertex_name = std::to_string(std::stoi(*shader_) - 1);  // the odd program's vertex shader
  ProcessResult stage = Strata({"replay", "--replace-shader", vertex_name + "=" + orange, *trace_});
  EXPECT_EQ(stage.exit_code, 1);
  EXPECT_NE(stage.err.find("is a fragment shader by its name, shader " + vertex_name + " a vertex shader"),
            std::string::npos)
      << stage.err;
  const std::string no_stage = File("orange.glsl", kOrange);
  ProcessResult program = Strata({"replay", "--replace-shader", *program_ + "=" + no_stage, *trace_});
  EXPECT_EQ(program.exit_code, 1);
  EXPECT_NE(program.err.find("name the stage FILE replaces by its extension"), std::string::npos) << program.err;
  ProcessResult syntax = Strata({"replay", "--replace-shader", "shader=" + orange, *trace_});
  EXPECT_EQ(syntax.exit_code, 2);
  EXPECT_NE(syntax.err.find("--replace-shader takes NAME=FILE"), std::string::npos) << syntax.err;
  ProcessResult missing = Strata({"replay", "--replace-shader", "3=" + ScratchPath("no-such.frag"), *trace_});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("cannot read"), std::string::npos) << missing.err;
}

}  // namespace
