// `strata state` on real traces, checked against what the programs set:
// the tinted quad's uniform, viewport, shaders, vertex layout and buffer
// bytes; gles2_shaders' mipmapped texture, its level 0 image equal to the
// pixels the app uploaded; gles1_cube's fixed-function lighting. Bad input:
// a call past the end, a call with no context, wrong arguments.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
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

ProcessResult Strata(std::vector<std::string> args) {
  args.insert(args.begin(), STRATA_CLI);
  return RunProcess(args);
}

std::string Trace(const std::string& name, const std::vector<std::string>& program) {
  const std::string path = ScratchPath(name + ".strata");
  std::vector<std::string> args = {STRATA_CLI, "trace", "-o", path, "--"};
  args.insert(args.end(), program.begin(), program.end());
  ProcessResult run = RunProcess(args);
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  return path;
}

// The number of the first call (of `frames`, or all) whose dump line matches `pattern`, and the line.
uint64_t FirstCall(const std::string& trace, const std::string& pattern, std::string* line = nullptr,
                   const std::string& frames = "0-") {
  ProcessResult dump = Strata({"dump", "--no-header", "--frames", frames, trace});
  std::istringstream lines(dump.out);
  for (std::string text; std::getline(lines, text);) {
    if (std::regex_search(text, std::regex(pattern))) {
      if (line) *line = text;
      return std::stoull(text);
    }
  }
  ADD_FAILURE() << "no call matches " << pattern;
  return 0;
}

// The value of "key": in the JSON text after `from` (a flat value: number, string, [..]).
std::string After(const std::string& json, const std::string& from, const std::string& key) {
  const size_t start = json.find(from);
  if (start == std::string::npos) return "<no " + from + ">";
  const size_t at = json.find("\"" + key + "\":", start);
  if (at == std::string::npos) return "<no " + key + ">";
  size_t value = at + key.size() + 3, end = value;
  if (json[value] == '[') {
    end = json.find(']', value) + 1;
  } else if (json[value] == '"') {
    end = json.find('"', value + 1) + 1;
  } else {
    while (end < json.size() && json[end] != ',' && json[end] != '}') ++end;
  }
  return json.substr(value, end - value);
}

uint64_t Fnv1a64(const std::vector<uint8_t>& bytes) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (uint8_t byte : bytes) hash = (hash ^ byte) * 0x100000001b3ull;
  return hash;
}

// Catches: uniforms read from the wrong program or location, names not mapped
// back to the trace's, vertex layout or buffer bytes wrong, the call itself run.
TEST(StateCommand, TheTintedDrawSeesWhatTheAppSet) {
  const std::string trace = Trace("tinted", {STRATA_TINTED_APP, "0.25", "2"});
  const uint64_t draw = FirstCall(trace, "glDrawArrays");
  const std::string out_dir = ScratchPath("tinted-out");
  std::filesystem::remove_all(out_dir);
  ProcessResult run = Strata({"state", trace, std::to_string(draw), "-o", out_dir});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string& json = run.out;
  EXPECT_EQ(After(json, "\"call\"", "function"), "\"glDrawArrays\"");
  EXPECT_EQ(After(json, "\"values\"", "GL_VIEWPORT"), "[0,0,64,64]");
  EXPECT_EQ(After(json, "\"values\"", "GL_BLEND_SRC_RGB"), "\"GL_ONE\"");
  EXPECT_EQ(After(json, "\"capabilities\"", "GL_BLEND"), "false");
  EXPECT_EQ(After(json, "\"name\":\"tint\"", "value"), "[0.25,0.5,0.25,1]");
  EXPECT_EQ(After(json, "\"name\":\"tint\"", "type"), "\"GL_FLOAT_VEC4\"");
  EXPECT_NE(json.find("uniform vec4 tint;"), std::string::npos) << "the fragment shader's source";
  // The program and buffer as the trace names them.
  std::string line;
  FirstCall(trace, "glUseProgram", &line);
  EXPECT_EQ(After(json, "\"bindings\"", "GL_CURRENT_PROGRAM"), std::regex_replace(line, std::regex(R"(.*program=(\d+).*)"), "$1"));
  FirstCall(trace, "glBindBuffer", &line);
  const std::string buffer = std::regex_replace(line, std::regex(R"(.*buffer=(\d+).*)"), "$1");
  EXPECT_EQ(After(json, "\"bindings\"", "GL_ARRAY_BUFFER_BINDING"), buffer);
  EXPECT_EQ(After(json, "\"vertex_attributes\"", "enabled"), "true");
  EXPECT_EQ(After(json, "\"vertex_attributes\"", "size"), "2");
  EXPECT_EQ(After(json, "\"vertex_attributes\"", "buffer"), buffer);
  // The buffer's bytes are the quad the app uploaded.
  std::ifstream in(out_dir + "/buffer-" + buffer + ".bin", std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const float quad[] = {-1, -1, 1, -1, -1, 1, 1, 1};
  ASSERT_EQ(bytes.size(), sizeof quad);
  EXPECT_EQ(std::memcmp(bytes.data(), quad, sizeof quad), 0);
  // Before the draw the surface holds the clear color only: black.
  strata::test::Image image;
  std::string error;
  ASSERT_TRUE(strata::test::ReadPng(out_dir + "/framebuffer.png", &image, &error)) << error;
  EXPECT_EQ(image.width, 64);
  EXPECT_EQ(strata::test::CountColours(image), 1) << "the draw must not have run";
  // The state of the second frame's draw sees the same, after one more clear.
  const std::string page = ScratchPath("tinted.html");
  ProcessResult html = Strata({"state", "--html", page, trace, std::to_string(draw)});
  ASSERT_EQ(html.exit_code, 0) << html.err;
  std::ifstream page_in(page);
  std::string page_text((std::istreambuf_iterator<char>(page_in)), std::istreambuf_iterator<char>());
  EXPECT_NE(page_text.find("uniform vec4 tint;"), std::string::npos);
  EXPECT_NE(page_text.find("<script"), std::string::npos);
  std::filesystem::remove_all(out_dir);
  for (const std::string& path : {trace, page}) std::filesystem::remove(path);
}

// Catches: texture levels or formats misread, images upside down or of the
// wrong texture, level sizes left out.
TEST(StateCommand, ATexturesImageIsWhatTheAppUploaded) {
  const std::string trace = Trace("shaders", {std::string(STRATA_BIN_DIR) + "/gles2_shaders", "--frames", "2"});
  const uint64_t draw = FirstCall(trace, "glDrawElements");
  std::string upload;
  FirstCall(trace, R"(glTexImage2D\(target=GL_TEXTURE_2D, level=0, internalformat=GL_RGBA, width=256)", &upload);
  ProcessResult json_dump = Strata({"dump", "--json", "--calls", std::to_string(std::stoull(upload)), trace});
  const std::string uploaded_hash = After(json_dump.out, "\"pixels\"", "fnv1a64");
  const std::string out_dir = ScratchPath("shaders-out");
  std::filesystem::remove_all(out_dir);
  ProcessResult run = Strata({"state", "-o", out_dir, trace, std::to_string(draw)});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string& json = run.out;
  EXPECT_EQ(After(json, "\"textures\"", "target"), "\"GL_TEXTURE_2D\"");
  EXPECT_EQ(After(json, "\"textures\"", "GL_TEXTURE_MIN_FILTER"), "\"GL_LINEAR_MIPMAP_LINEAR\"");
  // glGenerateMipmap: 256 down to 1, nine levels.
  EXPECT_NE(json.find("\"level\":8,\"width\":1,\"height\":1"), std::string::npos) << json;
  const std::string texture = After(json, "\"textures\"", "name");
  strata::test::Image image;
  std::string error;
  ASSERT_TRUE(strata::test::ReadPng(out_dir + "/texture-" + texture + "-level0.png", &image, &error)) << error;
  ASSERT_EQ(image.width, 256);
  // The PNG is top row first; the upload bottom row first.
  std::vector<uint8_t> gl_order;
  for (int row = image.height - 1; row >= 0; --row) {
    gl_order.insert(gl_order.end(), image.rgba.begin() + row * image.width * 4,
                    image.rgba.begin() + (row + 1) * image.width * 4);
  }
  char hash[20];
  std::snprintf(hash, sizeof hash, "\"%016llx\"", static_cast<unsigned long long>(Fnv1a64(gl_order)));
  EXPECT_EQ(uploaded_hash, hash);
  std::filesystem::remove_all(out_dir);
  std::filesystem::remove(trace);
}

// Catches: a framebuffer object's attachment not read, or read from the
// surface instead; surfaces' sizes missing.
TEST(StateCommand, AFramebufferObjectsAttachmentIsWritten) {
  const std::string trace = Trace("fbo", {std::string(STRATA_BIN_DIR) + "/gles2_shaders", "--frames", "2"});
  // The second frame's first draw goes into the plasma FBO, which holds the first frame's plasma.
  const uint64_t draw = FirstCall(trace, "glDrawArrays", nullptr, "1");
  const std::string out_dir = ScratchPath("fbo-out");
  std::filesystem::remove_all(out_dir);
  ProcessResult run = Strata({"state", "-o", out_dir, trace, std::to_string(draw)});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(After(run.out, "\"draw_surface\"", "width"), "320");
  const std::string framebuffer = After(run.out, "\"draw_framebuffer\"", "name");
  EXPECT_NE(framebuffer, "0");
  EXPECT_EQ(After(run.out, "\"attachments\"", "type"), "\"GL_TEXTURE\"");
  const std::string image = After(run.out, "\"attachments\"", "image");
  EXPECT_EQ(image, "\"" + out_dir + "/framebuffer-" + framebuffer + "-GL_COLOR_ATTACHMENT0.png\"");
  strata::test::Image png;
  std::string error;
  ASSERT_TRUE(strata::test::ReadPng(image.substr(1, image.size() - 2), &png, &error)) << error;
  EXPECT_EQ(png.width, 128);
  EXPECT_GT(strata::test::CountColours(png), 50) << "the first frame's plasma";
  std::filesystem::remove_all(out_dir);
  std::filesystem::remove(trace);
}

// Catches: a GLES 1.1 context read as a GLES 2 one, lights or matrices missing.
TEST(StateCommand, GlesOneGetsItsFixedFunctionState) {
  const std::string trace = Trace("cube", {std::string(STRATA_BIN_DIR) + "/gles1_cube", "--frames", "2"});
  const uint64_t draw = FirstCall(trace, "glDrawElements");
  ProcessResult run = Strata({"state", trace, std::to_string(draw)});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string& json = run.out;
  EXPECT_EQ(After(json, "\"context\"", "gles_version"), "1");
  EXPECT_EQ(After(json, "\"capabilities\"", "GL_LIGHTING"), "true");
  EXPECT_EQ(After(json, "\"light\":\"GL_LIGHT0\"", "enabled"), "true");
  EXPECT_EQ(After(json, "\"texture_units\"", "GL_TEXTURE_ENV_MODE"), "\"GL_MODULATE\"");
  const std::string modelview = After(json, "\"values\"", "GL_MODELVIEW_MATRIX");
  EXPECT_EQ(std::count(modelview.begin(), modelview.end(), ','), 15) << modelview;
  EXPECT_EQ(json.find("\"program\""), std::string::npos) << "GLES 1.1 has no programs";
  std::filesystem::remove(trace);
}

// Catches: a crash or a half-written answer on a call the trace cannot reach.
TEST(StateCommand, BadCallsAreOneClearError) {
  const std::string trace = Trace("bad", {STRATA_TINTED_APP, "0.5", "1"});
  ProcessResult past = Strata({"state", trace, "99999"});
  EXPECT_EQ(past.exit_code, 1);
  EXPECT_NE(past.err.find("there is no call 99999"), std::string::npos) << past.err;
  EXPECT_EQ(past.out, "");
  ProcessResult before_context = Strata({"state", trace, "0"});
  EXPECT_EQ(before_context.exit_code, 1);
  EXPECT_NE(before_context.err.find("no context current"), std::string::npos) << before_context.err;
  EXPECT_EQ(before_context.out, "");
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"state", trace}, {"state", trace, "x"}, {"state", trace, "-5"}, {"state", "--bogus", trace, "3"}}) {
    ProcessResult wrong = Strata(args);
    EXPECT_EQ(wrong.exit_code, 2) << args.back();
    EXPECT_NE(wrong.err.find("strata state: error:"), std::string::npos) << wrong.err;
  }
  ProcessResult missing = Strata({"state", ScratchPath("missing.strata"), "3"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("missing.strata"), std::string::npos) << missing.err;
  std::filesystem::remove(trace);
}

}  // namespace
