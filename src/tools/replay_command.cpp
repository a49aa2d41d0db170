// strata replay TRACE: runs a trace's calls again on this machine's GLES driver.
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "common/byte_size.h"
#include "replay/replayer.h"
#include "tools/command.h"
#include "tools/command_line.h"
#include "tools/install_paths.h"
#include "tools/range_option.h"

namespace strata::tools {
namespace {

constexpr char kUsage[] = R"(usage: strata replay [options] TRACE

Runs the EGL/GLES calls of a trace again on this machine's driver. Object
names, contexts and surfaces are mapped to the ones the replay creates; each
thread of the trace is replayed on a thread of its own, in recorded order.
By default nothing is shown: window surfaces become pbuffers of the traced
windows' size.

options:
  --window             replay into X11 windows (needs DISPLAY)
  --frames A-B         replay frames A to B only (also N, or A- to the end):
                       the calls before A run to build the state, but their
                       draws into the surface are skipped (unless something
                       before A reads a framebuffer back), and the replay
                       ends after B; --benchmark, --snapshot and --verify
                       cover A to B
  --snapshot FRAMES    save these frames as PNG, e.g. 0,5,10-20 or 3- (needs -o)
  -o, --output DIR     directory for snapshots (created if missing)
  --verify             compare every framebuffer captured in the trace (the
                       final frame, and with strata trace --capture swap|draw
                       more) with the replayed one; report mismatches and
                       exit 1 if any
  --strict             exit 1 when a call gives back something other than it
                       did when traced (see below)
  --no-check           do not compare what calls give back (a little faster)
  --benchmark          print the replay's time and frame rate next to the
                       original run's: the whole run, and the frames after
                       the first (the steady rate a program reports: the
                       first frame holds the setup, shader compiles included)
  --loop N             replay N times (default 1); with --benchmark each
                       loop is timed and the median is reported
  --memory SIZE        GL storage (buffers, textures, renderbuffers) the
                       trace's calls may hold, in bytes or with K, M, G; a
                       call past it is not run and gets GL_OUT_OF_MEMORY
                       (default: half this machine's memory; 0: no limit)
  -h, --help           show this help

As it runs, the replay compares what calls give back with what they gave
back when traced, wherever the two must agree on any driver: glGetError (and
the GL error the tracer saw at each frame's end, so a call that fails here
where the app's did not is named), eglGetError, glCheckFramebufferStatus,
compile and link status, sync waits, exact query results, state the app set
read back with glGet*, and whether EGL calls and object creation succeeded.
The first differences are listed; docs/replay.md says which calls are compared.

exit status: 0 replayed (and verified), 1 a framebuffer mismatch, a call that
differs with --strict, an unreadable or damaged trace, or no usable driver;
2 bad usage.
)";

bool MakeDirectory(const std::string& path, std::string* error) {
  struct stat st;
  if (stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return true;
    *error = path + " exists and is not a directory";
    return false;
  }
  if (mkdir(path.c_str(), 0755) != 0) {
    *error = "cannot create " + path + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

}  // namespace

int ReplayCommandMain(int argc, char** argv) {
  replay::ReplayOptions options;
  bool memory_given = false;
  bool benchmark = false, strict = false;
  std::string path, output;
  auto usage_error = [](const std::string& message) {
    std::fprintf(stderr, "strata replay: error: %s\n\n%s", message.c_str(), kUsage);
    return 2;
  };
  CommandLine args("strata replay", kUsage,
                   {{"help", 'h', false}, {"window", 0, false}, {"verify", 0, false}, {"strict", 0, false},
                    {"no-check", 0, false}, {"benchmark", 0, false}, {"snapshot", 0, true}, {"output", 'o', true},
                    {"memory", 0, true}, {"loop", 0, true}, {"frames", 0, true}},
                   argc, argv);
  while (args.Next()) {
    const std::string value = args.value() ? args.value() : "";
    if (args.Is("help")) {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (args.Is("window")) {
      options.window = true;
    } else if (args.Is("verify")) {
      options.verify = true;
    } else if (args.Is("strict")) {
      strict = true;
    } else if (args.Is("no-check")) {
      options.check = false;
    } else if (args.Is("benchmark")) {
      benchmark = true;
    } else if (args.Is("snapshot")) {
      Range frames;
      if (!ParseRange(value, &frames)) {
        return usage_error("--snapshot takes frames like 0,5,10-20 or 3-, not '" + value + "'");
      }
      options.snapshot_frames.insert(options.snapshot_frames.end(), frames.parts.begin(), frames.parts.end());
    } else if (args.Is("frames")) {
      Range frames;
      if (!ParseRange(value, &frames) || frames.parts.size() != 1) {
        return usage_error("--frames takes one range of frames, A-B, A- or N, not '" + value + "'");
      }
      options.first_frame = frames.parts[0].first;
      options.last_frame = frames.parts[0].second;
    } else if (args.Is("output")) {
      output = value;
    } else if (args.Is("memory")) {
      if (!ParseByteSize(value, &options.memory_limit)) {
        return usage_error("--memory takes a size (1073741824, 512M, 4G), not '" + value + "'");
      }
      memory_given = true;
    } else if (args.Is("loop")) {
      char* end = nullptr;
      long loops = std::strtol(value.c_str(), &end, 10);
      if (value.empty() || *end != '\0' || loops < 1 || loops > 1000000) return usage_error("--loop takes a number from 1");
      options.loops = static_cast<int>(loops);
    }
  }
  if (args.failed()) return 2;
  if (args.operands().size() > 1) return usage_error("one trace at a time");
  if (!args.operands().empty()) path = args.operands()[0];
  if (path.empty()) return usage_error("no trace given");
  if (!memory_given) options.memory_limit = PhysicalMemoryBytes() / 2;
  if (strict && !options.check) return usage_error("--strict needs the checks that --no-check turns off");
  if (!options.snapshot_frames.empty() && output.empty()) return usage_error("--snapshot needs -o DIR");
  if (options.snapshot_frames.empty() && !output.empty()) return usage_error("-o DIR is for --snapshot");
  std::string error;
  if (!output.empty() && !MakeDirectory(output, &error)) {
    std::fprintf(stderr, "strata replay: error: %s\n", error.c_str());
    return 1;
  }
  options.snapshot_dir = output;
  options.strata_lib_dir = StrataLibraryDirectory();
  options.progress = true;

  replay::ReplayResult result;
  bool ok = replay::Replay(path, options, &result, &error);
  for (const std::string& problem : result.problems) std::fprintf(stderr, "strata replay: note: %s\n", problem.c_str());
  if (!result.warning.empty()) std::fprintf(stderr, "strata replay: warning: %s\n", result.warning.c_str());
  if (!ok) {
    std::fprintf(stderr, "strata replay: error: %s\n", error.c_str());
    return 1;
  }
  if (options.first_frame > 0) {
    if (!result.fast_forward_note.empty()) {
      std::fprintf(stderr, "strata replay: note: frames before %llu were rendered in full: %s\n",
                   static_cast<unsigned long long>(options.first_frame), result.fast_forward_note.c_str());
    } else {
      std::printf("fast-forwarded to frame %llu: %llu draws and clears into the surface skipped\n",
                  static_cast<unsigned long long>(options.first_frame),
                  static_cast<unsigned long long>(result.fast_forwarded_draws));
    }
    if (result.frames == 0) {
      std::fprintf(stderr, "strata replay: error: the trace ends before frame %llu\n",
                   static_cast<unsigned long long>(options.first_frame));
      return 1;
    }
  }
  std::printf("replayed %llu calls, %llu frames%s", static_cast<unsigned long long>(result.calls),
              static_cast<unsigned long long>(result.frames), options.first_frame > 0 ? " in the range" : "");
  if (result.skipped_calls) std::printf(" (%llu calls could not run)", static_cast<unsigned long long>(result.skipped_calls));
  std::printf("\n");
  if (!result.snapshots.empty()) {
    std::printf("wrote %zu snapshots to %s\n", result.snapshots.size(), output.c_str());
  } else if (!options.snapshot_frames.empty()) {
    std::fprintf(stderr, "strata replay: warning: the trace has none of the frames asked for (it has %llu)\n",
                 static_cast<unsigned long long>(result.frames));
  }
  if (benchmark) {
    double seconds = Median(result.loop_seconds);
    std::printf("replay: %.3f s, %.1f fps", seconds, seconds > 0 ? double(result.frames) / seconds : 0.0);
    if (result.loop_seconds.size() > 1) std::printf(" (median of %zu loops)", result.loop_seconds.size());
    std::printf("\n");
    if (result.traced_seconds > 0) {
      std::printf("original run: %.3f s, %.1f fps; replay speed %.2fx the original\n", result.traced_seconds,
                  double(result.frames) / result.traced_seconds, result.traced_seconds / seconds);
    }
    const double steady = Median(result.steady_seconds);
    if (result.steady_frames > 0 && steady > 0 && result.traced_steady_seconds > 0) {
      const double frames = double(result.steady_frames);
      std::printf("frames after the first (no setup): replay %.3f s, %.1f fps; original %.3f s, %.1f fps; replay speed "
                  "%.2fx the original\n",
                  steady, frames / steady, result.traced_steady_seconds, frames / result.traced_steady_seconds,
                  result.traced_steady_seconds / steady);
    }
  }
  bool differs = false;
  if (options.check) {
    if (result.calls_differing == 0) {
      std::printf("check: %llu calls compared with the recording, all agree\n",
                  static_cast<unsigned long long>(result.calls_compared));
    } else {
      differs = true;
      std::printf("check: %llu of %llu compared calls differ from the recording; the first:\n",
                  static_cast<unsigned long long>(result.calls_differing),
                  static_cast<unsigned long long>(result.calls_compared));
      for (const replay::CallDifference& d : result.call_differences) {
        std::printf("  call %llu %s: recorded %s, replayed %s\n", static_cast<unsigned long long>(d.sequence),
                    d.function.c_str(), d.recorded.c_str(), d.replayed.c_str());
      }
    }
  }
  if (options.verify) {
    if (result.framebuffers_checked == 0) {
      std::fprintf(stderr,
                   "strata replay: error: --verify: the trace holds no framebuffer images (the app drew nothing the "
                   "tracer could read at its end, or it was traced with --capture none)\n");
      return 1;
    }
    if (result.framebuffers_differing == 0) {
      std::printf("verify: all %llu framebuffers match the trace\n",
                  static_cast<unsigned long long>(result.framebuffers_checked));
    } else {
      const replay::FramebufferMismatch& m = result.mismatches.front();
      std::printf("verify: %llu of %llu framebuffers differ; first: frame %llu, before call %llu, framebuffer %llu: "
                  "%llu of %llu pixels differ (largest channel difference %d), first at x=%d y=%d\n",
                  static_cast<unsigned long long>(result.framebuffers_differing),
                  static_cast<unsigned long long>(result.framebuffers_checked),
                  static_cast<unsigned long long>(m.frame), static_cast<unsigned long long>(m.sequence),
                  static_cast<unsigned long long>(m.framebuffer), static_cast<unsigned long long>(m.differing_pixels),
                  static_cast<unsigned long long>(m.total_pixels), m.max_difference, m.first_x, m.first_y);
      return 1;
    }
  }
  return strict && differs ? 1 : 0;
}

}  // namespace strata::tools
