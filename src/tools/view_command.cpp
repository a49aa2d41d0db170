// strata view TRACE -o report.html: the trace as one self-contained HTML page.
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "stream/frame_numbering.h"
#include "common/gpu_times_file.h"
#include "common/json_writer.h"
#include "inspect/gl_state.h"
#include "inspect/pixel_history.h"
#include "replay/replayer.h"
#include "tools/command.h"
#include "tools/install_paths.h"
#include "tools/command_line.h"
#include "view/captured_images.h"
#include "view/replayed_images.h"
#include "view/html_report.h"
#include "view/image_scaling.h"
#include "view/png_encoder.h"
#include "view/report_model.h"

namespace strata::tools {
namespace {

constexpr char kUsage[] = R"(usage: strata view [options] TRACE [-o REPORT.html]

Writes one self-contained HTML page about a trace, to open in any browser
(nothing is fetched: styles, script, data and images are inside):
  overview   program, command line, driver, totals, a bar per frame
             (click one to open it), frame images
  frames     each frame's calls with their arguments (as strata dump prints
             them), thread, context and duration; draws highlighted;
             filter by text or /regex/; a click on the frame's image
             gives that pixel's history (--pixel) or its command
  errors     glGetError/eglGetError calls that reported an error, with the
             call each follows; calls with data Strata did not capture
  shaders    shader sources with their types, linked programs, and the
             strata replay --replace-shader command that edits each
  uploads    the calls that sent the most data to the driver

options:
  -o, --output FILE        the page to write (default: TRACE without its
                           .strace extension, plus .html)
  --thumbnails auto|captured|replayed|none
                           frame images from the trace's framebuffer
                           records (strata trace --capture swap), from
                           replaying the trace headless on this machine's
                           driver, or none (default auto: captured when the
                           trace has images, else replayed)
  --max-thumbnails N       images of at most N frames, spread evenly over
                           the trace (default 200; 0 for every frame)
  --thumbnail-size PX      scale images down to at most PX on either side
                           (default 320)
  --state-frames LIST      replay the trace and keep the GL state before
                           each draw of these frames (e.g. 3 or 0,5-6; at
                           most 500 draws), shown with the call when it is
                           selected, with its bound textures' images
                           (strata state's JSON; docs/inspect.md)
  --gpu-times FILE         the GPU time of each draw, dispatch, clear and
                           blit, as strata replay --gpu-times FILE measured
                           it: a column of the call list, each frame's
                           slowest calls, a GPU bar per frame
  --pixel FRAME:X,Y        the history of that pixel (strata pixel), shown
                           when it is clicked on the frame's image; repeat
                           for more. A click on any other pixel shows the
                           strata pixel command that tells its history
  -h, --help               show this help

A trace cut short (its program killed) gives a report of what it holds,
with a warning; a damaged or foreign file is an error (exit status 1).
)";

std::string DefaultOutput(const std::string& trace) {
  std::string base = trace;
  const size_t slash = base.rfind('/');
  const size_t dot = base.rfind('.');
  if (dot != std::string::npos && (slash == std::string::npos || dot > slash) && base.substr(dot) == ".strace") {
    base.resize(dot);
  }
  return base + ".html";
}

// Writes `page` to `path`. On failure, removes what it created (never a
// device or anything it did not create as a regular file) and says why.
bool WriteFile(const std::string& path, const std::string& page, std::string* error) {
  struct stat before{};
  const bool existed = stat(path.c_str(), &before) == 0;
  if (existed && S_ISDIR(before.st_mode)) {
    *error = "cannot write " + path + ": it is a directory";
    return false;
  }
  FILE* file = std::fopen(path.c_str(), "wb");
  if (!file) {
    *error = "cannot write " + path + ": " + std::strerror(errno);
    return false;
  }
  size_t written = std::fwrite(page.data(), 1, page.size(), file);
  int saved_errno = errno;
  bool ok = written == page.size() && std::fflush(file) == 0;
  if (!ok && saved_errno == 0) saved_errno = errno;
  if (std::fclose(file) != 0 && ok) {
    ok = false;
    saved_errno = errno;
  }
  if (!ok) {
    *error = "cannot write " + path + ": " + std::strerror(saved_errno ? saved_errno : EIO);
    struct stat after{};
    if ((!existed || S_ISREG(before.st_mode)) && stat(path.c_str(), &after) == 0 && S_ISREG(after.st_mode)) {
      unlink(path.c_str());
    }
    return false;
  }
  return true;
}

constexpr size_t kMaxStates = 500;

// --state-frames: the GL state before each draw of the chosen frames, from
// one replay that reads it on the way (strata state's reading, its images
// scaled down and inlined).
bool AddDrawStates(const std::string& trace, const view::ReportModel& model, const Range& frames,
                   view::HtmlReportOptions* page) {
  std::set<uint64_t> draws;
  size_t left_out = 0;
  for (size_t f = 0; f < model.frames.size(); ++f) {
    if (!frames.Contains(f)) continue;
    const view::ReportFrame& frame = model.frames[f];
    for (size_t i = frame.first_call; i < frame.first_call + frame.call_count && i < model.calls.size(); ++i) {
      if (!(model.calls[i].flags & view::kReportDraw)) continue;
      if (draws.size() < kMaxStates) {
        draws.insert(model.calls[i].sequence);
      } else {
        ++left_out;
      }
    }
  }
  if (left_out) {
    std::fprintf(stderr, "strata view: warning: --state-frames: the state of the first %zu draws only (%zu more left out)\n",
                 kMaxStates, left_out);
  }
  if (draws.empty()) {
    std::fprintf(stderr, "strata view: warning: --state-frames: the frames chosen hold no draws\n");
    return true;
  }
  std::fprintf(stderr, "strata view: replaying for the GL state before %zu draws\n", draws.size());
  inspect::GlStateOptions state_options;
  state_options.base_levels_only = true;
  state_options.image_sink = [page](int width, int height, const std::vector<uint8_t>& rgba) -> std::string {
    view::FrameImage full, shown;
    full.width = static_cast<uint32_t>(width);
    full.height = static_cast<uint32_t>(height);
    full.rgba = view::FlipRows(rgba, full.width, full.height);
    if (!view::DownscaleToFit(full, 256, &shown)) return {};
    std::vector<uint8_t> png = view::EncodePng(shown.rgba, shown.width, shown.height);
    if (png.empty()) return {};
    // One copy of each image however many draws see it.
    char id[20];
    std::snprintf(id, sizeof id, "%016zx", std::hash<std::string_view>{}(
        std::string_view(reinterpret_cast<const char*>(png.data()), png.size())));
    page->state_images.emplace(id, std::move(png));
    return std::string("state-image:") + id;
  };
  replay::ReplayOptions options;
  options.strata_lib_dir = StrataLibraryDirectory();
  options.check = false;
  options.stop_before_call = *draws.rbegin() + 1;
  options.before_call = [&](host::Executor& executor, const stream::DecodedCall& call) {
    if (!draws.count(call.sequence)) return;
    const uint32_t thread = static_cast<uint32_t>(call.thread);
    if (executor.CurrentVersion(thread) == 0) return;
    JsonWriter json;
    inspect::GlStateFiles files;
    inspect::WriteGlState(executor, thread, state_options, json, &files);
    page->call_states[call.sequence] = json.str();
  };
  replay::ReplayResult result;
  std::string error;
  if (!replay::Replay(trace, options, &result, &error)) {
    std::fprintf(stderr, "strata view: error: replaying for the GL state: %s\n", error.c_str());
    return false;
  }
  return true;
}

// FRAME:X,Y of --pixel.
bool ParsePixel(const std::string& text, inspect::PixelHistoryOptions* pixel) {
  unsigned long long frame = 0;
  int x = 0, y = 0;
  char end = 0;
  if (std::sscanf(text.c_str(), "%llu:%d,%d%c", &frame, &x, &y, &end) != 3 || x < 0 || y < 0) return false;
  pixel->frame = frame;
  pixel->x = x;
  pixel->y = y;
  return true;
}

// --pixel: each history as strata pixel --json writes it.
bool AddPixelHistories(const std::string& trace, const std::vector<inspect::PixelHistoryOptions>& pixels,
                       view::HtmlReportOptions* page) {
  for (inspect::PixelHistoryOptions pixel : pixels) {
    std::fprintf(stderr, "strata view: replaying for the history of pixel %d,%d of frame %llu\n", pixel.x, pixel.y,
                 static_cast<unsigned long long>(pixel.frame));
    pixel.strata_lib_dir = StrataLibraryDirectory();
    inspect::PixelHistory history;
    std::string error;
    if (!inspect::BuildPixelHistory(trace, pixel, &history, &error)) {
      std::fprintf(stderr, "strata view: error: --pixel %llu:%d,%d: %s\n", static_cast<unsigned long long>(pixel.frame),
                   pixel.x, pixel.y, error.c_str());
      return false;
    }
    JsonWriter json;
    inspect::WritePixelHistoryJson(history, json);
    page->pixel_histories.emplace_back(pixel.frame, json.str());
  }
  return true;
}

}  // namespace

int ViewCommandMain(int argc, char** argv) {
  Range state_frames;
  bool with_states = false;
  std::string trace, output, thumbnails = "auto", gpu_times_path;
  std::vector<inspect::PixelHistoryOptions> pixels;
  uint64_t max_thumbnails = 200, thumbnail_size = 320;
  CommandLine args("strata view", kUsage,
                   {{"help", 'h', false}, {"output", 'o', true}, {"thumbnails", 0, true}, {"max-thumbnails", 0, true},
                    {"thumbnail-size", 0, true}, {"state-frames", 0, true}, {"gpu-times", 0, true},
                    {"pixel", 0, true}},
                   argc, argv);
  while (args.Next()) {
    if (args.Is("help")) {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (args.Is("output")) {
      output = args.value();
    } else if (args.Is("thumbnails")) {
      thumbnails = args.value();
      if (thumbnails != "auto" && thumbnails != "captured" && thumbnails != "replayed" && thumbnails != "none") {
        std::fprintf(stderr, "strata view: error: --thumbnails is auto, captured, replayed or none, not '%s'\n",
                     thumbnails.c_str());
        return 2;
      }
    } else if (args.Is("state-frames")) {
      if (!args.List(&state_frames)) return 2;
      with_states = true;
    } else if (args.Is("gpu-times")) {
      gpu_times_path = args.value();
    } else if (args.Is("pixel")) {
      inspect::PixelHistoryOptions pixel;
      if (!ParsePixel(args.value(), &pixel)) {
        args.Refuse("a frame and a pixel as FRAME:X,Y (X,Y from the image's top-left corner)");
        return 2;
      }
      pixels.push_back(pixel);
    } else if (args.Is("max-thumbnails")) {
      if (!args.Count(&max_thumbnails)) return 2;
    } else if (args.Is("thumbnail-size")) {
      if (!args.Count(&thumbnail_size)) return 2;
      if (thumbnail_size < 16 || thumbnail_size > 4096) {
        std::fprintf(stderr, "strata view: error: --thumbnail-size takes a size from 16 to 4096, not '%s'\n",
                     args.value());
        return 2;
      }
    }
  }
  if (args.failed() || !args.OneTrace(&trace)) return 2;
  if (output.empty()) output = DefaultOutput(trace);

  const auto started = std::chrono::steady_clock::now();
  std::string error;
  view::ReportModel model;
  if (!view::BuildReportModel(trace, view::ReportModelOptions{}, &model, &error)) {
    std::fprintf(stderr, "strata view: error: %s\n", error.c_str());
    return 1;
  }
  if (!model.warning.empty()) std::fprintf(stderr, "strata view: warning: %s\n", model.warning.c_str());

  view::CapturedImageResult captured;
  view::HtmlReportOptions page_options;
  page_options.image_max_side = static_cast<uint32_t>(thumbnail_size);
  if (thumbnails == "auto") thumbnails = model.totals.framebuffer_images > 0 ? "captured" : "replayed";
  if (thumbnails == "replayed" && !model.frames.empty()) {
    // Frames spread evenly over the trace; the replay reads them back at their eglSwapBuffers.
    view::ReplayedImageOptions options;
    options.max_side = page_options.image_max_side;
    options.strata_lib_dir = StrataLibraryDirectory();
    const uint64_t count = model.frames.size(), wanted = max_thumbnails == 0 ? count : std::min(count, max_thumbnails);
    for (uint64_t k = 0; k < wanted; ++k) {
      uint64_t frame = wanted == 1 ? count - 1 : k * (count - 1) / (wanted - 1);
      if (options.frames.empty() || options.frames.back() != frame) options.frames.push_back(frame);
    }
    if (!view::ReadReplayedImages(trace, options, &captured.images, &error)) {
      std::fprintf(stderr, "strata view: warning: no frame images: %s\n", error.c_str());
    }
    page_options.image_source = "replayed on this machine";
  }
  if (thumbnails == "captured" && model.totals.framebuffer_images > 0) {
    view::CapturedImageOptions options;
    options.max_side = page_options.image_max_side;
    const std::vector<uint64_t>& candidates = model.frames_with_images;
    if (max_thumbnails != 0 && candidates.size() > max_thumbnails) {
      // Frames spread evenly from the first frame with an image to the last.
      auto chosen = std::make_shared<std::vector<bool>>(model.frames.size(), false);
      const uint64_t last = candidates.size() - 1;
      for (uint64_t k = 0; k < max_thumbnails; ++k) {
        (*chosen)[candidates[max_thumbnails == 1 ? last : k * last / (max_thumbnails - 1)]] = true;
      }
      options.wanted = [chosen](uint64_t frame) { return frame < chosen->size() && (*chosen)[frame]; };
    }
    if (!view::ReadCapturedImages(trace, options, &captured, &error)) {
      std::fprintf(stderr, "strata view: error: %s\n", error.c_str());
      return 1;
    }
    if (captured.skipped) {
      std::fprintf(stderr, "strata view: warning: %llu framebuffer images are in a format the report cannot show\n",
                   static_cast<unsigned long long>(captured.skipped));
    }
  }
  if (thumbnails == "captured") page_options.image_source = "captured in the trace";

  if (with_states && !AddDrawStates(trace, model, state_frames, &page_options)) return 1;
  GpuTimesFile gpu_times;
  if (!gpu_times_path.empty()) {
    if (!ReadGpuTimesFile(gpu_times_path, &gpu_times, &error)) {
      std::fprintf(stderr, "strata view: error: --gpu-times: %s\n", error.c_str());
      return 1;
    }
    page_options.gpu_times = &gpu_times;
  }
  if (!AddPixelHistories(trace, pixels, &page_options)) return 1;

  const std::string page = view::BuildHtmlReport(model, captured.images, page_options);
  if (!WriteFile(output, page, &error)) {
    std::fprintf(stderr, "strata view: error: %s\n", error.c_str());
    return 1;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::printf("strata view: wrote %s (%.1f KiB): %llu calls in %s, %zu images, in %.2f s\n", output.c_str(),
              page.size() / 1024.0, static_cast<unsigned long long>(model.totals.calls),
              stream::FrameSummary(model.ended_frames, model.calls_after_last_frame).c_str(),
              captured.images.size(), seconds);
  return 0;
}

}  // namespace strata::tools
