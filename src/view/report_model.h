#pragma once
// Everything `strata view` shows about a trace, gathered in one pass over its
// records: header and totals, frames with their calls (in global call order),
// GL/EGL errors, calls with uncaptured data, shader sources and linked
// programs, the largest uploads. Images are not part of it (frame_image.h).

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "stream/trace_file.h"

namespace strata::view {

// Bits of ReportCall::flags.
enum ReportCallFlags : uint8_t {
  kReportDraw = 1,         // glDraw*, glMultiDraw*, glDispatchCompute*
  kReportUncovered = 2,    // some pointer data was not captured (no capture rule)
  kReportSynthesized = 4,  // made up by the tracer (context existed before tracing)
  kReportError = 8,        // glGetError / eglGetError that reported an error
  kReportUpload = 16,      // sent data to the driver (see ReportUpload)
  kReportUntimed = 32,     // a state-setting call recorded without clock readings
};

struct ReportCall {
  uint64_t sequence = 0;
  uint64_t start_ns = 0;  // since the trace started
  uint64_t duration_ns = 0;
  uint32_t thread = 0;    // index into ReportModel::threads
  uint32_t context = 0;   // the tracer's context id (0: none current)
  uint32_t function = 0;  // index into ReportModel::function_names
  uint32_t text = 0;      // index into ReportModel::texts: "(args) = result" as `strata dump` prints it
  uint8_t flags = 0;
};

struct ReportFrame {
  size_t first_call = 0;  // index into ReportModel::calls
  size_t call_count = 0;
  uint64_t draws = 0, cpu_ns = 0, errors = 0, upload_bytes = 0;
};

// A call named by what a person sees of it.
struct CallRef {
  uint64_t sequence = 0;
  uint64_t frame = 0;
  uint32_t function = 0, text = 0;
};

struct ReportError {
  CallRef call;                  // the glGetError / eglGetError
  std::string error;             // GL_INVALID_ENUM, EGL_BAD_DISPLAY, ...
  bool egl = false;
  std::optional<CallRef> follows;  // the thread's previous call that is not an error query
};

struct UncoveredFunction {
  uint32_t function = 0;
  uint64_t calls = 0;
  CallRef first;
};

struct ShaderSource {
  CallRef call;          // glShaderSource (or glCreateShaderProgramv)
  uint32_t shader = 0;   // 0 for glCreateShaderProgramv
  uint32_t type = 0;     // GL_VERTEX_SHADER, ... from glCreateShader; 0 when unknown
  std::string source;
  std::optional<bool> compiled;  // when the app asked (glGetShaderiv GL_COMPILE_STATUS)
  std::string info_log;          // when the app asked (glGetShaderInfoLog)
};

struct LinkedProgram {
  CallRef call;  // glLinkProgram (or glCreateShaderProgramv)
  uint32_t program = 0;
  // Indexes into ReportModel::shaders: the source each attached shader had at link time.
  std::vector<size_t> shaders;
  std::vector<uint32_t> shaders_without_source;  // attached shaders whose source the trace lacks
  std::optional<bool> linked;                    // when the app asked (glGetProgramiv GL_LINK_STATUS)
  std::string info_log;
};

struct ReportUpload {
  CallRef call;
  uint64_t bytes = 0;
  const char* kind = "";  // "buffer", "texture", "compressed texture", "mapped buffer", "client arrays"
};

struct ContextStrings {
  uint64_t context = 0;
  std::vector<std::pair<std::string, std::string>> strings;  // GL_VENDOR, GL_RENDERER, GL_VERSION, ...
};

struct ReportTotals {
  uint64_t calls = 0, draws = 0, cpu_ns = 0;
  uint64_t upload_bytes = 0;      // data sent by upload calls and captured app memory
  uint64_t app_memory_bytes = 0;  // of which app memory (client arrays, mapped buffer writes)
  uint64_t record_bytes = 0, framebuffer_images = 0;  // images of swaps and draws
  uint64_t final_frame_images = 0;                    // final frames (not thumbnails)
  uint64_t uncovered_calls = 0, synthesized_calls = 0, undecodable_records = 0, errors = 0;
};

struct ReportModel {
  std::string trace_path;
  uint64_t trace_file_bytes = 0;
  stream::TraceHeader header;
  bool complete = false;  // the file has its index (the tracer finished cleanly)
  std::string warning;    // the trace ends early: what the reader said, with the byte offset
  std::string first_undecodable;  // the decoder's message for the first record it could not decode

  std::vector<std::string> function_names;
  std::vector<std::string> texts;  // deduplicated call texts
  std::vector<uint32_t> threads;   // thread ids, by first appearance
  std::vector<ReportCall> calls;   // in sequence order
  std::vector<ReportFrame> frames;  // as --frames numbers them: the unfinished last one included
  uint64_t ended_frames = 0;        // the trace's frame count (stream/frame_numbering.h)
  uint64_t calls_after_last_frame = 0;
  uint64_t tracer_first_frame = 0;  // the tracer's number for frame 0 (captured_images.h says why)
  std::vector<uint64_t> frames_with_images;  // frames the trace holds framebuffer images of, ascending

  ReportTotals totals;
  std::vector<ContextStrings> contexts;
  std::vector<ReportError> errors;
  std::vector<UncoveredFunction> uncovered;
  std::vector<ShaderSource> shaders;
  std::vector<LinkedProgram> programs;
  std::vector<ReportUpload> largest_uploads;  // by bytes, largest first
};

struct ReportModelOptions {
  size_t largest_uploads = 50;
};

// False with `error` (naming the byte offset where it applies) for a file
// that is not a trace or is damaged; a trace cut short gives true and a
// model of what was read, with `warning` set.
bool BuildReportModel(const std::string& trace_path, const ReportModelOptions& options, ReportModel* model,
                      std::string* error);

// `bytes` as valid UTF-8: each byte that is not part of a well-formed
// sequence becomes U+FFFD, so any text from a trace can go into the page.
std::string ValidUtf8(std::string_view bytes);

}  // namespace strata::view
