// strata trim TRACE --frames A-B -o OUT: a range of a trace that replays alone.
#include <cstdio>
#include <string>

#include "tools/command.h"
#include "tools/command_line.h"
#include "tools/install_paths.h"
#include "trim/trace_trim.h"

namespace strata::tools {
namespace {

constexpr char kUsage[] = R"(usage: strata trim [options] TRACE (--frames A-B | --calls A-B) -o OUT

Writes OUT, a trace of frames A..B (or calls A..B) of TRACE that replays
alone: TRACE is replayed headless up to the range, the state of its context
there is read back and written as made-up calls at the start of OUT (every
live buffer with its contents, texture with its images, shader, program with
its uniforms, framebuffer, vertex array, sampler, and the context's state and
bindings), after the EGL calls that made its display, surfaces and context.
The range's own calls follow, numbered from there; frame A is OUT's frame 0.
A range captured with --capture swap replays with `strata replay --verify`.
What the snapshot could not carry (a compressed texture nobody uploaded in
the trace, a renderbuffer's contents) is listed. docs/inspect.md has the details.

options:
  --frames A-B      the frames to keep (A, A-B or A-: from A to the end)
  --calls A-B       the calls to keep, by the numbers strata dump prints
  -o, --output OUT  the trace to write (never left half written)
  -q, --quiet       print nothing but errors
  -h, --help        show this help

Exit status: 0, 1 when the range cannot be trimmed (out of range, a trace
that ends before it, a context the snapshot cannot take), 2 for bad usage.
)";

bool OneSpan(CommandLine& args, const char* what, uint64_t* first, uint64_t* last) {
  Range range;
  if (!args.List(&range)) return false;
  if (range.parts.size() != 1) {
    std::fprintf(stderr, "strata trim: error: %s takes one span (A-B), not a list\n", what);
    return false;
  }
  *first = range.parts[0].first;
  *last = range.parts[0].second;
  return true;
}

}  // namespace

int TrimCommandMain(int argc, char** argv) {
  trim::TrimOptions options;
  bool frames = false, calls = false, quiet = false;
  CommandLine args("strata trim", kUsage,
                   {{"help", 'h', false}, {"frames", 0, true}, {"calls", 0, true}, {"output", 'o', true},
                    {"quiet", 'q', false}},
                   argc, argv);
  while (args.Next()) {
    if (args.Is("help")) {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (args.Is("frames")) {
      if (!OneSpan(args, "--frames", &options.first, &options.last)) return 2;
      frames = true;
    } else if (args.Is("calls")) {
      if (!OneSpan(args, "--calls", &options.first, &options.last)) return 2;
      calls = true;
    } else if (args.Is("output")) {
      options.output = args.value();
    } else if (args.Is("quiet")) {
      quiet = true;
    }
  }
  if (args.failed()) return 2;
  if (!args.OneTrace(&options.input)) return 2;
  if (frames == calls) {
    std::fprintf(stderr, "strata trim: error: give the range with --frames or with --calls (one of them)\n%s",
                 kUsage);
    return 2;
  }
  if (options.output.empty()) {
    std::fprintf(stderr, "strata trim: error: give the trace to write with -o OUT\n%s", kUsage);
    return 2;
  }
  if (options.output == options.input) {
    std::fprintf(stderr, "strata trim: error: OUT must not be TRACE itself\n");
    return 2;
  }
  options.by_frames = frames;
  options.strata_lib_dir = StrataLibraryDirectory();
  options.progress = !quiet;
  trim::TrimResult result;
  std::string error;
  if (!trim::Trim(options, &result, &error)) {
    std::fprintf(stderr, "strata trim: error: %s\n", error.c_str());
    return 1;
  }
  for (const std::string& warning : result.warnings) std::fprintf(stderr, "strata trim: warning: %s\n", warning.c_str());
  if (quiet) return 0;
  const std::string frame_calls =
      result.frame_calls == 0 ? ""
                              : std::to_string(result.frame_calls) + " made-up calls of its first frame before it, ";
  const std::string snapshot_of =
      result.contexts > 1 ? "the snapshots of " + std::to_string(result.contexts) + " contexts" : "the snapshot";
  std::printf("%s: calls %llu-%llu of %s: %llu frames, %llu calls (%llu EGL calls that made its objects, "
              "%llu made-up calls of %s, %s%llu of the range), %.1f MiB\n",
              options.output.c_str(), static_cast<unsigned long long>(result.first_call),
              static_cast<unsigned long long>(result.last_call), options.input.c_str(),
              static_cast<unsigned long long>(result.frames),
              static_cast<unsigned long long>(result.egl_calls + result.snapshot_calls + result.frame_calls +
                                              result.range_calls),
              static_cast<unsigned long long>(result.egl_calls), static_cast<unsigned long long>(result.snapshot_calls),
              snapshot_of.c_str(), frame_calls.c_str(), static_cast<unsigned long long>(result.range_calls), result.output_bytes / 1048576.0);
  if (!result.not_carried.empty()) {
    std::printf("not carried by the snapshot (%zu):\n", result.not_carried.size());
    for (const std::string& line : result.not_carried) std::printf("  %s\n", line.c_str());
  }
  return 0;
}

}  // namespace strata::tools
