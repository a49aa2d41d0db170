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
#include "common/gpu_times_file.h"
#include "replay/gpu_times.h"
#include "replay/replayer.h"
#include "replay/shader_replacement.h"
#include "strata/api/functions.h"
#include "tools/command.h"
#include "tools/command_line.h"
#include "tools/install_paths.h"
#include "common/range_option.h"
#include "tools/tolerance_options.h"

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
                       more) with the replayed one; say how far those that
                       differ are off (largest channel difference, share of
                       pixels that differ, PSNR) and exit 1 if any is past
                       the tolerance (by default, any that is not equal);
                       with --loop, in every loop
  --threshold N        with --verify: a channel differs when it is off by
                       more than N (0-255, default 0)
  --max-differing P    with --verify: up to P percent of a framebuffer's
                       pixels may differ (default 0)
  --min-psnr DB        with --verify: a framebuffer's PSNR must be at least
                       DB decibels; alone, framebuffers are judged by their
                       PSNR only
  --strict             exit 1 when a call gives back something other than it
                       did when traced (see below)
  --no-check           do not compare what calls give back (a little faster)
  --check-each-call    take the GL error after every call, so that a call
                       that fails here and did not when traced is named
                       exactly (slower: by default the calls that give
                       nothing back run unseen, and such an error is named
                       by the calls since the last one seen)
  --benchmark          print the replay's time and frame rate next to the
                       original run's: the whole run, and the frames after
                       the first (the steady rate a program reports: the
                       first frame holds the setup, shader compiles included).
                       The trace is preloaded (--preload), so that the times
                       are the driver's and the replay's, not the file's
                       reading; a trace whose records do not fit is read from
                       the file, and the replay says so
  --from-file          with --benchmark: read the trace from the file as the
                       replay runs, as without --benchmark (the reading, on a
                       thread of its own, is then part of what is timed)
  --loop N             replay N times (default 1); with --benchmark each
                       loop is timed and the median is reported. The loops
                       after the first run from the records the first one
                       read, kept in memory where they fit (--record-memory;
                       else each reads the file)
  --preload            read the trace (up to the end of --frames) into
                       memory, and decode its calls, before the first loop,
                       so that every loop runs from memory (--benchmark does
                       this unless --from-file; it prints the time this
                       takes apart). Where the records do not fit
                       (--record-memory), the loops read the file (and say so)
  --record-memory SIZE what --loop and --preload may keep in memory of the
                       trace's records and their calls decoded, in bytes or
                       with K, M, G (default: a quarter of this machine's
                       memory)
  --memory SIZE        GL storage (buffers, textures, renderbuffers) the
                       trace's calls may hold, in bytes or with K, M, G; a
                       call past it is not run and gets GL_OUT_OF_MEMORY
                       (default: half this machine's memory; 0: no limit)
  --replace-shader NAME=FILE
                       compile FILE in place of shader or program NAME (the
                       number strata dump prints for glCreateShader,
                       glCreateProgram or glCreateShaderProgramv): a shader
                       gets FILE's source wherever the trace sets its
                       source; a program, at each link, FILE in place of its
                       shader of FILE's stage, named by the extension (.vert,
                       .frag, .comp, .geom, .tesc, .tese). A compile or link
                       error stops the replay with the driver's log (exit
                       1). Repeat for more; --verify then says which frames
                       changed, --snapshot shows them
  --gpu-times FILE     time each draw, dispatch, clear and blit on the GPU
                       (timer queries, GL_EXT_disjoint_timer_query) and
                       write the times to FILE (a call a line: call, frame,
                       context, ns; the median of the loops), for strata
                       export --gpu-times and strata view --gpu-times;
                       prints each frame's slowest calls
  -h, --help           show this help

As it runs, the replay compares what calls give back with what they gave
back when traced, wherever the two must agree on any driver: glGetError (and
the GL error the tracer saw at each frame's end, so a call that fails here
where the app's did not is named), eglGetError, glCheckFramebufferStatus,
compile and link status, sync waits, exact query results, state the app set
read back with glGet*, and whether EGL calls and object creation succeeded.
The driver's own answers (limits, strings, extension lists, precisions and
formats) are compared too where the replay runs on the driver that recorded
the trace (the trace holds its GL_VENDOR, GL_RENDERER and GL_VERSION); on
another driver they are left out, and listed. The first differences are
listed; docs/replay.md says which calls are compared.

Two drivers never draw quite alike: replaying on another driver than the
trace's, verify with a tolerance (docs/replay.md, "Replaying on another
driver", says which suits).

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

// 0 for none (a frame range has no steady span).
double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// Contexts recorded on another driver, a line per pair of drivers.
void PrintOtherDrivers(const std::vector<replay::OtherDriver>& others) {
  std::vector<std::pair<const replay::OtherDriver*, std::vector<uint64_t>>> pairs;
  for (const replay::OtherDriver& other : others) {
    auto same = std::find_if(pairs.begin(), pairs.end(), [&](const auto& pair) {
      return pair.first->recorded == other.recorded && pair.first->replayed == other.replayed;
    });
    if (same == pairs.end()) {
      pairs.push_back({&other, {other.context}});
    } else {
      same->second.push_back(other.context);
    }
  }
  for (const auto& [drivers, contexts] : pairs) {
    std::string names = contexts.size() == 1 ? "context" : "contexts";
    for (size_t i = 0; i < contexts.size(); ++i) names += (i ? ", " : " ") + std::to_string(contexts[i]);
    std::printf("other driver: %s recorded on %s; replayed on %s\n", names.c_str(),
                drivers->recorded.empty() ? "a driver the trace does not name" : drivers->recorded.c_str(),
                drivers->replayed.c_str());
  }
}

// "1,3-5,9": frames as --frames and --snapshot take them.
std::string FrameList(const std::vector<uint64_t>& frames) {
  std::string text;
  for (size_t i = 0; i < frames.size();) {
    size_t j = i;
    while (j + 1 < frames.size() && frames[j + 1] == frames[j] + 1) ++j;
    text += (text.empty() ? "" : ",") + std::to_string(frames[i]) + (j > i ? "-" + std::to_string(frames[j]) : "");
    i = j + 1;
  }
  return text;
}

// What --replace-shader did; false when a replacement named nothing the trace has.
bool ReportReplacements(const std::vector<replay::ShaderReplacement>& replacements) {
  bool all_met = true;
  for (const replay::ShaderReplacement& r : replacements) {
    using Met = replay::ShaderReplacement::Met;
    if (r.met == Met::kNot) {
      std::fprintf(stderr,
                   "strata replay: error: --replace-shader %llu=%s: the replay met no shader or program %llu (strata "
                   "dump names them: glCreateShader, glCreateProgram, glCreateShaderProgramv)\n",
                   static_cast<unsigned long long>(r.name), r.path.c_str(), static_cast<unsigned long long>(r.name));
      all_met = false;
      continue;
    }
    std::printf("replace-shader: %s %llu from %s: %s %llu time%s\n", r.met == Met::kShader ? "shader" : "program",
                static_cast<unsigned long long>(r.name), r.path.c_str(), r.met == Met::kShader ? "compiled" : "linked",
                static_cast<unsigned long long>(r.uses), r.uses == 1 ? "" : "s");
  }
  return all_met;
}

// --gpu-times: the file, and a summary with each frame's slowest calls.
bool ReportGpuTimes(const replay::GpuTimer& timer, const std::string& trace, const std::string& path) {
  const GpuTimesFile file = timer.Result(trace);
  const replay::GpuTimerSummary& summary = timer.summary();
  std::string error;
  if (!WriteGpuTimesFile(path, file, &error)) {
    std::fprintf(stderr, "strata replay: error: --gpu-times: %s\n", error.c_str());
    return false;
  }
  uint64_t total = 0;
  for (const GpuTime& call : file.calls) total += call.ns;
  std::printf("gpu times: %zu calls measured on %s, %.3f ms in all%s; written to %s\n", file.calls.size(),
              file.renderer.empty() ? "(no driver answered)" : file.renderer.c_str(), total / 1e6,
              file.loops > 1 ? (" (each the median of " + std::to_string(file.loops) + " loops)").c_str() : "",
              path.c_str());
  if (summary.disjoint) {
    std::printf("gpu times: %llu measurements dropped: the driver reported a disjoint event (GL_GPU_DISJOINT_EXT) "
                "while they ran\n",
                static_cast<unsigned long long>(summary.disjoint));
  }
  if (summary.not_measured) {
    std::string why;
    for (const std::string& note : summary.notes) why += (why.empty() ? "" : "; ") + note;
    std::printf("gpu times: %llu calls not measured: %s\n", static_cast<unsigned long long>(summary.not_measured),
                why.c_str());
  }
  // The slowest three of each frame, for the first frames.
  constexpr size_t kFramesShown = 10, kPerFrame = 3;
  size_t frames_shown = 0;
  for (size_t i = 0; i < file.calls.size() && frames_shown < kFramesShown;) {
    size_t end = i;
    uint64_t frame_total = 0;
    while (end < file.calls.size() && file.calls[end].frame == file.calls[i].frame) frame_total += file.calls[end++].ns;
    std::vector<GpuTime> frame(file.calls.begin() + static_cast<ptrdiff_t>(i), file.calls.begin() + static_cast<ptrdiff_t>(end));
    std::sort(frame.begin(), frame.end(), [](const GpuTime& a, const GpuTime& b) { return a.ns > b.ns; });
    std::printf("  frame %llu: %.3f ms on the GPU; slowest:", static_cast<unsigned long long>(file.calls[i].frame),
                frame_total / 1e6);
    for (size_t k = 0; k < frame.size() && k < kPerFrame; ++k) {
      std::printf("%s call %llu %s %.3f ms", k ? "," : "", static_cast<unsigned long long>(frame[k].sequence),
                  frame[k].slot >= 0 ? api::kFunctions[frame[k].slot].name : "", frame[k].ns / 1e6);
    }
    std::printf("\n");
    ++frames_shown;
    i = end;
  }
  return true;
}

void PrintIgnoredAnswers(const std::vector<replay::IgnoredAnswers>& ignored) {
  if (ignored.empty()) return;
  constexpr size_t kShown = 20;
  uint64_t count = 0, differing = 0;
  for (const replay::IgnoredAnswers& answers : ignored) count += answers.count, differing += answers.differing;
  std::printf("check: %llu of the driver's own answers not compared (their contexts were recorded on another "
              "driver, or the trace does not say on which); %llu of them differ:\n",
              static_cast<unsigned long long>(count), static_cast<unsigned long long>(differing));
  for (size_t i = 0; i < ignored.size() && i < kShown; ++i) {
    std::printf("  %s: %llu call%s%s\n", ignored[i].function.c_str(), static_cast<unsigned long long>(ignored[i].count),
                ignored[i].count == 1 ? "" : "s",
                ignored[i].differing == 0 ? ""
                : ignored[i].differing == ignored[i].count
                    ? ", differs"
                    : (", " + std::to_string(ignored[i].differing) + " differ").c_str());
  }
  if (ignored.size() > kShown) std::printf("  and %zu more kinds\n", ignored.size() - kShown);
}

}  // namespace

int ReplayCommandMain(int argc, char** argv) {
  replay::ReplayOptions options;
  bool memory_given = false;
  bool benchmark = false, strict = false, from_file = false;
  std::string path, output, gpu_times_path;
  std::vector<replay::ShaderReplacement> replacements;
  auto usage_error = [](const std::string& message) {
    std::fprintf(stderr, "strata replay: error: %s\n\n%s", message.c_str(), kUsage);
    return 2;
  };
  std::vector<OptionSpec> specs = {{"help", 'h', false}, {"window", 0, false},    {"verify", 0, false},
                                   {"strict", 0, false}, {"no-check", 0, false}, {"check-each-call", 0, false}, {"benchmark", 0, false},
                                   {"preload", 0, false}, {"from-file", 0, false}, {"record-memory", 0, true},
                                   {"snapshot", 0, true}, {"output", 'o', true}, {"memory", 0, true},
                                   {"loop", 0, true},     {"frames", 0, true},   {"replace-shader", 0, true},
                                   {"gpu-times", 0, true}};
  ToleranceOptions tolerance;
  for (const OptionSpec& spec : ToleranceOptions::Specs()) specs.push_back(spec);
  CommandLine args("strata replay", kUsage, specs, argc, argv);
  while (args.Next()) {
    const std::string value = args.value() ? args.value() : "";
    bool taken = true;
    if (tolerance.Take(args, &taken)) {
      if (!taken) return 2;
    } else if (args.Is("help")) {
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
    } else if (args.Is("check-each-call")) {
      options.check_each_call = true;
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
    } else if (args.Is("replace-shader")) {
      replay::ShaderReplacement replacement;
      std::string error;
      if (!replay::ParseShaderReplacement(value, &replacement, &error)) {
        if (error.starts_with("--replace-shader takes")) return usage_error(error);
        std::fprintf(stderr, "strata replay: error: %s\n", error.c_str());
        return 1;
      }
      replacements.push_back(std::move(replacement));
    } else if (args.Is("gpu-times")) {
      if (value.empty()) return usage_error("--gpu-times takes the file to write the times to");
      gpu_times_path = value;
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
    } else if (args.Is("preload")) {
      options.preload = true;
    } else if (args.Is("from-file")) {
      from_file = true;
    } else if (args.Is("record-memory")) {
      if (!ParseByteSize(value, &options.record_memory) || options.record_memory == 0) {
        return usage_error("--record-memory takes a size above 0 (1073741824, 512M, 4G), not '" + value + "'");
      }
    }
  }
  if (args.failed()) return 2;
  if (args.operands().size() > 1) return usage_error("one trace at a time");
  if (!args.operands().empty()) path = args.operands()[0];
  if (path.empty()) return usage_error("no trace given");
  if (!memory_given) options.memory_limit = PhysicalMemoryBytes() / 2;
  if (from_file && options.preload) return usage_error("--from-file and --preload ask for opposite things");
  if (from_file && !benchmark) return usage_error("--from-file is for --benchmark (a replay reads the file unless --preload)");
  if (benchmark && !from_file) options.preload = true;
  if (strict && !options.check) return usage_error("--strict needs the checks that --no-check turns off");
  if (options.check_each_call && !options.check) {
    return usage_error("--check-each-call and --no-check ask for opposite things");
  }
  if (tolerance.given() && !options.verify) {
    return usage_error("--threshold, --max-differing and --min-psnr are for --verify");
  }
  options.tolerance = tolerance.tolerance();
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

  if (!replacements.empty()) options.hooks.push_back(replay::ShaderReplacementHooks(replacements));
  replay::GpuTimer gpu_timer;
  if (!gpu_times_path.empty()) options.hooks.push_back(gpu_timer.Hooks());

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
  if (options.preload && !benchmark && !result.loops_note.empty()) std::printf("%s\n", result.loops_note.c_str());
  if (benchmark) {
    double seconds = Median(result.loop_seconds);
    std::printf("replay: %.3f s, %.1f fps", seconds, seconds > 0 ? double(result.frames) / seconds : 0.0);
    if (result.loop_seconds.size() > 1) std::printf(" (median of %zu loops)", result.loop_seconds.size());
    std::printf("\n");
    if (!result.loops_note.empty()) std::printf("%s\n", result.loops_note.c_str());
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
  if (!ReportReplacements(replacements)) return 1;
  if (!gpu_times_path.empty() && !ReportGpuTimes(gpu_timer, path, gpu_times_path)) return 1;
  PrintOtherDrivers(result.other_drivers);
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
      bool ranges = false;
      for (const replay::CallDifference& d : result.call_differences) {
        std::string where = "call " + std::to_string(d.sequence) + (d.function.empty() ? "" : " " + d.function);
        if (d.first != UINT64_MAX) {
          // An error raised by calls that give nothing back, which run unseen.
          where = "calls " + std::to_string(d.first) + "-" + std::to_string(d.sequence) +
                  (d.function.empty() ? "" : " (the last " + d.function + ")");
          ranges = true;
        }
        std::printf("  %s: recorded %s, replayed %s\n", where.c_str(), d.recorded.c_str(), d.replayed.c_str());
      }
      if (ranges) std::printf("  (--check-each-call names the call of a range that raised the error)\n");
    }
    PrintIgnoredAnswers(result.ignored_answers);
  }
  if (options.verify) {
    if (result.framebuffers_checked == 0) {
      std::fprintf(stderr,
                   "strata replay: error: --verify: the trace holds no framebuffer images (the app drew nothing the "
                   "tracer could read at its end, or it was traced with --capture none)\n");
      return 1;
    }
    const std::string tolerance = options.tolerance.exact() ? "" : " the tolerance (" + options.tolerance.Describe() + ")";
    if (result.framebuffers_differing == 0) {
      std::printf("verify: all %llu framebuffers match the trace%s%s\n",
                  static_cast<unsigned long long>(result.framebuffers_checked),
                  tolerance.empty() ? "" : (" within" + tolerance).c_str(),
                  options.loops > 1 ? (" (" + std::to_string(options.loops) + " loops)").c_str() : "");
    } else {
      std::printf("verify: %llu of %llu framebuffers differ%s:\n",
                  static_cast<unsigned long long>(result.framebuffers_differing),
                  static_cast<unsigned long long>(result.framebuffers_checked),
                  tolerance.empty() ? "" : (" past" + tolerance).c_str());
      for (const replay::FramebufferMismatch& m : result.mismatches) {
        std::printf("  frame %llu, before call %llu, framebuffer %llu: %s%s\n", static_cast<unsigned long long>(m.frame),
                    static_cast<unsigned long long>(m.sequence), static_cast<unsigned long long>(m.framebuffer),
                    m.unread ? "could not be read back"
                             : DescribeDifference(m.difference, options.tolerance.threshold).c_str(),
                    m.unread ? "" : (", first at x=" + std::to_string(m.first_x) + " y=" + std::to_string(m.first_y)).c_str());
      }
      if (result.framebuffers_differing > result.mismatches.size()) {
        std::printf("  and %llu more\n",
                    static_cast<unsigned long long>(result.framebuffers_differing - result.mismatches.size()));
      }
      std::printf("verify: frames that differ: %s\n", FrameList(result.differing_frames).c_str());
    }
    if (result.worst.frames > 0) {
      std::printf("verify: %llu framebuffers not equal to the trace's%s; the furthest off: %s\n",
                  static_cast<unsigned long long>(result.worst.frames),
                  result.framebuffers_tolerated
                      ? (" (" + std::to_string(result.framebuffers_tolerated) + " within the tolerance)").c_str()
                      : "",
                  result.worst.Describe().c_str());
    }
    if (result.framebuffers_differing != 0) return 1;
  }
  return strict && differs ? 1 : 0;
}

}  // namespace strata::tools
