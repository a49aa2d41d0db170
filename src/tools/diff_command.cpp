// strata diff A B: two traces compared call by call, or frame image by frame image.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "inspect/call_diff.h"
#include "inspect/image_diff.h"
#include "tools/command.h"
#include "tools/install_paths.h"
#include "common/range_option.h"
#include "tools/command_line.h"
#include "tools/tolerance_options.h"

namespace strata::tools {
namespace {

constexpr char kUsage[] = R"(usage: strata diff [options] TRACE TRACE

Compares two traces, A (the first) and B, call by call and prints the
calls that differ. Calls are lined up as diff(1) lines up text, by
function and every value, with the data behind pointers compared by
content; a stretch that differs is lined up again by function, so that a
call whose arguments changed prints as one changed call:
  @@ frame 2: A calls 120-126, B calls 120-127 @@
    121 glUseProgram(program=3)
  | 122 glUniform4f(location=0, v0=0.35 -> 0.5, v1=0.35, v2=0.45, v3=1)
  - 123 glDisable(cap=GL_BLEND)
  + 124 glEnable(cap=GL_BLEND)
'|' is a changed call (A's value -> B's), '-' a call only A has, '+' one
only B has. A call number prints once when it is the same in both, else
as "A B". What differs from run to run by itself does not count: EGL
handles compare by the order the trace first used them, addresses of the
program's memory not at all. docs/inspect.md has the details.

With --images, compares the frames' images instead: those the traces
captured (strata trace --capture swap), else those a replay of each draws
on this machine. Each frame that is not equal is listed with how far it is
off (largest channel difference, share of pixels that differ, PSNR); each
past the tolerance (by default, each not equal) is written as a PNG of A, B
and B with the differing pixels in magenta, side by side.

Exit status: 0 when the traces are equal, 1 when they differ, 2 on trouble.

options:
  --frames LIST      only these frames, e.g. 0,5,10-20 or 3- (frame N is
                     what follows the N-th frame end)
  --calls LIST       only the calls of these numbers (not with --images)
  -U, --context N    unchanged calls shown around each change (default 3)
  --color WHEN       auto (when writing to a terminal), always or never
  -q, --brief        print no calls, only whether and how much they differ
  --images           compare frame images instead of calls
  -o, --output DIR   with --images: where the differing frames go
                     (default strata-diff-images)
  --source WHERE     with --images: captured, replayed or auto (captured
                     when both traces hold images; default)
  --threshold N      with --images: a channel differs when it is off by more
                     than N (0-255, default 0)
  --max-differing P  with --images: up to P percent of a frame's pixels may
                     differ (default 0)
  --min-psnr DB      with --images: a frame's PSNR must be at least DB
                     decibels; alone, frames are judged by their PSNR only
  -h, --help         show this help

An option's value may also follow it after '=' (--frames=2-3).
)";

int DiffImageFrames(const std::string& a, const std::string& b, inspect::ImageDiffOptions& options, bool brief) {
  options.strata_lib_dir = StrataLibraryDirectory();
  options.progress = [](const std::string& line) { std::fprintf(stderr, "strata diff: %s\n", line.c_str()); };
  inspect::ImageDiffSummary summary;
  std::string error;
  if (!inspect::DiffImages(a, b, options, &summary, &error)) {
    std::fprintf(stderr, "strata diff: error: %s\n", error.c_str());
    return 2;
  }
  if (!summary.warning.empty()) std::fprintf(stderr, "strata diff: warning: %s\n", summary.warning.c_str());
  if (!brief) {
    // Both lists in frame order, merged: how far each frame that is not equal is off.
    std::vector<const inspect::FrameDifference*> frames;
    for (const auto* list : {&summary.differing, &summary.tolerated}) {
      for (const inspect::FrameDifference& d : *list) frames.push_back(&d);
    }
    std::sort(frames.begin(), frames.end(), [](auto* x, auto* y) { return x->frame < y->frame; });
    for (const inspect::FrameDifference* d : frames) {
      std::printf("frame %llu: %s%s%s\n", static_cast<unsigned long long>(d->frame),
                  DescribeDifference(d->difference, options.tolerance.threshold).c_str(),
                  d->width_a != d->width_b || d->height_a != d->height_b
                      ? (", A is " + std::to_string(d->width_a) + "x" + std::to_string(d->height_a) + ", B " +
                         std::to_string(d->width_b) + "x" + std::to_string(d->height_b))
                            .c_str()
                      : "",
                  d->image_path.empty() ? " (within the tolerance)" : (" -> " + d->image_path).c_str());
    }
    for (uint64_t frame : summary.only_a) std::printf("frame %llu: only A has it\n", static_cast<unsigned long long>(frame));
    for (uint64_t frame : summary.only_b) std::printf("frame %llu: only B has it\n", static_cast<unsigned long long>(frame));
  }
  const std::string tolerated =
      options.tolerance.exact() ? ""
                                : " (" + std::to_string(summary.tolerated.size()) + " more within the tolerance: " +
                                      options.tolerance.Describe() + ")";
  std::fprintf(stderr, "strata diff: %llu frames compared (%s): %zu differ%s, %zu only in A, %zu only in B\n",
               static_cast<unsigned long long>(summary.compared), summary.source.c_str(), summary.differing.size(),
               tolerated.c_str(), summary.only_a.size(), summary.only_b.size());
  if (summary.worst.frames > 0) {
    std::fprintf(stderr, "strata diff: %llu frames not equal; the furthest off: %s\n",
                 static_cast<unsigned long long>(summary.worst.frames), summary.worst.Describe().c_str());
  }
  return summary.equal() ? 0 : 1;
}

}  // namespace

int DiffCommandMain(int argc, char** argv) {
  Range frames, calls;
  bool images = false, brief = false;
  std::string color = "auto", source = "auto", output = "strata-diff-images";
  uint64_t context = 3;
  std::vector<OptionSpec> specs = {{"help", 'h', false}, {"frames", 0, true}, {"calls", 0, true},
                                   {"context", 'U', true}, {"color", 0, true}, {"brief", 'q', false},
                                   {"images", 0, false}, {"output", 'o', true}, {"source", 0, true}};
  ToleranceOptions tolerance;
  for (const OptionSpec& spec : ToleranceOptions::Specs()) specs.push_back(spec);
  CommandLine args("strata diff", kUsage, specs, argc, argv);
  while (args.Next()) {
    bool taken = true;
    if (tolerance.Take(args, &taken)) {
      if (!taken) return 2;
    } else if (args.Is("help")) {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (args.Is("frames") || args.Is("calls")) {
      if (!args.List(args.Is("frames") ? &frames : &calls)) return 2;
    } else if (args.Is("context")) {
      if (!args.Count(&context)) return 2;
    } else if (args.Is("color")) {
      color = args.value();
      if (color != "auto" && color != "always" && color != "never") {
        std::fprintf(stderr, "strata diff: error: --color is auto, always or never, not '%s'\n", color.c_str());
        return 2;
      }
    } else if (args.Is("brief")) {
      brief = true;
    } else if (args.Is("images")) {
      images = true;
    } else if (args.Is("output")) {
      output = args.value();
    } else if (args.Is("source")) {
      source = args.value();
      if (source != "auto" && source != "captured" && source != "replayed") {
        std::fprintf(stderr, "strata diff: error: --source is auto, captured or replayed, not '%s'\n", source.c_str());
        return 2;
      }
    }
  }
  if (args.failed()) return 2;
  const std::vector<std::string>& traces = args.operands();
  if (traces.size() != 2) {
    std::fprintf(stderr, "strata diff: error: give two traces, A and B (%zu given)\n%s", traces.size(), kUsage);
    return 2;
  }
  if (!images && tolerance.given()) {
    std::fprintf(stderr, "strata diff: error: --threshold, --max-differing and --min-psnr are for --images\n");
    return 2;
  }
  if (images && !calls.All()) {
    std::fprintf(stderr, "strata diff: error: --calls selects calls; with --images select frames (--frames)\n");
    return 2;
  }

  if (images) {
    inspect::ImageDiffOptions options;
    options.source = source == "captured" ? inspect::ImageSource::kCaptured
                     : source == "replayed" ? inspect::ImageSource::kReplayed
                                            : inspect::ImageSource::kAuto;
    if (!frames.All()) options.wanted = [frames](uint64_t frame) { return frames.Contains(frame); };
    options.tolerance = tolerance.tolerance();
    options.output_dir = output;
    return DiffImageFrames(traces[0], traces[1], options, brief);
  }

  inspect::CallDiffOptions options;
  if (!frames.All() || !calls.All()) {
    options.selected = [frames, calls](uint64_t frame, uint64_t sequence) {
      return frames.Contains(frame) && calls.Contains(sequence);
    };
  }
  options.context = context;
  options.color = color == "always" || (color == "auto" && isatty(STDOUT_FILENO));
  inspect::CallDiffSummary summary;
  std::string error;
  const bool ok = inspect::DiffCalls(traces[0], traces[1], options, brief ? nullptr : stdout, &summary, &error);
  std::fflush(stdout);
  if (!ok) {
    std::fprintf(stderr, "strata diff: error: %s\n", error.c_str());
    return 2;
  }
  for (const std::string* warning : {&summary.warning_a, &summary.warning_b}) {
    if (!warning->empty()) std::fprintf(stderr, "strata diff: warning: %s\n", warning->c_str());
  }
  if (summary.equal()) {
    std::fprintf(stderr, "strata diff: the traces are equal (%llu calls)\n",
                 static_cast<unsigned long long>(summary.calls_a));
  } else {
    std::fprintf(stderr, "strata diff: %llu calls differ: %llu changed, %llu only in A, %llu only in B (A has %llu calls, B %llu)\n",
                 static_cast<unsigned long long>(summary.changed + summary.only_a + summary.only_b),
                 static_cast<unsigned long long>(summary.changed), static_cast<unsigned long long>(summary.only_a),
                 static_cast<unsigned long long>(summary.only_b), static_cast<unsigned long long>(summary.calls_a),
                 static_cast<unsigned long long>(summary.calls_b));
  }
  return summary.equal() ? 0 : 1;
}

}  // namespace strata::tools
