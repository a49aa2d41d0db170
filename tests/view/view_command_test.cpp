// `strata view` on real traces: what the report model finds in a program that
// makes known errors, shaders and uploads; the command's options; and bad
// input (foreign, damaged, cut-short files, unwritable output).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support/png_image.h"
#include "support/process.h"
#include "support/scratch.h"
#include "view/captured_images.h"
#include "view/report_model.h"

namespace {

using strata::test::ProcessResult;
using strata::test::RunProcess;
using strata::test::ScratchPath;

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void WriteAll(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

size_t Count(const std::string& text, const std::string& needle) {
  size_t count = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++count;
  return count;
}

// Standard base64 (RFC 4648), as data URLs carry PNGs.
std::string DecodeBase64(const std::string& text) {
  static const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string bytes;
  uint32_t bits = 0;
  int count = 0;
  for (char c : text) {
    if (c == '=') break;
    size_t value = alphabet.find(c);
    if (value == std::string::npos) return {};
    bits = (bits << 6) | static_cast<uint32_t>(value);
    count += 6;
    if (count >= 8) {
      count -= 8;
      bytes.push_back(static_cast<char>((bits >> count) & 0xff));
    }
  }
  return bytes;
}

// The report's images by frame number, decoded from their data URLs.
std::map<uint64_t, strata::test::Image> ReportImages(const std::string& page) {
  std::map<uint64_t, strata::test::Image> images;
  static const std::regex image(R"re(\{"frame":(\d+),[^{}]*"src":"data:image/png;base64,([A-Za-z0-9+/=]+)")re");
  for (auto it = std::sregex_iterator(page.begin(), page.end(), image); it != std::sregex_iterator(); ++it) {
    const std::string png = ScratchPath("view-image.png");
    WriteAll(png, DecodeBase64((*it)[2]));
    strata::test::Image decoded;
    std::string error;
    EXPECT_TRUE(strata::test::ReadPng(png, &decoded, &error)) << error;
    images[std::stoull((*it)[1])] = decoded;
    unlink(png.c_str());
  }
  return images;
}

ProcessResult View(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {STRATA_CLI, "view"};
  argv.insert(argv.end(), args.begin(), args.end());
  return RunProcess(argv);
}

class ViewCommand : public ::testing::Test {
 protected:
  // One trace of each program for the whole suite: tracing is the slow part.
  static void SetUpTestSuite() {
    probe_trace_ = ScratchPath("view-probe.strace");
    ProcessResult probe = RunProcess({STRATA_CLI, "trace", "-o", probe_trace_, "--capture", "swap", "--",
                                      STRATA_PROBE_APP, "--frames", "3"});
    ASSERT_EQ(probe.exit_code, 0) << probe.out << probe.err;
    app_trace_ = ScratchPath("view-gles2.strace");
    ProcessResult app = RunProcess({STRATA_CLI, "trace", "-o", app_trace_, "--capture", "swap", "--",
                                    std::string(STRATA_BIN_DIR) + "/gles2_shaders", "--frames", "6"});
    ASSERT_EQ(app.exit_code, 0) << app.out << app.err;
  }
  static void TearDownTestSuite() {
    unlink(probe_trace_.c_str());
    unlink(app_trace_.c_str());
  }
  static std::string probe_trace_, app_trace_;
};
std::string ViewCommand::probe_trace_, ViewCommand::app_trace_;

TEST_F(ViewCommand, ModelFindsTheProbesErrorsShadersAndUploads) {
  strata::view::ReportModel model;
  std::string error;
  ASSERT_TRUE(strata::view::BuildReportModel(probe_trace_, {}, &model, &error)) << error;
  EXPECT_TRUE(model.warning.empty()) << model.warning;
  EXPECT_TRUE(model.complete);
  EXPECT_EQ(model.header.program, "report_probe_app");
  // Three swaps, then the calls after the last one: four frames.
  ASSERT_EQ(model.frames.size(), 4u);
  EXPECT_EQ(model.totals.draws, 3u);
  for (size_t f = 0; f < 3; ++f) EXPECT_EQ(model.frames[f].draws, 1u) << "frame " << f;
  EXPECT_EQ(model.totals.framebuffer_images, 3u);
  EXPECT_EQ(model.frames_with_images, (std::vector<uint64_t>{0, 1, 2}));

  ASSERT_EQ(model.errors.size(), 2u);
  const strata::view::ReportError& egl = model.errors[0];
  EXPECT_TRUE(egl.egl);
  EXPECT_EQ(egl.error, "EGL_BAD_SURFACE");
  ASSERT_TRUE(egl.follows.has_value());
  EXPECT_EQ(model.function_names[egl.follows->function], "eglQuerySurface");
  const strata::view::ReportError& gl = model.errors[1];
  EXPECT_FALSE(gl.egl);
  EXPECT_EQ(gl.error, "GL_INVALID_ENUM");
  ASSERT_TRUE(gl.follows.has_value());
  EXPECT_EQ(model.function_names[gl.follows->function], "glEnable");
  EXPECT_EQ(gl.follows->sequence + 1, gl.call.sequence);
  EXPECT_EQ(model.frames[0].errors, 2u);
  EXPECT_EQ(model.totals.errors, 2u);

  ASSERT_EQ(model.shaders.size(), 2u);
  EXPECT_EQ(model.shaders[0].type, 0x8B31u);  // GL_VERTEX_SHADER
  EXPECT_EQ(model.shaders[1].type, 0x8B30u);  // GL_FRAGMENT_SHADER
  EXPECT_NE(model.shaders[0].source.find("strata-view-probe vertex shader </script>"), std::string::npos)
      << model.shaders[0].source;
  EXPECT_NE(model.shaders[1].source.find("colour = vec4(1.0, 0.5, 0.0, 1.0);"), std::string::npos);
  EXPECT_EQ(model.shaders[0].compiled, std::optional<bool>(true));
  ASSERT_EQ(model.programs.size(), 1u);
  EXPECT_EQ(model.programs[0].shaders, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(model.programs[0].linked, std::optional<bool>(true));

  // Largest first: the 12345-byte glBufferData, then the 24 bytes written
  // into the mapped buffer (captured at glUnmapBuffer).
  ASSERT_GE(model.largest_uploads.size(), 2u);
  EXPECT_EQ(model.largest_uploads[0].bytes, 12345u);
  EXPECT_STREQ(model.largest_uploads[0].kind, "buffer");
  EXPECT_EQ(model.function_names[model.largest_uploads[0].call.function], "glBufferData");
  EXPECT_EQ(model.largest_uploads[1].bytes, 24u);
  EXPECT_STREQ(model.largest_uploads[1].kind, "mapped buffer");
  EXPECT_EQ(model.function_names[model.largest_uploads[1].call.function], "glUnmapBuffer");
  EXPECT_EQ(model.totals.upload_bytes, 12345u + 24u);
  EXPECT_EQ(model.totals.app_memory_bytes, 24u);
}

TEST_F(ViewCommand, CallsAreInSequenceOrderAndFramesPartitionThem) {
  strata::view::ReportModel model;
  std::string error;
  ASSERT_TRUE(strata::view::BuildReportModel(app_trace_, {}, &model, &error)) << error;
  ASSERT_EQ(model.frames.size(), 7u);  // six swaps and what follows the last
  size_t next = 0;
  for (size_t f = 0; f < model.frames.size(); ++f) {
    EXPECT_EQ(model.frames[f].first_call, next) << "frame " << f;
    next += model.frames[f].call_count;
    if (f < 6) {
      // Each frame ends with its swap.
      const auto& last = model.calls[model.frames[f].first_call + model.frames[f].call_count - 1];
      EXPECT_EQ(model.function_names[last.function], "eglSwapBuffers") << "frame " << f;
    }
  }
  EXPECT_EQ(next, model.calls.size());
  for (size_t i = 1; i < model.calls.size(); ++i) ASSERT_LT(model.calls[i - 1].sequence, model.calls[i].sequence);
}

// The report's call rows are meant to read as `strata dump` prints them; a
// frame's dump (--frames) must number its calls as the whole trace does.
TEST_F(ViewCommand, DumpOfOneFrameNumbersCallsAsTheReportDoes) {
  strata::view::ReportModel model;
  std::string error;
  ASSERT_TRUE(strata::view::BuildReportModel(app_trace_, {}, &model, &error)) << error;
  ProcessResult dump = RunProcess({STRATA_CLI, "dump", "--no-header", "--frames", "3", app_trace_});
  ASSERT_EQ(dump.exit_code, 0) << dump.err;
  std::vector<std::string> expected;
  const strata::view::ReportFrame& frame = model.frames[3];
  for (size_t i = frame.first_call; i < frame.first_call + frame.call_count; ++i) {
    const strata::view::ReportCall& call = model.calls[i];
    expected.push_back(std::to_string(call.sequence) + " [" + std::to_string(model.threads[call.thread]) + "] " +
                       model.function_names[call.function] + model.texts[call.text]);
  }
  std::vector<std::string> printed;
  std::istringstream lines(dump.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || !std::isdigit(static_cast<unsigned char>(line[0]))) continue;
    printed.push_back(line.substr(0, line.rfind("  (")));
  }
  EXPECT_EQ(printed, expected);
}

TEST_F(ViewCommand, CapturedImagesAreOnePerFrameTopRowFirst) {
  strata::view::ReportModel model;
  std::string error;
  ASSERT_TRUE(strata::view::BuildReportModel(probe_trace_, {}, &model, &error)) << error;
  strata::view::CapturedImageOptions options;
  strata::view::CapturedImageResult images;
  ASSERT_TRUE(strata::view::ReadCapturedImages(probe_trace_, options, &images, &error)) << error;
  ASSERT_EQ(images.images.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    const strata::view::FrameImage& image = images.images[i];
    EXPECT_EQ(image.frame, i);
    ASSERT_EQ(image.width, 64u);
    ASSERT_EQ(image.height, 48u);
    // The probe's triangle covers the surface in orange.
    EXPECT_EQ(image.rgba[0], 255);
    EXPECT_NEAR(image.rgba[1], 128, 1);
    EXPECT_EQ(image.rgba[2], 0);
  }
  options.max_side = 32;
  options.wanted = [](uint64_t frame) { return frame == 1; };
  ASSERT_TRUE(strata::view::ReadCapturedImages(probe_trace_, options, &images, &error)) << error;
  ASSERT_EQ(images.images.size(), 1u);
  EXPECT_EQ(images.images[0].frame, 1u);
  EXPECT_EQ(images.images[0].width, 32u);
  EXPECT_EQ(images.images[0].height, 24u);
}

TEST_F(ViewCommand, WritesAReportWithImagesAndSaysWhatItWrote) {
  const std::string out = ScratchPath("view-app.html");
  ProcessResult run = View({app_trace_, "-o", out});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("wrote " + out), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("6 images"), std::string::npos) << run.out;
  const std::string page = ReadAll(out);
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(Count(page, "data:image/png;base64,"), 6u);
  // Self-contained: no URL the browser would fetch.
  EXPECT_EQ(page.find("src=\"http"), std::string::npos);
  EXPECT_EQ(page.find("<link"), std::string::npos);
  // The data block cannot end the script early.
  const size_t data = page.find("id=\"report-data\">");
  ASSERT_NE(data, std::string::npos);
  EXPECT_EQ(page.find("</script>", data), page.find("</script>\n<script>", data));
  unlink(out.c_str());
}

// Catches: states made for the wrong frame's draws (or for calls that are not
// draws), the panel's data missing from the page, state images not inlined.
TEST_F(ViewCommand, StateFramesKeepTheStateBeforeEachDrawOfThoseFrames) {
  const std::string out = ScratchPath("view-states.html");
  ProcessResult run = View({app_trace_, "--state-frames", "2", "-o", out});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string page = ReadAll(out);
  std::set<std::string> states;
  const std::regex state_key(R"re("(\d+)":\{"context":\{"gles_version")re");
  for (auto it = std::sregex_iterator(page.begin(), page.end(), state_key); it != std::sregex_iterator(); ++it) {
    states.insert((*it)[1]);
  }
  std::set<std::string> draws;
  ProcessResult dump = RunProcess({STRATA_CLI, "dump", "--no-header", "--frames", "2", app_trace_});
  std::istringstream lines(dump.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.find("] glDraw") != std::string::npos) draws.insert(line.substr(0, line.find(' ')));
  }
  ASSERT_FALSE(draws.empty());
  EXPECT_EQ(states, draws);
  EXPECT_NE(page.find("\"GL_CURRENT_PROGRAM\""), std::string::npos);
  EXPECT_NE(page.find("\"uniforms\":[{\"name\""), std::string::npos);
  // The bound textures' and the framebuffer's images, inline, once each.
  EXPECT_NE(page.find("\"state-image:"), std::string::npos);
  EXPECT_NE(page.find("\"state_images\":{\""), std::string::npos);
  EXPECT_NE(run.err.find("replaying for the GL state before " + std::to_string(draws.size()) + " draws"),
            std::string::npos)
      << run.err;
  ProcessResult bad = View({app_trace_, "--state-frames", "two", "-o", out});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--state-frames takes a list"), std::string::npos) << bad.err;
  unlink(out.c_str());
}

TEST_F(ViewCommand, ThumbnailOptions) {
  const std::string out = ScratchPath("view-thumbs.html");
  ProcessResult none = View({app_trace_, "-o", out, "--thumbnails", "none"});
  ASSERT_EQ(none.exit_code, 0) << none.err;
  EXPECT_EQ(Count(ReadAll(out), "data:image/png;base64,"), 0u);

  ProcessResult two = View({app_trace_, "-o", out, "--max-thumbnails", "2", "--thumbnail-size", "64"});
  ASSERT_EQ(two.exit_code, 0) << two.err;
  const std::string page = ReadAll(out);
  EXPECT_EQ(Count(page, "data:image/png;base64,"), 2u);
  // Spread from the first frame with an image to the last (5: frame 6 is what follows the last swap).
  EXPECT_NE(page.find("{\"frame\":0,\"width\":64,\"height\":48"), std::string::npos);
  EXPECT_NE(page.find("{\"frame\":5,\"width\":64,\"height\":48"), std::string::npos);
  unlink(out.c_str());
}

// Thumbnails built by replaying the trace are the app's own frames: each
// equals the image the tracer captured at that frame's swap, and the last
// equals the PNG the app saved of its last frame.
// Catches: replayed thumbnails blank, zero-filled, of the wrong frame, or
// flipped; a replay that draws something else than the app did.
TEST(ViewThumbnails, ReplayedThumbnailsAreTheAppsFrames) {
  const std::string trace = ScratchPath("view-replayed.strace"), app_png = ScratchPath("view-replayed-app.png");
  ProcessResult traced = RunProcess({STRATA_CLI, "trace", "-o", trace, "--capture", "swap", "--",
                                     std::string(STRATA_BIN_DIR) + "/gles2_shaders", "--frames", "4", "--size", "96x64",
                                     "--output", app_png});
  ASSERT_EQ(traced.exit_code, 0) << traced.out << traced.err;
  const std::string out = ScratchPath("view-replayed.html");
  ProcessResult run = View({trace, "-o", out, "--thumbnails", "replayed", "--max-thumbnails", "0",
                            "--thumbnail-size", "4096"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::map<uint64_t, strata::test::Image> replayed = ReportImages(ReadAll(out));
  ASSERT_EQ(replayed.size(), 4u) << run.out;

  strata::view::CapturedImageResult captured;
  std::string error;
  ASSERT_TRUE(strata::view::ReadCapturedImages(trace, {}, &captured, &error)) << error;
  ASSERT_EQ(captured.images.size(), 4u);
  for (const strata::view::FrameImage& image : captured.images) {
    ASSERT_TRUE(replayed.count(image.frame)) << "no replayed thumbnail of frame " << image.frame;
    const strata::test::Image& thumbnail = replayed[image.frame];
    ASSERT_EQ(thumbnail.width, 96);
    ASSERT_EQ(thumbnail.height, 64);
    EXPECT_GT(strata::test::CountColours(thumbnail), 50) << "frame " << image.frame << " is blank";
    EXPECT_EQ(thumbnail.rgba, image.rgba) << "frame " << image.frame << " differs from the captured one";
  }
  strata::test::Image app;
  ASSERT_TRUE(strata::test::ReadPng(app_png, &app, &error)) << error;
  EXPECT_EQ(strata::test::DifferingBytes(replayed.rbegin()->second, app), 0u) << "the last frame is not the app's";
  EXPECT_NE(replayed.begin()->second.rgba, replayed.rbegin()->second.rgba) << "the frames differ: the app animates";
  for (const std::string& path : {trace, app_png, out}) unlink(path.c_str());
}

TEST_F(ViewCommand, DefaultOutputIsTheTraceNameWithHtml) {
  const std::string copy = ScratchPath("view-default") + ".strace";
  std::filesystem::copy_file(probe_trace_, copy, std::filesystem::copy_options::overwrite_existing);
  ProcessResult run = View({copy});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string expected = copy.substr(0, copy.size() - 7) + ".html";
  EXPECT_TRUE(std::filesystem::exists(expected)) << run.out;
  unlink(expected.c_str());
  unlink(copy.c_str());
}

TEST_F(ViewCommand, UsageErrors) {
  ProcessResult help = View({"--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("usage: strata view"), std::string::npos);
  EXPECT_NE(help.out.find("--thumbnails auto|captured|replayed|none"), std::string::npos);

  ProcessResult no_trace = View({});
  EXPECT_EQ(no_trace.exit_code, 2);
  EXPECT_NE(no_trace.err.find("no trace given"), std::string::npos) << no_trace.err;

  ProcessResult bad_thumbnails = View({probe_trace_, "--thumbnails", "painted"});
  EXPECT_EQ(bad_thumbnails.exit_code, 2);
  EXPECT_NE(bad_thumbnails.err.find("--thumbnails is auto, captured, replayed or none, not 'painted'"),
            std::string::npos);

  ProcessResult bad_size = View({probe_trace_, "--thumbnail-size", "3"});
  EXPECT_EQ(bad_size.exit_code, 2);
  EXPECT_NE(bad_size.err.find("--thumbnail-size takes a size from 16 to 4096"), std::string::npos) << bad_size.err;

  ProcessResult bad_count = View({probe_trace_, "--max-thumbnails", "-1"});
  EXPECT_EQ(bad_count.exit_code, 2);

  ProcessResult missing_value = View({probe_trace_, "-o"});
  EXPECT_EQ(missing_value.exit_code, 2);
  EXPECT_NE(missing_value.err.find("-o needs a value"), std::string::npos) << missing_value.err;

  ProcessResult unknown = View({probe_trace_, "--frobnicate"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("unknown option '--frobnicate'"), std::string::npos);

  ProcessResult two = View({probe_trace_, probe_trace_});
  EXPECT_EQ(two.exit_code, 2);
  EXPECT_NE(two.err.find("one trace at a time"), std::string::npos);
}

TEST_F(ViewCommand, MissingForeignAndDamagedFilesAreErrorsWithTheByteOffset) {
  const std::string out = ScratchPath("view-bad.html");
  unlink(out.c_str());

  ProcessResult missing = View({ScratchPath("no-such.strace"), "-o", out});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("strata view: error: "), std::string::npos) << missing.err;
  EXPECT_NE(missing.err.find("no-such.strace"), std::string::npos) << missing.err;

  const std::string foreign = ScratchPath("view-foreign.strace");
  WriteAll(foreign, "<html>this is not a trace, just some text long enough</html>\n");
  ProcessResult not_trace = View({foreign, "-o", out});
  EXPECT_EQ(not_trace.exit_code, 1);
  EXPECT_NE(not_trace.err.find("not a Strata trace (bad magic at byte 0"), std::string::npos) << not_trace.err;

  // One byte changed inside the stored data of a chunk in the middle.
  std::string bytes = ReadAll(app_trace_);
  const std::string damaged = ScratchPath("view-damaged.strace");
  bytes[bytes.size() / 2] ^= 0x5a;
  WriteAll(damaged, bytes);
  ProcessResult corrupt = View({damaged, "-o", out});
  EXPECT_EQ(corrupt.exit_code, 1);
  EXPECT_TRUE(std::regex_search(corrupt.err, std::regex("strata view: error: .*at byte [0-9]+"))) << corrupt.err;
  EXPECT_FALSE(std::filesystem::exists(out)) << "no report from a damaged trace";

  unlink(foreign.c_str());
  unlink(damaged.c_str());
}

TEST_F(ViewCommand, ACutShortTraceGivesAReportWithAWarning) {
  std::string bytes = ReadAll(app_trace_);
  const std::string cut = ScratchPath("view-cut.strace");
  WriteAll(cut, bytes.substr(0, bytes.size() * 2 / 3));
  const std::string out = ScratchPath("view-cut.html");
  ProcessResult run = View({cut, "-o", out});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::smatch warning;
  ASSERT_TRUE(std::regex_search(run.err, warning, std::regex("strata view: warning: ([^\n]*chunk at byte [0-9]+ is truncated[^\n]*)")))
      << run.err;
  const std::string page = ReadAll(out);
  // The page carries the reader's message, which the banner shows.
  EXPECT_NE(page.find("\"warning\":\"" + warning[1].str() + "\""), std::string::npos);
  EXPECT_NE(page.find("\"complete\":false"), std::string::npos);
  unlink(cut.c_str());
  unlink(out.c_str());
}

TEST_F(ViewCommand, UnwritableOutputIsAClearError) {
  ProcessResult no_dir = View({probe_trace_, "-o", ScratchPath("no-such-dir") + "/report.html"});
  EXPECT_EQ(no_dir.exit_code, 1);
  EXPECT_NE(no_dir.err.find("cannot write"), std::string::npos) << no_dir.err;
  EXPECT_NE(no_dir.err.find("No such file or directory"), std::string::npos) << no_dir.err;

  const std::string dir = ScratchPath("view-out-dir");
  std::filesystem::create_directories(dir);
  ProcessResult is_dir = View({probe_trace_, "-o", dir});
  EXPECT_EQ(is_dir.exit_code, 1);
  EXPECT_NE(is_dir.err.find("cannot write " + dir + ": it is a directory"), std::string::npos) << is_dir.err;
  std::filesystem::remove_all(dir);

  // A full disk: every write fails.
  ProcessResult full = View({probe_trace_, "-o", "/dev/full"});
  EXPECT_EQ(full.exit_code, 1);
  EXPECT_NE(full.err.find("cannot write /dev/full: No space left on device"), std::string::npos) << full.err;
  struct stat device{};
  EXPECT_EQ(stat("/dev/full", &device), 0) << "the device must still be there";
}

}  // namespace
