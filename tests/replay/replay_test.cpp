// strata replay from the outside: traced programs replay to the frames they
// drew, snapshots equal the programs' own output, verification finds a
// changed pixel, and bad traces and arguments get clear errors.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <functional>
#include <filesystem>
#include <fstream>
#include <span>
#include <regex>
#include <string>
#include <vector>

#include "strata/api/replay.h"
#include "stream/byte_reader.h"
#include "stream/byte_writer.h"
#include "stream/call_decoder.h"
#include "stream/call_encoder.h"
#include "stream/framebuffer_record.h"
#include "stream/record_format.h"
#include "stream/record_reader.h"
#include "stream/trace_file.h"
#include "support/png_image.h"
#include "support/process.h"
#include "support/scratch.h"

namespace {

using strata::test::ProcessResult;
using strata::test::RunProcess;

using strata::test::ScratchPath;
std::string App(const std::string& name) { return std::string(STRATA_BIN_DIR) + "/" + name; }

ProcessResult Trace(const std::string& trace, const std::vector<std::string>& program, const std::string& capture) {
  std::vector<std::string> argv = {STRATA_CLI, "trace", "-o", trace};
  if (!capture.empty()) argv.insert(argv.end(), {"--capture", capture});
  argv.push_back("--");
  argv.insert(argv.end(), program.begin(), program.end());
  return RunProcess(argv);
}

long Number(const std::string& text, const std::string& pattern) {
  std::smatch m;
  if (!std::regex_search(text, m, std::regex(pattern))) return -1;
  return std::stol(m[1]);
}

double Decimal(const std::string& text, const std::string& pattern) {
  std::smatch m;
  if (!std::regex_search(text, m, std::regex(pattern))) return -1;
  return std::stod(m[1]);
}

class SampleAppReplay : public ::testing::TestWithParam<const char*> {};

// Framebuffers after every draw and at every swap: the replay draws each one alike.
TEST_P(SampleAppReplay, VerifiesEveryCapturedFramebuffer) {
  std::string app = GetParam(), trace = ScratchPath(app + "-verify.strace");
  ProcessResult traced = Trace(trace, {App(app), "--frames", "4"}, "swap,draw");
  ASSERT_EQ(traced.exit_code, 0) << traced.err;
  ProcessResult r = RunProcess({STRATA_CLI, "replay", "--verify", trace});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_GT(Number(r.out, R"(verify: all (\d+) framebuffers match)"), 4) << r.out;
  EXPECT_EQ(Number(r.out, R"(replayed \d+ calls, (\d+) frames)"), 4) << r.out;
  EXPECT_EQ(r.out.find("could not run"), std::string::npos) << r.out << r.err;
}

// Every extension alias of a draw that Mesa offers here (instanced,
// base-instance, base-vertex, multi-draw: glDrawArraysInstancedEXT,
// glDrawElementsBaseVertexOES, glMultiDrawArraysEXT, ...) drawing from
// client-memory vertex arrays and client-side indices, in a GLES 2 and a
// GLES 3 context (there also with indices in an element buffer, which the
// tracer maps to find the vertices they use): traced with
// a framebuffer after every draw, replayed with every call run and every
// framebuffer equal.
// Catches: an alias that does not share its core function's traits and
// capture rules (api/function_traits.txt), so that its client-side arrays or
// a multi-draw's index arrays are not recorded and the replay skips it ("an
// enabled client-side vertex array has no memory record ..."), or draws it
// from the wrong bytes.
class AliasDrawsReplay : public ::testing::TestWithParam<int> {};

TEST_P(AliasDrawsReplay, EveryDrawRunsAndEveryFramebufferMatches) {
  const std::string version = std::to_string(GetParam());
  const std::string trace = ScratchPath("alias-draws-gles" + version + ".strace");
  std::vector<std::string> program = {App("alias_draws_app"), "--gles", version, "--frames", "3"};
  if (GetParam() == 3) program.push_back("--element-buffer");
  ProcessResult native = RunProcess(program);
  ASSERT_EQ(native.exit_code, 0) << native.out << native.err;
  for (const char* alias : {"glDrawArraysInstancedEXT", "glDrawElementsInstancedEXT",
                            "glDrawArraysInstancedBaseInstanceEXT", "glDrawElementsInstancedBaseInstanceEXT",
                            "glDrawElementsInstancedBaseVertexBaseInstanceEXT", "glDrawElementsBaseVertexEXT",
                            "glDrawElementsBaseVertexOES", "glDrawRangeElementsBaseVertexEXT",
                            "glDrawRangeElementsBaseVertexOES", "glDrawElementsInstancedBaseVertexEXT",
                            "glDrawElementsInstancedBaseVertexOES", "glMultiDrawArraysEXT", "glMultiDrawElementsEXT",
                            "glMultiDrawElementsBaseVertexEXT"}) {
    EXPECT_NE(native.out.find(std::string("alias ") + alias + "\n"), std::string::npos)
        << "the driver no longer offers " << alias << "; the test draws through what it offers:\n" << native.out;
  }
  ProcessResult traced = Trace(trace, program, "swap,draw");
  ASSERT_EQ(traced.exit_code, 0) << traced.err;
  EXPECT_EQ(traced.out, native.out) << "traced, the app's frames differ from its native ones";
  ProcessResult r = RunProcess({STRATA_CLI, "replay", "--verify", "--strict", trace});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out.find("could not run"), std::string::npos) << r.out << r.err;
  EXPECT_EQ(r.err.find("no memory record"), std::string::npos) << r.err;
  // A framebuffer after each draw (16 a frame and more in GLES 3) and at each swap.
  EXPECT_GT(Number(r.out, R"(verify: all (\d+) framebuffers match)"), 3 * 16) << r.out << r.err;
}

INSTANTIATE_TEST_SUITE_P(Contexts, AliasDrawsReplay, ::testing::Values(2, 3),
                         [](const auto& info) { return "Gles" + std::to_string(info.param); });

// A draw reading one vertex array from a buffer and one from client memory,
// the buffer left bound to GL_ARRAY_BUFFER (tests/trace/mixed_arrays_app.cpp),
// replayed as a user replays it: binds run through the executor's generated
// handlers, and the replayed frame's pixel is the one the program read back.
// Catches: a handler that binds without the executor following the binding,
// so that the client array is put in place with the app's buffer bound and
// its pointer read as an offset into that buffer (a wrong colour, or none).
TEST(Replay, ClientArraysBesideABoundBufferDrawWhatTheProgramDrew) {
  const std::string trace = ScratchPath("mixed-arrays.strace"), dir = ScratchPath("mixed-arrays-snaps");
  const std::vector<std::string> program = {App("mixed_arrays_app"), "--frames", "3"};
  ProcessResult native = RunProcess(program);
  ASSERT_EQ(native.exit_code, 0) << native.out << native.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(native.out, m, std::regex(R"(frame 2: (\d+) (\d+) (\d+) (\d+))"))) << native.out;
  const std::vector<int> drawn = {std::stoi(m[1]), std::stoi(m[2]), std::stoi(m[3]), std::stoi(m[4])};
  ASSERT_NE(drawn, (std::vector<int>{0, 0, 0, 255})) << "the program drew nothing: " << native.out;
  ProcessResult traced = Trace(trace, program, "");
  ASSERT_EQ(traced.exit_code, 0) << traced.err;
  ASSERT_EQ(traced.out, native.out);
  for (const bool check : {true, false}) {
    SCOPED_TRACE(check ? "with the self-check" : "--no-check");
    std::vector<std::string> argv = {STRATA_CLI, "replay", "--snapshot", "2", "-o", dir, trace};
    if (!check) argv.insert(argv.begin() + 2, "--no-check");
    ProcessResult r = RunProcess(argv);
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_EQ(r.out.find("could not run"), std::string::npos) << r.out;
    strata::test::Image replayed;
    std::string error;
    ASSERT_TRUE(strata::test::ReadPng(dir + "/frame-000002.png", &replayed, &error)) << error << r.out;
    ASSERT_EQ(replayed.width, 32);
    ASSERT_EQ(replayed.height, 32);
    const uint8_t* pixel = &replayed.rgba[(16 * 32 + 16) * 4];
    EXPECT_EQ((std::vector<int>{pixel[0], pixel[1], pixel[2], pixel[3]}), drawn);
  }
}

// The replay's last frame, saved as PNG, equals the one the app saved itself.
TEST_P(SampleAppReplay, SnapshotEqualsTheProgramsOwnFrame) {
  std::string app = GetParam(), trace = ScratchPath(app + "-snap.strace");
  std::string own = ScratchPath(app + "-own.png"), dir = ScratchPath(app + "-snaps");
  ProcessResult traced = Trace(trace, {App(app), "--frames", "3", "--output", own}, "");
  ASSERT_EQ(traced.exit_code, 0) << traced.err;
  ProcessResult r = RunProcess({STRATA_CLI, "replay", "--snapshot", "2", "-o", dir, trace});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  strata::test::Image expected, replayed;
  std::string error;
  ASSERT_TRUE(strata::test::ReadPng(own, &expected, &error)) << error;
  ASSERT_TRUE(strata::test::ReadPng(dir + "/frame-000002.png", &replayed, &error)) << error << r.out;
  ASSERT_EQ(replayed.width, expected.width);
  ASSERT_EQ(replayed.height, expected.height);
  EXPECT_GT(strata::test::CountColours(replayed), 2) << "a blank frame";
  EXPECT_TRUE(replayed.rgba == expected.rgba) << "the replayed frame differs from the app's own";
}

INSTANTIATE_TEST_SUITE_P(Headless, SampleAppReplay, ::testing::Values("gles1_cube", "gles2_shaders", "gles3_instanced"),
                         [](const auto& info) { return std::string(info.param); });

// Four threads, two contexts sharing a texture: each recorded thread on a
// thread of its own, in recorded order.
TEST(Replay, ThreadsAndSharedContexts) {
  std::string trace = ScratchPath("threads.strace");
  ProcessResult traced = Trace(trace, {App("threaded_app"), "20"}, "swap");
  ASSERT_EQ(traced.exit_code, 0) << traced.err;
  ProcessResult r = RunProcess({STRATA_CLI, "replay", "--verify", trace});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  // 20 swaps on each of 3 rendering threads, and each thread's final frame.
  EXPECT_EQ(Number(r.out, R"(verify: all (\d+) framebuffers match)"), 63) << r.out;
}

// Changes one byte of the first captured image in a copy of the trace: the
// replay must report that frame and that pixel.
TEST(Replay, VerifyReportsTheFirstDifferingPixel) {
  std::string trace = ScratchPath("pixel.strace"), changed = ScratchPath("pixel-changed.strace");
  ASSERT_EQ(Trace(trace, {App("gles2_shaders"), "--frames", "2", "--size", "64x48"}, "swap").exit_code, 0);
  std::string error;
  auto in = strata::stream::TraceFileReader::Open(trace, &error);
  ASSERT_TRUE(in) << error;
  auto out = strata::stream::TraceFileWriter::Create(changed, in->header(), strata::stream::Compression::kLz4, &error);
  ASSERT_TRUE(out) << error;
  std::vector<uint8_t> records;
  strata::stream::ChunkInfo info;
  bool changed_one = false;
  while (in->NextChunk(&records, &info, &error)) {
    strata::stream::ByteReader walk(records);
    while (walk.remaining() > 0) {
      uint8_t type = walk.U8();
      uint64_t length = walk.Varint();
      size_t start = walk.offset();
      ASSERT_TRUE(walk.ok() && length <= walk.remaining());
      walk.Bytes(length);
      if (type == static_cast<uint8_t>(strata::stream::RecordType::kFramebuffer) && !changed_one) {
        // The pixels end the record: flip the red byte of the last pixel (top right).
        records[start + length - 4] ^= 0x80;
        changed_one = true;
      }
    }
    ASSERT_TRUE(out->WriteChunk(records, info, &error)) << error;
  }
  ASSERT_TRUE(error.empty()) << error;
  ASSERT_TRUE(out->Finish(&error)) << error;
  ASSERT_TRUE(changed_one);
  ProcessResult r = RunProcess({STRATA_CLI, "replay", "--verify", changed});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  // Two swaps and the final frame.
  EXPECT_NE(r.out.find("verify: 1 of 3 framebuffers differ:\n  frame 0, before call "), std::string::npos) << r.out;
  // One red channel off by 128 of 3072 * 4: PSNR 10 log10(255^2 / (128^2 / 12288)) = 46.88 dB.
  EXPECT_NE(r.out.find("1 of 3072 pixels differ (0.0326 %), largest channel difference 128, PSNR 46.88 dB, first at "
                       "x=63 y=47\n"),
            std::string::npos)
      << r.out;

  // Catches: a tolerance the replay does not apply, or applies without its PSNR test.
  ProcessResult tolerated = RunProcess({STRATA_CLI, "replay", "--verify", "--max-differing", "0.1", changed});
  EXPECT_EQ(tolerated.exit_code, 0) << tolerated.out << tolerated.err;
  EXPECT_NE(tolerated.out.find("verify: all 3 framebuffers match the trace within the tolerance (0.1 % of pixels may "
                               "differ)\nverify: 1 framebuffers not equal to the trace's (1 within the tolerance); the "
                               "furthest off: largest channel difference 128 (frame 0), 0.0326 % of pixels differ "
                               "(frame 0), PSNR 46.88 dB (frame 0)"),
            std::string::npos)
      << tolerated.out;
  ProcessResult by_psnr = RunProcess({STRATA_CLI, "replay", "--verify", "--min-psnr", "46.8", changed});
  EXPECT_EQ(by_psnr.exit_code, 0) << by_psnr.out << by_psnr.err;
  by_psnr = RunProcess({STRATA_CLI, "replay", "--verify", "--min-psnr", "47", "--max-differing", "0.1", changed});
  EXPECT_EQ(by_psnr.exit_code, 1) << by_psnr.out << by_psnr.err;
  EXPECT_NE(by_psnr.out.find("verify: 1 of 3 framebuffers differ past the tolerance (0.1 % of pixels may differ, PSNR "
                             "at least 47 dB):\n"),
            std::string::npos)
      << by_psnr.out;
}

// A call record again, from its decoded values, as the `run` of its chunk
// left off (the previous call of its thread in the chunk).
void EncodeCall(const strata::stream::DecodedCall& call, strata::stream::CallRun& run,
                strata::stream::ByteBuffer* out) {
  using strata::api::ArgKind;
  strata::stream::CallEncoder e(*out, run, call.slot, call.sequence, call.context, call.flags);
  auto blob = [&](bool present, std::span<const uint8_t> bytes) {
    if (present) {
      e.Blob(bytes.data(), bytes.size());
    } else {
      e.Absent();
    }
  };
  auto scalar = [&](const strata::stream::DecodedValue& v) {
    switch (v.kind) {
      case ArgKind::kInt: e.Signed(v.i); break;
      case ArgKind::kFloat: e.Float(static_cast<float>(v.f)); break;
      case ArgKind::kDouble: e.Double(v.f); break;
      default: e.Unsigned(v.u);
    }
  };
  for (const auto& v : call.args) {
    scalar(v);
    if (strata::stream::IsDataPointer(v.kind)) blob(v.has_in, v.in);
  }
  e.Times(call.start_ns, call.start_ns + call.duration_ns);
  if (call.has_reply && call.result.kind == ArgKind::kString) {
    blob(call.result.has_out, call.result.out);
  } else if (call.has_reply && call.result.kind != ArgKind::kVoid) {
    scalar(call.result);
  }
  for (const auto& v : call.args) {
    if (call.has_reply && strata::stream::IsDataPointer(v.kind)) blob(v.has_out, v.out);
  }
  e.End();
}

// Copies `trace` to `changed`, letting `change` alter decoded calls (it
// returns true for a call it changed, which is then encoded again); returns
// how many it changed.
int RewriteCalls(const std::string& trace, const std::string& changed,
                 const std::function<bool(strata::stream::DecodedCall&)>& change) {
  namespace stream = strata::stream;
  std::string error;
  auto in = stream::TraceFileReader::Open(trace, &error);
  EXPECT_TRUE(in) << error;
  if (!in) return 0;
  stream::FunctionTable functions;
  EXPECT_TRUE(stream::LoadFunctionTable(in->header(), trace, &functions, &error)) << error;
  auto out = stream::TraceFileWriter::Create(changed, in->header(), stream::Compression::kLz4, &error);
  EXPECT_TRUE(out) << error;
  if (!out) return 0;
  stream::CallDecoder decoder(functions);
  std::vector<uint8_t> records;
  stream::ChunkInfo info;
  uint64_t chunk = 0;
  int changes = 0;
  while (in->NextChunk(&records, &info, &error)) {
    ++chunk;
    stream::ByteBuffer rewritten;
    stream::CallRun run;
    stream::ByteReader walk(records);
    while (walk.remaining() > 0) {
      const size_t record_start = walk.offset();
      uint8_t type = walk.U8();
      uint64_t length = walk.Varint();
      EXPECT_TRUE(walk.ok() && length <= walk.remaining());
      if (!walk.ok() || length > walk.remaining()) return changes;
      std::span<const uint8_t> payload = walk.Bytes(length);
      const size_t record_end = walk.offset();
      stream::DecodedCall call;
      const bool is_call = type == static_cast<uint8_t>(stream::RecordType::kCall);
      if (is_call) {
        EXPECT_TRUE(decoder.Decode(payload, info.thread_id, chunk, &call, &error)) << error;
      }
      if (is_call && change(call)) {
        EXPECT_EQ(call.function_id, static_cast<uint64_t>(call.slot));
        EncodeCall(call, run, &rewritten);
        ++changes;
      } else {
        uint8_t* o = rewritten.Reserve(record_end - record_start);
        std::memcpy(o, records.data() + record_start, record_end - record_start);
        rewritten.size += record_end - record_start;
      }
      if (is_call) {
        // Where the chunk's next call is encoded from.
        run.calls = 1;
        run.last_sequence = call.sequence;
        run.last_start_ns = call.start_ns;
      }
    }
    EXPECT_TRUE(out->WriteChunk(rewritten.bytes(), info, &error)) << error;
  }
  EXPECT_TRUE(error.empty()) << error;
  EXPECT_TRUE(out->Finish(&error)) << error;
  return changes;
}

// A call record whose last byte is changed to say "more follows": its
// duration, the record's last field, runs past the record's end. glClear has
// a generated handler (host/fast_call.h), which finds the record malformed
// before the driver sees the call; the replay stops there with the decoder's
// error naming the function and the byte, with the self-check and without
// (with it, glClear still runs through its handler: it gives nothing back).
TEST(Replay, AHandledCallCutShortIsOneClearError) {
  namespace stream = strata::stream;
  std::string trace = ScratchPath("cut-call.strace"), changed = ScratchPath("cut-call-changed.strace");
  ASSERT_EQ(Trace(trace, {App("gles2_shaders"), "--frames", "3"}, "").exit_code, 0);
  std::string error;
  auto in = stream::TraceFileReader::Open(trace, &error);
  ASSERT_TRUE(in) << error;
  stream::FunctionTable functions;
  ASSERT_TRUE(stream::LoadFunctionTable(in->header(), trace, &functions, &error)) << error;
  auto out = stream::TraceFileWriter::Create(changed, in->header(), stream::Compression::kLz4, &error);
  ASSERT_TRUE(out) << error;
  std::vector<uint8_t> records;
  stream::ChunkInfo info;
  int clears = 0;
  while (in->NextChunk(&records, &info, &error)) {
    stream::ByteReader walk(records);
    while (walk.remaining() > 0) {
      const uint8_t type = walk.U8();
      const uint64_t length = walk.Varint();
      const size_t start = walk.offset();
      ASSERT_TRUE(walk.ok() && length <= walk.remaining());
      stream::ByteReader call(walk.Bytes(length));
      if (type != static_cast<uint8_t>(stream::RecordType::kCall)) continue;
      // The second glClear: the first frame's calls have run by then.
      if (functions.NameOf(call.Varint()) == "glClear" && ++clears == 2) records[start + length - 1] |= 0x80;
    }
    ASSERT_TRUE(out->WriteChunk(records, info, &error)) << error;
  }
  ASSERT_TRUE(error.empty()) << error;
  ASSERT_TRUE(out->Finish(&error)) << error;
  ASSERT_GE(clears, 2);
  for (const char* check : {"--no-check", "--verify"}) {
    ProcessResult r = RunProcess({STRATA_CLI, "replay", check, changed});
    EXPECT_NE(r.exit_code, 0) << check << "\n" << r.out << r.err;
    EXPECT_NE(r.err.find("malformed call record for glClear (at byte "), std::string::npos) << check << "\n" << r.err;
    EXPECT_EQ(r.err.find("malformed"), r.err.rfind("malformed")) << "one error, said once\n" << r.err;
  }
}

// A glTexImage2D whose width grew by one after tracing: its pixels are a row
// short of what its arguments say the driver reads. The replay refuses that
// call, says why, and replays the rest.
TEST(Replay, RefusesABlobShorterThanItsArguments) {
  std::string trace = ScratchPath("short.strace"), changed = ScratchPath("short-changed.strace");
  ASSERT_EQ(Trace(trace, {App("gles2_shaders"), "--frames", "2"}, "").exit_code, 0);
  bool changed_one = false;
  RewriteCalls(trace, changed, [&](strata::stream::DecodedCall& call) {
    if (call.name != "glTexImage2D" || !call.args[8].has_in || changed_one) return false;
    call.args[3].i += 1;  // width
    return changed_one = true;
  });
  ASSERT_TRUE(changed_one);
  ProcessResult r = RunProcess({STRATA_CLI, "replay", changed});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("glTexImage2D: 1 call not run ('pixels' holds "), std::string::npos) << r.out << r.err;
  EXPECT_NE(r.err.find("its arguments need"), std::string::npos) << r.err;
  EXPECT_EQ(Number(r.out, R"(replayed \d+ calls, (\d+) frames)"), 2) << r.out;
}

// The same for an array a generated handler reads from its record
// (glUniformMatrix4fv's matrices, host/fast_call.h): a count grown by one
// after tracing asks for a matrix more than the record holds. The handler
// leaves the call to Execute, which refuses it and says why; the replay goes
// on. Catches: a handler that hands the driver a blob it did not size.
TEST(Replay, RefusesAUniformArrayShorterThanItsCount) {
  std::string trace = ScratchPath("short-uniform.strace"), changed = ScratchPath("short-uniform-changed.strace");
  ASSERT_EQ(Trace(trace, {App("gles2_shaders"), "--frames", "2"}, "").exit_code, 0);
  int changed_calls = 0;
  RewriteCalls(trace, changed, [&](strata::stream::DecodedCall& call) {
    if (call.name != "glUniformMatrix4fv" || changed_calls == 1) return false;
    call.args[1].i += 1;  // count
    return ++changed_calls == 1;
  });
  ASSERT_EQ(changed_calls, 1);
  // With the self-check (calls that give something back compared) and without.
  for (const char* check : {"--no-check", ""}) {
    std::vector<std::string> argv = {STRATA_CLI, "replay", changed};
    if (*check != '\0') argv.insert(argv.begin() + 2, check);
    ProcessResult r = RunProcess(argv);
    EXPECT_EQ(r.exit_code, 0) << check << "\n" << r.out << r.err;
    EXPECT_NE(r.err.find("glUniformMatrix4fv: 1 call not run ('value' holds 64 bytes, its arguments need 128)"),
              std::string::npos)
        << check << "\n" << r.out << r.err;
    EXPECT_EQ(Number(r.out, R"(replayed \d+ calls, (\d+) frames)"), 2) << check << "\n" << r.out;
  }
}

// A range draw runs as the same draw without its range (its start and end
// only promise where its indices lie, and llvmpipe reads vertices by the
// promise: fuzz/regressions/executor/range-draw-indices-outside-its-range
// broke it). The instanced draws of gles3_instanced become glDrawElements in
// one copy, glDrawRangeElements over [0, 65535] in another and over
// [65535, 65535], which excludes every index, in a third: all three replay
// the same frame, not a blank one.
// Catches: a range draw run with its arguments out of place, or not at all.
TEST(Replay, RangeDrawsDrawAsTheSameDrawsWithoutTheirRange) {
  namespace api = strata::api;
  const std::string trace = ScratchPath("range.strace");
  ASSERT_EQ(Trace(trace, {App("gles3_instanced"), "--frames", "2"}, "").exit_code, 0);
  std::vector<std::vector<uint8_t>> frames;
  for (int64_t start : {-1, 0, 65535}) {  // -1: glDrawElements
    const std::string changed = ScratchPath("range-" + std::to_string(start) + ".strace");
    const std::string dir = ScratchPath("range-" + std::to_string(start));
    int draws = 0;
    RewriteCalls(trace, changed, [&](strata::stream::DecodedCall& call) {
      if (call.name != "glDrawElementsInstanced") return false;
      const std::vector<strata::stream::DecodedValue> args = call.args;  // mode, count, type, indices, instances
      if (start < 0) {
        call.slot = api::glDrawElements;
        call.args = {args[0], args[1], args[2], args[3]};
      } else {
        strata::stream::DecodedValue first, last;
        first.kind = last.kind = api::ArgKind::kUInt;
        first.u = static_cast<uint64_t>(start);
        last.u = 65535;
        call.slot = api::glDrawRangeElements;
        call.args = {args[0], first, last, args[1], args[2], args[3]};
      }
      call.function_id = static_cast<uint64_t>(call.slot);
      return ++draws > 0;
    });
    ASSERT_GE(draws, 2);
    ProcessResult r = RunProcess({STRATA_CLI, "replay", "--snapshot", "1", "-o", dir, changed});
    ASSERT_EQ(r.exit_code, 0) << start << "\n" << r.out << r.err;
    EXPECT_EQ(r.err.find("not run"), std::string::npos) << start << "\n" << r.err;
    strata::test::Image image;
    std::string error;
    ASSERT_TRUE(strata::test::ReadPng(dir + "/frame-000001.png", &image, &error)) << error << r.out;
    EXPECT_GT(strata::test::CountColours(image), 2) << start << ": a blank frame";
    frames.push_back(image.rgba);
  }
  EXPECT_TRUE(frames[0] == frames[1]) << "a range draw drew otherwise than the same glDrawElements";
  EXPECT_TRUE(frames[0] == frames[2]) << "a range draw with a broken range drew otherwise than the same glDrawElements";
}

// A call that passes a file descriptor of the traced process
// (glImportMemoryFdEXT) is not run: on the host the number names another
// file, here the replay's own standard output, which the driver would take
// over and close. The replay says why and goes on, its output intact.
// Catches: fd parameters handed to the driver (the generated handlers or Execute).
TEST(Replay, RefusesAFileDescriptorOfTheTracedProcess) {
  namespace api = strata::api;
  std::string trace = ScratchPath("fd.strace"), changed = ScratchPath("fd-changed.strace");
  ASSERT_EQ(Trace(trace, {App("gles3_instanced"), "--frames", "2"}, "").exit_code, 0);
  bool changed_one = false;
  RewriteCalls(trace, changed, [&](strata::stream::DecodedCall& call) {
    if (changed_one || call.name != "glClear") return false;
    strata::stream::DecodedValue memory, size, handle_type, fd;
    memory.kind = api::ArgKind::kUInt;
    memory.u = 1;
    size.kind = api::ArgKind::kUInt;
    size.u = 4096;
    handle_type.kind = api::ArgKind::kEnum;
    handle_type.u = 0x9586;  // GL_HANDLE_TYPE_OPAQUE_FD_EXT
    fd.kind = api::ArgKind::kInt;
    fd.i = 1;  // the replay's standard output
    call.slot = api::glImportMemoryFdEXT;
    call.function_id = api::glImportMemoryFdEXT;
    call.args = {memory, size, handle_type, fd};
    return changed_one = true;
  });
  ASSERT_TRUE(changed_one);
  for (const char* check : {"--no-check", "--strict"}) {
    ProcessResult r = RunProcess({STRATA_CLI, "replay", check, changed});
    EXPECT_NE(r.err.find("glImportMemoryFdEXT: 1 call not run (it passes code, memory or a file descriptor of the "
                         "traced process)"),
              std::string::npos)
        << check << "\n" << r.out << r.err;
    EXPECT_EQ(Number(r.out, R"(replayed \d+ calls, (\d+) frames)"), 2) << check << "\n" << r.out << r.err;
  }
}

// A pbuffer wider than the host renders (a damaged or hostile stream:
// 5,308,736 pixels): llvmpipe makes it, and its rasterizer then writes past
// its tiles at the first draw. The replay refuses the surface, says why,
// and ends without a crash (fuzz/regressions/renderer/pbuffer-wider-than-the-host-renders).
// Catches: surface sizes handed to the driver unchecked.
TEST(Replay, RefusesAPbufferWiderThanTheHostRenders) {
  std::string trace = ScratchPath("wide.strace"), changed = ScratchPath("wide-changed.strace");
  ASSERT_EQ(Trace(trace, {App("gles3_instanced"), "--frames", "2"}, "").exit_code, 0);
  std::vector<uint8_t> attribs;
  bool changed_one = false;
  RewriteCalls(trace, changed, [&](strata::stream::DecodedCall& call) {
    if (changed_one || call.name != "eglCreatePbufferSurface" || !call.args[2].has_in) return false;
    attribs.assign(call.args[2].in.begin(), call.args[2].in.end());
    for (size_t i = 0; i + 8 <= attribs.size(); i += 8) {
      int32_t pair[2];
      std::memcpy(pair, attribs.data() + i, sizeof pair);
      if (pair[0] != 0x3057) continue;  // EGL_WIDTH
      pair[1] = 5308736;
      std::memcpy(attribs.data() + i, pair, sizeof pair);
      call.args[2].in = attribs;
      return changed_one = true;
    }
    return false;
  });
  ASSERT_TRUE(changed_one);
  ProcessResult r = RunProcess({STRATA_CLI, "replay", "--no-check", changed});
  EXPECT_EQ(r.signal, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("eglCreatePbufferSurface: 1 call not run (its size 5308736x"), std::string::npos)
      << r.out << r.err;
  EXPECT_NE(r.err.find("is past the host's largest surface"), std::string::npos) << r.err;
}

// A vertex array object the replay found reading only from buffers, then
// pointed at app memory the trace never holds (a rewritten call, as a
// damaged or hostile stream would): every later draw with it is refused,
// not handed to a driver that would read the traced process's address.
// Catches: a replay that remembers checked vertex array objects without
// forgetting them when an array's pointer changes.
TEST(Replay, RefusesDrawsFromAnArrayRepointedAfterItWasChecked) {
  namespace api = strata::api;
  std::string trace = ScratchPath("repointed.strace"), changed = ScratchPath("repointed-changed.strace");
  ASSERT_EQ(Trace(trace, {App("gles3_instanced"), "--frames", "4"}, "").exit_code, 0);
  bool after_first_draw = false, changed_one = false;
  RewriteCalls(trace, changed, [&](strata::stream::DecodedCall& call) {
    if (call.name == "glDrawElementsInstanced") after_first_draw = true;
    // The glBindVertexArray(0) after frame 0's draw: the object is still bound.
    if (!after_first_draw || changed_one || call.name != "glBindVertexArray" || call.args[0].u != 0) return false;
    strata::stream::DecodedValue index, size, type, normalized, stride, pointer;
    index.kind = api::ArgKind::kUInt;
    size.kind = stride.kind = api::ArgKind::kInt;
    size.i = 3;
    stride.i = 24;
    type.kind = api::ArgKind::kEnum;
    type.u = 0x1406;  // GL_FLOAT
    normalized.kind = api::ArgKind::kBoolean;
    pointer.kind = api::ArgKind::kPointer;
    pointer.u = 0x10;  // no array buffer is bound: an address in the traced process
    call.slot = api::glVertexAttribPointer;
    call.function_id = api::glVertexAttribPointer;
    call.args = {index, size, type, normalized, stride, pointer};
    return changed_one = true;
  });
  ASSERT_TRUE(changed_one);
  ProcessResult r = RunProcess({STRATA_CLI, "replay", "--no-check", changed});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("glDrawElementsInstanced: 3 calls not run (an enabled client-side vertex array has no "
                       "memory record"),
            std::string::npos)
      << r.out << r.err;
  EXPECT_EQ(Number(r.out, R"(replayed \d+ calls, (\d+) frames)"), 4) << r.out;
}

// A driver that gave other uniform locations than this one (as NVIDIA's and
// Mesa's do): the trace is rewritten so that every location glGetUniformLocation
// answered, and every glUniform* that uses it, is 100 more. The replay maps
// them back per program and draws the same frames.
// Catches: locations passed through as recorded, mapped with another
// program's table, or with the table of a program the executor did not see
// bound (a glUseProgram run by a generated handler and not followed).
TEST(Replay, UniformLocationsOfAnotherDriverAreMappedPerProgram) {
  std::string trace = ScratchPath("locations.strace"), changed = ScratchPath("locations-changed.strace");
  ASSERT_EQ(Trace(trace, {App("gles2_shaders"), "--frames", "3"}, "").exit_code, 0);
  int locations = 0, uniforms = 0;
  RewriteCalls(trace, changed, [&](strata::stream::DecodedCall& call) {
    if (call.name == "glGetUniformLocation" && call.has_reply && call.result.i >= 0) {
      call.result.i += 100;
      return ++locations > 0;
    }
    if (call.name.starts_with("glUniform") && !call.args.empty() && call.args[0].i >= 0) {
      call.args[0].i += 100;
      return ++uniforms > 0;
    }
    return false;
  });
  ASSERT_GT(locations, 3) << "gles2_shaders asks for its uniforms' locations";
  ASSERT_GT(uniforms, 10) << "and sets them every frame";
  ProcessResult r = RunProcess({STRATA_CLI, "replay", "--verify", changed});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("framebuffers match the trace"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("GL_INVALID_OPERATION"), std::string::npos) << "a location the host never gave\n" << r.out;
}

// A program deleted and rebuilt under its freed name (as drivers that hand
// names back give it) with its tint at another location, on a driver whose
// locations differ from this one's: reloaded_program_app's trace with the
// second program renamed to the first's name and every location 100 more.
// The replay maps the second program's locations with the second program's
// table and draws the same frames.
// Catches: a context keeping the location table it found for a program
// name after the share group's tables changed (ForgetLocationTables not run
// when a program's table is erased or made), which maps the rebuilt
// program's locations with the deleted one's, or as recorded.
TEST(Replay, AProgramRebuiltUnderItsDeletedNameMapsItsOwnLocations) {
  std::string trace = ScratchPath("reloaded.strace"), changed = ScratchPath("reloaded-changed.strace");
  ProcessResult traced = Trace(trace, {App("reloaded_program_app"), "6"}, "swap");
  ASSERT_EQ(traced.exit_code, 0) << traced.out << traced.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(traced.out, m, std::regex(R"(program (\d+) reloaded as (\d+); tint at (\d+), then at (\d+))")))
      << traced.out;
  const uint64_t first = std::stoull(m[1]), second = std::stoull(m[2]);
  ASSERT_NE(m[3], m[4]) << "the rebuilt program's tint must move for a stale table to map it wrongly";
  namespace api = strata::api;
  int renamed = 0, locations = 0;
  RewriteCalls(trace, changed, [&](strata::stream::DecodedCall& call) {
    bool changed_call = false;
    const api::ReplayFunction& replay = api::kReplay[call.slot];
    if (replay.result == api::ObjectClass::kProgram && call.result.u == second) {
      call.result.u = first;
      changed_call = true;
      ++renamed;
    }
    for (size_t i = 0; i < call.args.size(); ++i) {
      if (replay.params[i].object == api::ObjectClass::kProgram && call.args[i].u == second) {
        call.args[i].u = first;
        changed_call = true;
        ++renamed;
      }
    }
    if (call.name == "glGetUniformLocation" && call.has_reply && call.result.i >= 0) {
      call.result.i += 100;
      changed_call = true;
      ++locations;
    } else if (call.name.starts_with("glUniform") && call.args[0].i >= 0) {
      call.args[0].i += 100;
      changed_call = true;
    }
    return changed_call;
  });
  ASSERT_GT(renamed, 4) << "the second program is made, linked, asked and bound under its own name";
  ASSERT_EQ(locations, 3) << "one location of the first program, two of the second";
  ProcessResult r = RunProcess({STRATA_CLI, "replay", "--verify", changed});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_GE(Number(r.out, R"(verify: all (\d+) framebuffers match)"), 6) << r.out << r.err;
  EXPECT_EQ(r.out.find("GL_INVALID_OPERATION"), std::string::npos) << "a location the host never gave\n" << r.out;
}

// A call that fails on the host where the app's did not: the self-check names
// it (the app's glGetError and the tracer's at the frame's end said no error),
// --strict makes it exit 1, and the replay still runs to the end.
// Catches: replay that ignores GL errors, a self-check that compares nothing,
// --strict that does not change the exit status.
TEST(Replay, SelfCheckNamesACallThatFailsOnlyOnReplay) {
  std::string trace = ScratchPath("check.strace"), changed = ScratchPath("check-changed.strace");
  ASSERT_EQ(Trace(trace, {App("gles2_shaders"), "--frames", "2"}, "").exit_code, 0);
  ProcessResult clean = RunProcess({STRATA_CLI, "replay", "--strict", trace});
  EXPECT_EQ(clean.exit_code, 0) << clean.out << clean.err;
  EXPECT_GT(Number(clean.out, R"(check: (\d+) calls compared with the recording, all agree)"), 10) << clean.out;
  uint64_t enable = 0;
  RewriteCalls(trace, changed, [&](strata::stream::DecodedCall& call) {
    if (call.name != "glEnable" || enable != 0) return false;
    call.args[0].u = 0x0BAD;  // no such capability: GL_INVALID_ENUM on the host
    enable = call.sequence;
    return true;
  });
  ASSERT_NE(enable, 0u) << "gles2_shaders calls glEnable";
  ProcessResult r = RunProcess({STRATA_CLI, "replay", changed});
  EXPECT_EQ(r.exit_code, 0) << "without --strict a difference is reported, not fatal\n" << r.out << r.err;
  EXPECT_EQ(Number(r.out, R"(check: (\d+) of \d+ compared calls differ)"), 1) << r.out;
  // By default calls that give nothing back run unseen: the error is named by the calls since the
  // last one seen, a range that holds the glEnable; --check-each-call names it alone.
  std::smatch range;
  ASSERT_TRUE(std::regex_search(r.out, range, std::regex(R"(calls? (\d+)(?:-(\d+))?[^\n]*: recorded no GL error)")))
      << r.out;
  EXPECT_LE(std::stoull(range[1]), enable) << r.out;
  EXPECT_GE(std::stoull(range[2].matched ? range[2].str() : range[1].str()), enable) << r.out;
  EXPECT_NE(r.out.find("replayed GL_INVALID_ENUM"), std::string::npos) << r.out;
  ProcessResult each = RunProcess({STRATA_CLI, "replay", "--check-each-call", changed});
  EXPECT_EQ(each.exit_code, 0) << each.out << each.err;
  EXPECT_NE(each.out.find("call " + std::to_string(enable) + " glEnable: recorded no GL error"), std::string::npos)
      << each.out;
  EXPECT_EQ(RunProcess({STRATA_CLI, "replay", "--check-each-call", "--no-check", changed}).exit_code, 2);
  EXPECT_EQ(Number(r.out, R"(replayed \d+ calls, (\d+) frames)"), 2) << r.out;
  ProcessResult strict = RunProcess({STRATA_CLI, "replay", "--strict", changed});
  EXPECT_EQ(strict.exit_code, 1) << strict.out << strict.err;
  ProcessResult unchecked = RunProcess({STRATA_CLI, "replay", "--no-check", changed});
  EXPECT_EQ(unchecked.exit_code, 0) << unchecked.out << unchecked.err;
  EXPECT_EQ(unchecked.out.find("check:"), std::string::npos) << unchecked.out;
}

// An eglGetDisplay that found no display when traced (piglit's X11 tests on
// a machine without an X server) fails on replay too, although the replay's
// own display opens: the self-check finds every call agreeing.
// Catches: a display stand-in that turns the recorded failure into a success
// (the self-check names it, and --strict exits 1).
TEST(Replay, ADisplayTheAppCouldNotOpenDoesNotOpenOnReplay) {
  std::string trace = ScratchPath("no-display.strace"), changed = ScratchPath("no-display-changed.strace");
  ASSERT_EQ(Trace(trace, {App("gles2_shaders"), "--frames", "1"}, "").exit_code, 0);
  std::string function;
  const int changes = RewriteCalls(trace, changed, [&](strata::stream::DecodedCall& call) {
    if (!function.empty() || call.name.rfind("eglGet", 0) != 0 || call.name.find("Display") == std::string::npos ||
        call.name == "eglGetCurrentDisplay") {
      return false;
    }
    function = std::string(call.name);
    call.result.u = 0;  // EGL_NO_DISPLAY
    return true;
  });
  ASSERT_EQ(changes, 1) << "gles2_shaders opens a display";
  ProcessResult r = RunProcess({STRATA_CLI, "replay", "--strict", "--check-each-call", changed});
  EXPECT_EQ(r.exit_code, 0) << function << "\n" << r.out << r.err;
  EXPECT_GT(Number(r.out, R"(check: (\d+) calls compared with the recording, all agree)"), 10) << r.out;
}

// A recorded answer the host does not give: a compile status turned to 0 in
// the trace is reported with both values.
// Catches: a self-check that compares outputs with themselves or not at all.
TEST(Replay, SelfCheckComparesRecordedAnswers) {
  std::string trace = ScratchPath("answers.strace"), changed = ScratchPath("answers-changed.strace");
  ASSERT_EQ(Trace(trace, {App("gles2_shaders"), "--frames", "1"}, "").exit_code, 0);
  uint64_t status = 0;
  RewriteCalls(trace, changed, [&](strata::stream::DecodedCall& call) {
    if (call.name != "glGetShaderiv" || call.args[1].u != 0x8B81 /* GL_COMPILE_STATUS */ || status != 0) return false;
    if (!call.args[2].has_out || call.args[2].out.size() != 4) return false;
    static const uint8_t kFailed[4] = {0, 0, 0, 0};
    call.args[2].out = kFailed;
    status = call.sequence;
    return true;
  });
  ASSERT_NE(status, 0u) << "gles2_shaders asks for its shaders' compile status";
  ProcessResult r = RunProcess({STRATA_CLI, "replay", "--strict", changed});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("call " + std::to_string(status) + " glGetShaderiv(GL_COMPILE_STATUS): recorded {0}, replayed {1}"),
            std::string::npos)
      << r.out;
}

// Without --capture the trace still holds one image: the final frame, read
// when the app gave its context up. It is the app's own last frame (compared
// with the PNG the app wrote itself), and --verify compares the replay with it.
// Catches: no final frame, a final frame of the wrong framebuffer or empty
// pixels, --capture none that still captures.
TEST(Replay, FinalFrameIsTheAppsLastFrame) {
  std::string trace = ScratchPath("final.strace"), own = ScratchPath("final-own.png");
  ASSERT_EQ(Trace(trace, {App("gles2_shaders"), "--frames", "3", "--output", own}, "").exit_code, 0);
  strata::test::Image expected;
  std::string error;
  ASSERT_TRUE(strata::test::ReadPng(own, &expected, &error)) << error;
  auto reader = strata::stream::RecordReader::Open(trace, &error);
  ASSERT_TRUE(reader) << error;
  int images = 0;
  strata::stream::Record record;
  while (reader->Next(&record)) {
    if (record.type != strata::stream::RecordType::kFramebuffer) continue;
    ++images;
    strata::stream::FramebufferImage image;
    std::vector<uint8_t> rgba;  // a BGRA8 capture as RGBA8
    ASSERT_TRUE(strata::stream::DecodeFramebufferAsRgba(record.payload, &image, &rgba));
    EXPECT_TRUE(image.final_frame);
    EXPECT_EQ(image.framebuffer, 0u);
    ASSERT_EQ(image.width, static_cast<uint64_t>(expected.width));
    ASSERT_EQ(image.height, static_cast<uint64_t>(expected.height));
    // The record is bottom row first, the PNG top row first.
    const size_t row = image.width * 4;
    bool same = true;
    for (uint64_t y = 0; y < image.height && same; ++y) {
      same = std::memcmp(image.pixels.data() + y * row, expected.rgba.data() + (image.height - 1 - y) * row, row) == 0;
    }
    EXPECT_TRUE(same) << "the final frame is not the app's last frame";
  }
  EXPECT_EQ(images, 1);
  ProcessResult r = RunProcess({STRATA_CLI, "replay", "--verify", "--strict", trace});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("verify: all 1 framebuffers match the trace"), std::string::npos) << r.out;

  std::string none = ScratchPath("final-none.strace");
  ASSERT_EQ(Trace(none, {App("gles2_shaders"), "--frames", "3"}, "none").exit_code, 0);
  r = RunProcess({STRATA_CLI, "replay", "--verify", none});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("holds no framebuffer images"), std::string::npos) << r.err;
}

// An app that leaves a GL error unasked at a swap: the tracer records it at the
// frame's end and gives it back, so the app still sees it (it fails
// otherwise), and the replay, which meets the same error, agrees.
// Catches: a tracer that swallows the app's error, a replay that flags errors the app met too.
TEST(Replay, AnErrorLeftAtASwapReachesTheAppAndTheReplay) {
  ASSERT_EQ(RunProcess({App("gles2_shaders"), "--frames", "2", "--error-at-swap"}).exit_code, 0);
  std::string trace = ScratchPath("error-at-swap.strace");
  ProcessResult traced = Trace(trace, {App("gles2_shaders"), "--frames", "2", "--error-at-swap"}, "");
  ASSERT_EQ(traced.exit_code, 0) << traced.err;
  ProcessResult dump = RunProcess({STRATA_CLI, "dump", trace});
  EXPECT_NE(dump.out.find("GL error GL_INVALID_ENUM pending at the frame's end"), std::string::npos) << dump.out;
  ProcessResult r = RunProcess({STRATA_CLI, "replay", "--strict", trace});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("all agree"), std::string::npos) << r.out;
}

TEST(Replay, BenchmarkAndLoops) {
  std::string trace = ScratchPath("bench.strace");
  ASSERT_EQ(Trace(trace, {App("gles2_shaders"), "--frames", "10"}, "").exit_code, 0);
  ProcessResult r = RunProcess({STRATA_CLI, "replay", "--benchmark", "--loop", "3", trace});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("(median of 3 loops)"), std::string::npos) << r.out;
  EXPECT_GT(Number(r.out, R"(replay: [0-9.]+ s, (\d+)\.\d fps)"), 0) << r.out;
  EXPECT_NE(r.out.find("original run:"), std::string::npos) << r.out;
  // The steady rate: 9 frames after the first, against the recording's same span.
  EXPECT_GT(Number(r.out, R"(frames after the first \(no setup\): replay [0-9.]+ s, (\d+)\.\d fps; original)"), 0)
      << r.out;
  const double replay_seconds = Decimal(r.out, R"(frames after the first \(no setup\): replay ([0-9.]+) s)");
  const double original_seconds = Decimal(r.out, R"(; original ([0-9.]+) s)");
  const double fps = Decimal(r.out, R"(frames after the first \(no setup\): replay [0-9.]+ s, ([0-9.]+) fps)");
  EXPECT_NEAR(fps * replay_seconds / 9.0, 1.0, 0.1) << r.out;  // printed rounded
  EXPECT_GT(original_seconds, 0) << r.out;
  // The first frame (setup, compiles) is left out of the span.
  EXPECT_LT(original_seconds, Decimal(r.out, R"(original run: ([0-9.]+) s)")) << r.out;
}

// The loops after the first run from the records the first one read, kept in
// memory: the whole trace, a frame range, and a trace cut short each replay
// the same calls in every loop as in one.
// Catches: a later loop that loses records or stops early (fewer calls, a
// frame range cut short), that still reads the file, or that forgets the cut
// trace's warning.
TEST(Replay, LoopsAfterTheFirstRunFromMemory) {
  const std::string trace = ScratchPath("loops.strace"), cut = ScratchPath("loops-cut.strace");
  ASSERT_EQ(Trace(trace, {App("gles2_shaders"), "--frames", "6"}, "").exit_code, 0);
  {
    std::ifstream in(trace, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() - bytes.size() / 3);
  }
  for (const std::vector<std::string>& extra :
       std::vector<std::vector<std::string>>{{trace}, {"--frames", "2-4", trace}, {cut}}) {
    SCOPED_TRACE(extra.back() + (extra.size() > 1 ? " " + extra[1] : ""));
    std::vector<std::string> once = {STRATA_CLI, "replay", "--benchmark", "--from-file"};
    once.insert(once.end(), extra.begin(), extra.end());
    std::vector<std::string> looped = once;
    looped.insert(looped.begin() + 3, {"--loop", "3"});
    ProcessResult one = RunProcess(once), three = RunProcess(looped);
    ASSERT_EQ(one.exit_code, 0) << one.out << one.err;
    ASSERT_EQ(three.exit_code, 0) << three.out << three.err;
    EXPECT_NE(three.out.find("loops after the first ran from memory ("), std::string::npos) << three.out;
    const long calls = Number(one.out, R"(replayed (\d+) calls)");
    EXPECT_GT(calls, 50) << one.out;
    EXPECT_EQ(Number(three.out, R"(replayed (\d+) calls)"), calls) << three.out;
    EXPECT_EQ(one.err.find("warning") != std::string::npos, extra.back() == cut) << one.err;
    EXPECT_EQ(three.err.find("warning") != std::string::npos, extra.back() == cut) << three.err;
    if (extra.size() > 1) {
      EXPECT_NE(three.out.find("3 frames in the range"), std::string::npos) << three.out;
    }
  }
  for (const std::string& path : {trace, cut}) std::filesystem::remove(path);
}

// The loops after the first run their calls with scalar arguments from their
// decoded form, a run of them at a time: every loop draws every framebuffer
// the trace captured. threaded_app's runs stop short where a draw reads a
// client-side array and where a thread runs on a host thread of its own: the
// rest of such a run goes on from its records.
// Catches: a decoded call that runs with other arguments than its record's
// (a float read as an integer, a name not mapped, a word skipped), or that
// loses the executor's bindings; a run cut short that drops or repeats calls
// or leaves the decoder behind; a later loop that is not verified.
TEST(Replay, LoopsFromDecodedCallsDrawWhatTheTraceDrew) {
  for (const std::vector<std::string>& program :
       {std::vector<std::string>{App("gles2_shaders"), "--frames", "4"}, std::vector<std::string>{App("threaded_app"), "6"}}) {
    SCOPED_TRACE(program.front());
    const std::string trace = ScratchPath("decoded-loops.strace");
    ASSERT_EQ(Trace(trace, program, "swap").exit_code, 0);
    ProcessResult one = RunProcess({STRATA_CLI, "replay", "--verify", "--benchmark", "--from-file", trace});
    ASSERT_EQ(one.exit_code, 0) << one.out << one.err;
    const long framebuffers = Number(one.out, R"(verify: all (\d+) framebuffers match the trace)");
    EXPECT_GE(framebuffers, 4) << one.out;
    const long calls = Number(one.out, R"(replayed (\d+) calls)");
    ProcessResult three =
        RunProcess({STRATA_CLI, "replay", "--verify", "--benchmark", "--from-file", "--loop", "3", trace});
    ASSERT_EQ(three.exit_code, 0) << three.out << three.err;
    EXPECT_EQ(Number(three.out, R"(verify: all (\d+) framebuffers match the trace \(3 loops\))"), 3 * framebuffers)
        << three.out;
    EXPECT_EQ(Number(three.out, R"(replayed (\d+) calls)"), calls) << three.out;
    // The recorded times, as each loop decodes them, come out the same.
    for (const char* original : {R"(original run: ([0-9.]+) s)", R"(; original ([0-9.]+) s)"}) {
      EXPECT_GT(Decimal(one.out, original), 0) << one.out;
      EXPECT_EQ(Decimal(three.out, original), Decimal(one.out, original)) << one.out << three.out;
    }
    EXPECT_GT(Number(three.out, R"(loops after the first ran from memory \([0-9.]+ MiB of records; (\d+) calls kept decoded)"),
              calls / 4)
        << three.out;
    std::filesystem::remove(trace);
  }
}

// --preload, and --benchmark unless --from-file, read the trace into memory
// before the first loop: every loop, the first with its self-check included,
// runs from there and draws what the trace drew; a frame range, a trace cut
// short and records that do not fit (which read the file, and say so) replay
// as they do from the file.
// Catches: a preloaded first loop that loses or repeats records, skips the
// self-check or the cut trace's warning, is not verified; a preload that
// ignores its budget or hides that it read the file; a benchmark that reads
// the file unasked, or preloads when told --from-file.
TEST(Replay, PreloadRunsEveryLoopFromMemory) {
  const std::string trace = ScratchPath("preload.strace"), cut = ScratchPath("preload-cut.strace");
  ASSERT_EQ(Trace(trace, {App("gles2_shaders"), "--frames", "6"}, "swap").exit_code, 0);
  {
    std::ifstream in(trace, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() * 2 / 3);
  }
  for (const std::vector<std::string>& extra :
       std::vector<std::vector<std::string>>{{trace}, {"--frames", "2-4", trace}, {cut}}) {
    SCOPED_TRACE(extra.back() + (extra.size() > 1 ? " " + extra[1] : ""));
    std::vector<std::string> benchmark = {STRATA_CLI, "replay", "--verify", "--benchmark"};
    benchmark.insert(benchmark.end(), extra.begin(), extra.end());
    std::vector<std::string> from_file = benchmark, preloaded = benchmark, too_big = benchmark;
    from_file.insert(from_file.begin() + 2, "--from-file");
    preloaded.insert(preloaded.begin() + 2, {"--preload", "--loop", "2"});
    too_big.insert(too_big.begin() + 2, {"--record-memory", "64K"});  // --benchmark preloads
    ProcessResult file = RunProcess(from_file), memory = RunProcess(preloaded), over = RunProcess(too_big);
    EXPECT_EQ(file.out.find("from memory"), std::string::npos) << file.out;
    EXPECT_EQ(file.out.find("preload"), std::string::npos) << file.out;
    ASSERT_EQ(file.exit_code, 0) << file.out << file.err;
    ASSERT_EQ(memory.exit_code, 0) << memory.out << memory.err;
    ASSERT_EQ(over.exit_code, 0) << over.out << over.err;
    const long calls = Number(file.out, R"(replayed (\d+) calls)");
    EXPECT_GT(calls, 50) << file.out;
    EXPECT_EQ(Number(memory.out, R"(replayed (\d+) calls)"), calls) << memory.out;
    EXPECT_EQ(Number(over.out, R"(replayed (\d+) calls)"), calls) << over.out;
    EXPECT_GT(Number(memory.out, R"(every loop ran from memory \([0-9.]+ MiB of records; (\d+) calls kept decoded)"), 0)
        << memory.out;
    EXPECT_NE(over.out.find("preload: the trace's records take more than the 64.0 KiB kept for them (--record-memory); "
                            "every loop read the file"),
              std::string::npos)
        << over.out;
    const long framebuffers = Number(file.out, R"(verify: all (\d+) framebuffers match the trace)");
    EXPECT_GE(framebuffers, 1) << file.out;
    EXPECT_EQ(Number(memory.out, R"(verify: all (\d+) framebuffers match the trace \(2 loops\))"), 2 * framebuffers)
        << memory.out;
    // The self-check runs in the first loop, from memory too.
    const long compared = Number(file.out, R"(check: (\d+) calls compared with the recording, all agree)");
    EXPECT_GT(compared, 0) << file.out;
    EXPECT_EQ(Number(memory.out, R"(check: (\d+) calls compared with the recording, all agree)"), compared) << memory.out;
    for (const ProcessResult* r : {&file, &memory, &over}) {
      EXPECT_EQ(r->err.find("warning") != std::string::npos, extra.back() == cut) << r->err;
    }
  }
  ProcessResult plain = RunProcess({STRATA_CLI, "replay", "--benchmark", trace});
  ASSERT_EQ(plain.exit_code, 0) << plain.out << plain.err;
  EXPECT_GT(Number(plain.out, R"(every loop ran from memory \([0-9.]+ MiB of records; (\d+) calls kept decoded)"), 0)
      << plain.out;
  EXPECT_NE(plain.out.find("preloaded in "), std::string::npos) << plain.out;
  ProcessResult bad = RunProcess({STRATA_CLI, "replay", "--preload", "--record-memory", "lots", trace});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--record-memory takes a size above 0"), std::string::npos) << bad.err;
  ProcessResult both = RunProcess({STRATA_CLI, "replay", "--benchmark", "--preload", "--from-file", trace});
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_NE(both.err.find("--from-file and --preload ask for opposite things"), std::string::npos) << both.err;
  ProcessResult alone = RunProcess({STRATA_CLI, "replay", "--from-file", trace});
  EXPECT_EQ(alone.exit_code, 2);
  EXPECT_NE(alone.err.find("--from-file is for --benchmark"), std::string::npos) << alone.err;
  for (const std::string& path : {trace, cut}) std::filesystem::remove(path);
}

// Catches: a frame range that draws what it skipped, verifies or snapshots
// frames outside it, or skips draws something before it reads back.
TEST(Replay, FramesFastForwardToTheRange) {
  const std::string trace = ScratchPath("range.strace"), full = ScratchPath("range-full"), part = ScratchPath("range-part");
  ASSERT_EQ(Trace(trace, {App("gles2_shaders"), "--frames", "6"}, "swap").exit_code, 0);
  ProcessResult r = RunProcess({STRATA_CLI, "replay", "--frames", "3-4", "--verify", "--snapshot", "3", "-o", part, trace});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  // Frames 0-2 draw four times into the surface each (plasma, backdrop, torus, panes: glClear too).
  EXPECT_GT(Number(r.out, R"(fast-forwarded to frame 3: (\d+) draws and clears into the surface skipped)"), 8) << r.out;
  EXPECT_NE(r.out.find("2 frames in the range"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("verify: all 2 framebuffers match the trace"), std::string::npos) << r.out;
  ProcessResult whole = RunProcess({STRATA_CLI, "replay", "--snapshot", "3", "-o", full, trace});
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  strata::test::Image from_range, from_full;
  std::string error;
  ASSERT_TRUE(strata::test::ReadPng(part + "/frame-000003.png", &from_range, &error)) << error;
  ASSERT_TRUE(strata::test::ReadPng(full + "/frame-000003.png", &from_full, &error)) << error;
  EXPECT_EQ(from_range.rgba, from_full.rgba) << "frame 3 after a fast-forward differs from frame 3 of a whole replay";
  EXPECT_FALSE(std::filesystem::exists(part + "/frame-000002.png"));

  // Something before the range reads pixels back: nothing is skipped, and the replay says why.
  const std::string reading = ScratchPath("range-read.strace");
  ASSERT_EQ(Trace(reading, {STRATA_TINTED_APP, "0.5", "4", "1"}, "").exit_code, 0);
  ProcessResult kept = RunProcess({STRATA_CLI, "replay", "--frames", "2-", reading});
  ASSERT_EQ(kept.exit_code, 0) << kept.err;
  EXPECT_NE(kept.err.find("frames before 2 were rendered in full: call "), std::string::npos) << kept.err;
  EXPECT_NE(kept.err.find("glReadPixels, frame 1) reads a framebuffer back"), std::string::npos) << kept.err;

  ProcessResult past = RunProcess({STRATA_CLI, "replay", "--frames", "40-", trace});
  EXPECT_EQ(past.exit_code, 1);
  EXPECT_NE(past.err.find("the trace ends before frame 40"), std::string::npos) << past.err;
  ProcessResult list = RunProcess({STRATA_CLI, "replay", "--frames", "1,3", trace});
  EXPECT_EQ(list.exit_code, 2);
  EXPECT_NE(list.err.find("--frames takes one range"), std::string::npos) << list.err;
}

// A trace cut short replays up to the cut; damage and foreign files are errors with the byte offset.
TEST(Replay, BadTraces) {
  std::string trace = ScratchPath("bad.strace");
  ASSERT_EQ(Trace(trace, {App("gles2_shaders"), "--frames", "30"}, "swap").exit_code, 0);
  std::ifstream in(trace, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GT(bytes.size(), 4096u);

  std::string cut = ScratchPath("cut.strace");
  std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() * 2 / 3);
  ProcessResult r = RunProcess({STRATA_CLI, "replay", cut});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("truncated"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("at byte"), std::string::npos) << r.err;
  EXPECT_GT(Number(r.out, R"(replayed (\d+) calls)"), 0) << r.out;

  std::string damaged = ScratchPath("damaged.strace");
  std::string flipped = bytes;
  flipped[bytes.size() / 2] ^= 0x5a;
  std::ofstream(damaged, std::ios::binary) << flipped;
  r = RunProcess({STRATA_CLI, "replay", damaged});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("corrupt"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("at byte"), std::string::npos) << r.err;

  std::string foreign = ScratchPath("foreign.strace");
  std::ofstream(foreign) << "this is not a trace\n";
  r = RunProcess({STRATA_CLI, "replay", foreign});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("byte"), std::string::npos) << r.err;

  r = RunProcess({STRATA_CLI, "replay", ScratchPath("missing.strace")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("missing.strace"), std::string::npos) << r.err;
}

TEST(Replay, Usage) {
  EXPECT_EQ(RunProcess({STRATA_CLI, "replay"}).exit_code, 2);
  EXPECT_EQ(RunProcess({STRATA_CLI, "replay", "--snapshot", "1", "x.strace"}).exit_code, 2);
  EXPECT_EQ(RunProcess({STRATA_CLI, "replay", "--snapshot", "x-y", "-o", "d", "x.strace"}).exit_code, 2);
  EXPECT_EQ(RunProcess({STRATA_CLI, "replay", "--loop", "0", "x.strace"}).exit_code, 2);
  EXPECT_EQ(RunProcess({STRATA_CLI, "replay", "--bogus", "x.strace"}).exit_code, 2);
  ProcessResult help = RunProcess({STRATA_CLI, "replay", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("--verify"), std::string::npos);
  EXPECT_NE(help.out.find("--strict"), std::string::npos);
  EXPECT_EQ(RunProcess({STRATA_CLI, "replay", "--strict", "--no-check", "x.strace"}).exit_code, 2);
  // No images to verify against is an error, not a silent pass.
  std::string trace = ScratchPath("noimages.strace");
  ASSERT_EQ(Trace(trace, {App("gles2_shaders"), "--frames", "1"}, "none").exit_code, 0);
  ProcessResult r = RunProcess({STRATA_CLI, "replay", "--verify", trace});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("holds no framebuffer images"), std::string::npos) << r.err;
}

}  // namespace

namespace {

// A trace without framebuffer images still gets frame thumbnails in the HTML
// report: strata view replays it and reads the frames back.
TEST(Replay, ViewThumbnailsFromReplay) {
  std::string trace = ScratchPath("view.strace"), page = ScratchPath("view.html");
  ASSERT_EQ(Trace(trace, {App("gles3_instanced"), "--frames", "4"}, "").exit_code, 0);
  ProcessResult r = RunProcess({STRATA_CLI, "view", trace, "-o", page});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(Number(r.out, R"((\d+) images)"), 4) << r.out;
  std::ifstream in(page);
  std::string html((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(html.find("replayed on this machine"), std::string::npos);
  r = RunProcess({STRATA_CLI, "view", trace, "-o", page, "--thumbnails", "none"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(Number(r.out, R"((\d+) images)"), 0) << r.out;
}

}  // namespace
