// strata dump TRACE: one call per line, or JSON lines.
#include <cstdio>
#include <cstring>
#include <regex>
#include <string>

#include "stream/byte_reader.h"
#include "stream/call_printer.h"
#include "stream/event_records.h"
#include "stream/framebuffer_record.h"
#include "stream/record_reader.h"
#include "tools/command.h"
#include "common/range_option.h"
#include "tools/command_line.h"

namespace strata::tools {
namespace {

constexpr char kUsage[] = R"(usage: strata dump [options] TRACE

Prints the calls of a trace, one per line:
  SEQUENCE [THREAD] FUNCTION(ARGUMENTS) = RESULT  (DURATION)
Values print by name where the Khronos registries name them
(mode=GL_TRIANGLES, mask=GL_DEPTH_BUFFER_BIT | GL_COLOR_BUFFER_BIT, EGL
attribute lists as {KEY: VALUE, ..., EGL_NONE}). Data behind pointers prints
as values when small ({0.5, 1, ...}, strings) and as <N bytes> otherwise.
Frame ends print as "-- end of frame N". Calls the tracer made up (a context
that existed before tracing was switched on) are marked. docs/dump.md has
every form, and the JSON schema.

options:
  --json             one JSON object per call instead, with typed values
                     (numbers, names, arrays; data as its size and hash)
  --frames LIST      only these frames, e.g. 0,5,10-20 or 3- (frame 0 is
                     everything before the first swap)
  --calls LIST       only the calls of these numbers, e.g. 5-6 or 100- (and
                     the frame ends and images that follow them)
  --grep REGEX       only calls whose printed line matches REGEX
  --memory           also print the memory records (client arrays, mapped buffers)
  --no-header        leave out the trace header
  -h, --help         show this help

An option's value may also follow it after '=' (--frames=2-3).

A trace cut short (its process killed) prints up to where it ends, with a
warning; a damaged one stops at the damage with an error (exit status 1).
)";

}  // namespace

int DumpCommandMain(int argc, char** argv) {
  bool json = false, memory = false, header = true;
  Range frames, calls;
  std::string grep, path;
  CommandLine args("strata dump", kUsage,
                   {{"help", 'h', false}, {"json", 0, false}, {"memory", 0, false}, {"no-header", 0, false},
                    {"frames", 0, true}, {"calls", 0, true}, {"grep", 0, true}},
                   argc, argv);
  while (args.Next()) {
    if (args.Is("help")) {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (args.Is("json")) {
      json = true;
    } else if (args.Is("memory")) {
      memory = true;
    } else if (args.Is("no-header")) {
      header = false;
    } else if (args.Is("frames") || args.Is("calls")) {
      if (!args.List(args.Is("frames") ? &frames : &calls)) return 2;
    } else if (args.Is("grep")) {
      grep = args.value();
    }
  }
  if (args.failed() || !args.OneTrace(&path)) return 2;
  std::regex pattern;
  try {
    pattern = std::regex(grep.empty() ? "." : grep);
  } catch (const std::regex_error& e) {
    std::fprintf(stderr, "strata dump: error: bad --grep pattern '%s': %s\n", grep.c_str(), e.what());
    return 2;
  }
  std::string error;
  auto reader = stream::RecordReader::Open(path, &error);
  if (!reader) {
    std::fprintf(stderr, "strata dump: error: %s\n", error.c_str());
    return 1;
  }
  if (header && !json) {
    const stream::TraceHeader& h = reader->header();
    std::printf("# program: %s (pid %lld)\n# command line: %s\n", h.program.c_str(), static_cast<long long>(h.pid),
                h.command_line.c_str());
    for (const auto& [key, value] : h.extra) {
      if (key == "driver") std::printf("# driver: %s\n", value.c_str());
    }
  }
  uint64_t frame = 0;
  uint64_t last_sequence = 0;  // of the last call decoded: a frame's end belongs to the calls before it
  bool any_call = false;
  stream::Record record;
  stream::DecodedCall call;
  stream::CallDecoder decoder(reader->functions());
  decoder.AcceptUnknownFunctions(true);
  // A record other than a call (a frame's end, a captured framebuffer, a
  // context's strings) belongs to the call before it: with --calls it prints
  // only after a call that printed.
  auto after_selected_call = [&] { return calls.All() || (any_call && calls.Contains(last_sequence)); };
  while (reader->Next(&record)) {
    if (record.type == stream::RecordType::kFrame) {
      if (frames.Contains(frame) && after_selected_call() && !json && grep.empty()) {
        std::printf("-- end of frame %llu\n", static_cast<unsigned long long>(frame));
      }
      ++frame;
      continue;
    }
    if (!frames.Contains(frame)) {
      // A call's sequence and start are deltas from the thread's previous call
      // in its chunk: decode the calls not printed too, or later ones come out wrong.
      if (record.type == stream::RecordType::kCall) decoder.Decode(record.payload, record.thread_id, record.chunk, &call, &error);
      continue;
    }
    if (record.type != stream::RecordType::kCall && !after_selected_call()) continue;
    if (record.type == stream::RecordType::kTraceEvent) {
      if (json || !grep.empty()) continue;
      uint64_t error_context = 0, gl_error = 0;
      if (stream::DecodeGlErrorEvent(record.payload, &error_context, &gl_error)) {
        // The tracer's own glGetError at a frame's end: worth a line only when the app had an error waiting.
        if (gl_error != 0) {
          const char* name = api::GlEnumName(static_cast<uint32_t>(gl_error));
          std::printf("# context %llu: GL error %s pending at the frame's end\n",
                      static_cast<unsigned long long>(error_context), name ? name : std::to_string(gl_error).c_str());
        }
        continue;
      }
      uint64_t context = 0;
      stream::KeyValues info;
      if (!stream::DecodeContextEvent(record.payload, &context, &info)) continue;
      std::string line;
      for (const auto& [key, value] : info) line += (line.empty() ? "" : ", ") + key + "=" + value;
      std::printf("# context %llu: %s\n", static_cast<unsigned long long>(context), line.c_str());
      continue;
    }
    if (record.type == stream::RecordType::kFramebuffer) {
      if (json || !grep.empty()) continue;
      stream::FramebufferImage image;
      if (!stream::DecodeFramebuffer(record.payload, &image)) {
        std::printf("   framebuffer record (malformed)\n");
        continue;
      }
      std::printf("   framebuffer %llux%llu of %s%s\n", static_cast<unsigned long long>(image.width),
                  static_cast<unsigned long long>(image.height),
                  image.framebuffer ? ("framebuffer object " + std::to_string(image.framebuffer)).c_str()
                                    : "the surface",
                  image.final_frame ? " (final frame)" : "");
      continue;
    }
    if (record.type == stream::RecordType::kMemory) {
      if (!memory || json) continue;
      stream::ByteReader r(record.payload);
      uint64_t address = r.Varint();
      std::span<const uint8_t> bytes;
      bool present = r.Blob(&bytes);
      std::printf("   memory 0x%llx <%zu bytes>\n", static_cast<unsigned long long>(address), present ? bytes.size() : 0);
      continue;
    }
    if (record.type != stream::RecordType::kCall) continue;
    if (!decoder.Decode(record.payload, record.thread_id, record.chunk, &call, &error)) {
      std::fprintf(stderr, "strata dump: warning: %s\n", error.c_str());
      continue;
    }
    last_sequence = call.sequence;
    any_call = true;
    if (!calls.Contains(call.sequence)) continue;
    std::string line = json ? stream::FormatCallJson(call) : stream::FormatCall(call);
    if (!grep.empty() && !std::regex_search(line, pattern)) continue;
    if (json) {
      std::printf("%s\n", line.c_str());
    } else {
      char duration[32] = "untimed";
      if (!(call.flags & stream::kCallUntimed)) std::snprintf(duration, sizeof duration, "%.1f us", call.duration_ns / 1000.0);
      std::printf("%llu [%llu] %s  (%s)%s\n", static_cast<unsigned long long>(call.sequence),
                  static_cast<unsigned long long>(call.thread), line.c_str(), duration,
                  (call.flags & stream::kCallSynthesized) ? "  [made up: recreates state from before the trace]" : "");
    }
  }
  if (!reader->error().empty()) {
    std::fflush(stdout);
    if (reader->truncated()) {
      std::fprintf(stderr, "strata dump: warning: %s\n", reader->error().c_str());
      return 0;
    }
    std::fprintf(stderr, "strata dump: error: %s\n", reader->error().c_str());
    return 1;
  }
  return 0;
}

}  // namespace strata::tools
