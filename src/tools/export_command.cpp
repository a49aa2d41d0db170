// strata export TRACE -o OUT: a trace in another tool's format.
#include <sys/stat.h>

#include <cstdio>
#include <string>

#include "common/gpu_times_file.h"
#include "export/c_source_export.h"
#include "export/chrome_json_export.h"
#include "export/gltrace_export.h"
#include "export/output_file.h"
#include "stream/record_reader.h"
#include "tools/command.h"
#include "common/range_option.h"
#include "tools/command_line.h"

namespace strata::tools {
namespace {

constexpr char kUsage[] = R"(usage: strata export [options] TRACE -o OUT
       strata export --format c TRACE -o DIR

Writes the calls of a trace in another tool's format:
  gltrace      Android's GLES trace (.gltrace), for Android Device Monitor's
               "OpenGL Trace" view: one protobuf message per call, with the
               framebuffer images the trace captured (strata trace --capture)
  chrome-json  Trace Event Format JSON, for Perfetto UI (ui.perfetto.dev) and
               chrome://tracing: a slice per call on its thread's track, and
               the frames on a track of their own per rendering thread
  c            C source, its data file and a CMakeLists.txt in directory DIR,
               that build a program replaying the trace on EGL (headless),
               frame by frame: cmake -S DIR -B DIR/build && cmake --build
               DIR/build; the program's --help says how to run it. Traces
               of one rendering thread; trim first for a frame range

options:
  -o, --output OUT   the file to write ('-': standard output); for c, the
                     directory (made if missing; it must be empty)
  --format FORMAT    gltrace, chrome-json or c (default: from OUT's
                     extension, .gltrace or .json)
  --frames LIST      only these frames, e.g. 0,5,10-20 or 3- (frame 0 is
                     everything before the first swap)
  --calls LIST       only the calls of these numbers, e.g. 5-6 or 100-
  --gpu-times FILE   chrome-json: the GPU time of each draw, dispatch, clear
                     and blit that strata replay --gpu-times FILE measured,
                     as a GPU track per context beside the threads' tracks
  -h, --help         show this help

An option's value may also follow it after '=' (--frames=2-3).

A trace cut short is exported up to where it ends, with a warning; a damaged
one up to the damage, with an error (exit status 1). What each format holds
and leaves out: docs/export.md.
)";

enum class Format { kUnknown, kGltrace, kChromeJson, kC };

Format FormatNamed(const std::string& name) {
  if (name == "gltrace") return Format::kGltrace;
  if (name == "chrome-json" || name == "json") return Format::kChromeJson;
  if (name == "c") return Format::kC;
  return Format::kUnknown;
}

Format FormatOfPath(const std::string& path) {
  auto ends_with = [&](const std::string& suffix) {
    return path.size() > suffix.size() && path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  if (ends_with(".gltrace")) return Format::kGltrace;
  if (ends_with(".json")) return Format::kChromeJson;
  return Format::kUnknown;
}

bool SameFile(const std::string& a, const std::string& b) {
  struct stat sa, sb;
  return stat(a.c_str(), &sa) == 0 && stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

void PrintWarnings(const exporter::ExportSummary& summary, Format format) {
  if (summary.undecodable_calls) {
    std::fprintf(stderr, "strata export: warning: %llu call records could not be decoded and were left out (first: %s)\n",
                 static_cast<unsigned long long>(summary.undecodable_calls), summary.first_decode_error.c_str());
  }
  if (!summary.unnamed_functions.empty()) {
    uint64_t calls = 0;
    std::string names;
    size_t listed = 0;
    for (const auto& [name, count] : summary.unnamed_functions) {
      calls += count;
      if (listed++ < 8) names += (names.empty() ? "" : ", ") + name + " (" + std::to_string(count) + ")";
    }
    if (listed > 8) names += ", and " + std::to_string(listed - 8) + " more";
    std::fprintf(stderr,
                 "strata export: warning: %llu calls to %zu functions that Android's gltrace format has no number for "
                 "were written as function 'invalid': %s\n",
                 static_cast<unsigned long long>(calls), summary.unnamed_functions.size(), names.c_str());
  }
  if (format == Format::kGltrace && summary.images_left_out) {
    std::fprintf(stderr,
                 "strata export: warning: %llu framebuffer images were left out (their call was not exported, or "
                 "the record was malformed)\n",
                 static_cast<unsigned long long>(summary.images_left_out));
  }
}

int ExportC(const std::string& path, const std::string& dir, bool ranges, bool gpu_times) {
  if (ranges) {
    std::fprintf(stderr, "strata export: error: --frames and --calls are not for c: a program replays a trace "
                         "whole (strata trim --frames A-B makes a trace of a range that replays alone)\n");
    return 2;
  }
  if (gpu_times) {
    std::fprintf(stderr, "strata export: error: --gpu-times is for chrome-json (a C program has no place for them)\n");
    return 2;
  }
  if (dir == "-") {
    std::fprintf(stderr, "strata export: error: c writes a directory, not standard output\n");
    return 2;
  }
  std::string error;
  auto reader = stream::RecordReader::Open(path, &error);
  if (!reader) {
    std::fprintf(stderr, "strata export: error: %s\n", error.c_str());
    return 1;
  }
  exporter::CSourceSummary summary;
  if (!exporter::ExportCSource(*reader, dir, exporter::ProgramNameFor(path), &summary, &error)) {
    std::fprintf(stderr, "strata export: error: %s\n", error.c_str());
    return 1;
  }
  if (reader->truncated()) {
    std::fprintf(stderr, "strata export: warning: %s; exported the calls before it\n", reader->error().c_str());
  }
  for (const auto& [function, left_out] : summary.left_out) {
    std::fprintf(stderr, "strata export: warning: %llu calls to %s left out: %s\n",
                 static_cast<unsigned long long>(left_out.first), function.c_str(), left_out.second.c_str());
  }
  std::fprintf(stderr,
               "strata export: %s: %llu calls as C in %llu files, %llu frames, %.1f MiB of data (c)\n"
               "build it: cmake -S %s -B %s/build && cmake --build %s/build; run: %s/build/%s\n",
               dir.c_str(), static_cast<unsigned long long>(summary.statements),
               static_cast<unsigned long long>(summary.source_files), static_cast<unsigned long long>(summary.frames),
               static_cast<double>(summary.data_bytes) / (1 << 20), dir.c_str(), dir.c_str(), dir.c_str(), dir.c_str(),
               summary.program.c_str());
  return 0;
}

}  // namespace

int ExportCommandMain(int argc, char** argv) {
  std::string path, output, format_name, gpu_times_path;
  Range frames, calls;
  CommandLine args("strata export", kUsage,
                   {{"help", 'h', false}, {"output", 'o', true}, {"format", 0, true}, {"frames", 0, true},
                    {"calls", 0, true}, {"gpu-times", 0, true}},
                   argc, argv);
  while (args.Next()) {
    if (args.Is("help")) {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (args.Is("output")) {
      output = args.value();
    } else if (args.Is("format")) {
      format_name = args.value();
    } else if (args.Is("frames") || args.Is("calls")) {
      if (!args.List(args.Is("frames") ? &frames : &calls)) return 2;
    } else if (args.Is("gpu-times")) {
      gpu_times_path = args.value();
    }
  }
  if (args.failed() || !args.OneTrace(&path)) return 2;
  if (output.empty()) {
    std::fprintf(stderr, "strata export: error: no output given (-o OUT)\n%s", kUsage);
    return 2;
  }
  Format format = format_name.empty() ? FormatOfPath(output) : FormatNamed(format_name);
  if (format == Format::kUnknown) {
    if (format_name.empty()) {
      std::fprintf(stderr, "strata export: error: cannot tell the format from '%s': give --format gltrace or chrome-json\n",
                   output.c_str());
    } else {
      std::fprintf(stderr, "strata export: error: unknown format '%s' (gltrace, chrome-json or c)\n", format_name.c_str());
    }
    return 2;
  }
  if (format == Format::kC) return ExportC(path, output, !frames.parts.empty() || !calls.parts.empty(), !gpu_times_path.empty());
  if (!gpu_times_path.empty() && format != Format::kChromeJson) {
    std::fprintf(stderr, "strata export: error: --gpu-times is for chrome-json (gltrace has no place for GPU times)\n");
    return 2;
  }
  if (SameFile(path, output)) {
    std::fprintf(stderr, "strata export: error: %s is the trace itself; choose another output\n", output.c_str());
    return 2;
  }

  // The inputs first: one that cannot be read leaves no output behind.
  std::string error;
  GpuTimesFile gpu_times;
  if (!gpu_times_path.empty() && !ReadGpuTimesFile(gpu_times_path, &gpu_times, &error)) {
    std::fprintf(stderr, "strata export: error: --gpu-times: %s\n", error.c_str());
    return 1;
  }
  auto reader = stream::RecordReader::Open(path, &error);
  if (!reader) {
    std::fprintf(stderr, "strata export: error: %s\n", error.c_str());
    return 1;
  }
  exporter::OutputFile out;
  if (!out.Open(output, &error)) {
    std::fprintf(stderr, "strata export: error: %s\n", error.c_str());
    return 1;
  }
  exporter::Selection selection;
  selection.frames = frames.parts;
  selection.calls = calls.parts;
  exporter::ExportSummary summary;
  if (format == Format::kGltrace) {
    exporter::ExportGltrace(*reader, selection, out, &summary);
  } else {
    exporter::ExportChromeJson(*reader, selection, out, &summary, gpu_times_path.empty() ? nullptr : &gpu_times);
  }
  if (!out.Close(&error)) {
    out.Discard();
    std::fprintf(stderr, "strata export: error: %s\n", error.c_str());
    return 1;
  }
  PrintWarnings(summary, format);
  const char* shown = output == "-" ? "standard output" : output.c_str();
  if (!reader->error().empty() && !reader->truncated()) {
    std::fprintf(stderr, "strata export: error: %s; %s holds the %llu calls before it\n", reader->error().c_str(), shown,
                 static_cast<unsigned long long>(summary.calls));
    return 1;
  }
  if (reader->truncated()) {
    std::fprintf(stderr, "strata export: warning: %s; exported the calls before it\n", reader->error().c_str());
  }
  std::fprintf(stderr, "strata export: %s: %llu calls, %llu frames", shown, static_cast<unsigned long long>(summary.calls),
               static_cast<unsigned long long>(summary.frames));
  if (format == Format::kGltrace) {
    std::fprintf(stderr, ", %llu framebuffer images", static_cast<unsigned long long>(summary.images));
  }
  if (!gpu_times_path.empty()) {
    std::fprintf(stderr, ", %llu GPU times", static_cast<unsigned long long>(summary.gpu_slices));
  }
  std::fprintf(stderr, " (%s)\n", format == Format::kGltrace ? "gltrace" : "chrome-json");
  if (!gpu_times.calls.empty() && summary.gpu_slices == 0) {
    std::fprintf(stderr, "strata export: warning: none of the calls %s times are in the calls exported (was it measured "
                 "on another trace? it names %s)\n", gpu_times_path.c_str(), gpu_times.trace.c_str());
  }
  return 0;
}

}  // namespace strata::tools
