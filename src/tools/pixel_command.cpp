// strata pixel TRACE --frame N --at X,Y: every call of a frame that wrote a pixel.
#include <chrono>
#include <cstdio>
#include <string>

#include "common/json_writer.h"
#include "inspect/pixel_history.h"
#include "tools/command.h"
#include "tools/command_line.h"
#include "tools/install_paths.h"

namespace strata::tools {
namespace {

constexpr char kUsage[] = R"(usage: strata pixel [options] TRACE --frame N --at X,Y

The history of one pixel of frame N (what ends at the N-th eglSwapBuffers,
counting from 0): every call of that frame that wrote it, on the surface the
frame ends on or on a framebuffer image that ends up there (blitted or
copied into it, or sampled by a draw into it), in call order, with:
  before, after   the pixel's colour, and its depth and stencil where the
                  framebuffer has them (the driver must read them back:
                  GL_NV_read_depth, GL_NV_read_stencil)
  outcome         a draw's fragment passed every test, or was rejected by
                  the scissor, stencil or depth test; a draw that passed
                  but left the colour as it was says so (blending, the
                  colour mask, or the same colour); a clear, blit or copy
                  wrote it, or its scissor kept it out
Draws that do not reach the pixel are left out. X,Y count from the
surface's top-left corner, as the frame's PNG (strata replay --snapshot) and
strata view show it. TRACE is replayed twice on this machine's driver, up to
the end of frame N: once to see what each call writes, once to read the
pixel around each call that may write it; a draw that left it unchanged runs
again, scissored to the pixel with writes off, inside occlusion queries.
docs/inspect.md has the details.

options:
  --frame N     the frame
  --at X,Y      the pixel
  --json        print the history as one JSON object
  -h, --help    show this help

Exit status: 0, 1 when the trace cannot be replayed to the frame or has no
frame N, or the pixel is off the frame's surface, 2 for bad usage.
)";

bool ParseAt(const std::string& text, int* x, int* y) {
  const size_t comma = text.find(',');
  if (comma == std::string::npos || comma == 0 || comma + 1 == text.size() || comma > 6 || text.size() - comma > 7) {
    return false;
  }
  for (size_t i = 0; i < text.size(); ++i) {
    if (i != comma && (text[i] < '0' || text[i] > '9')) return false;
  }
  *x = std::stoi(text.substr(0, comma));
  *y = std::stoi(text.substr(comma + 1));
  return true;
}

}  // namespace

int PixelCommandMain(int argc, char** argv) {
  inspect::PixelHistoryOptions options;
  bool json = false, have_frame = false, have_at = false;
  std::string trace;
  CommandLine args("strata pixel", kUsage, {{"help", 'h', false}, {"frame", 0, true}, {"at", 0, true}, {"json", 0, false}},
                   argc, argv);
  while (args.Next()) {
    if (args.Is("help")) {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (args.Is("frame")) {
      if (!args.Count(&options.frame)) return 2;
      have_frame = true;
    } else if (args.Is("at")) {
      if (!ParseAt(args.value(), &options.x, &options.y)) {
        args.Refuse("a pixel as X,Y (from the top-left corner)");
        return 2;
      }
      have_at = true;
    } else if (args.Is("json")) {
      json = true;
    }
  }
  if (args.failed() || !args.OneTrace(&trace)) return 2;
  if (!have_frame || !have_at) {
    std::fprintf(stderr, "strata pixel: error: give the frame and the pixel: --frame N --at X,Y\n\n%s", kUsage);
    return 2;
  }
  options.strata_lib_dir = StrataLibraryDirectory();
  const auto started = std::chrono::steady_clock::now();
  inspect::PixelHistory history;
  std::string error;
  if (!inspect::BuildPixelHistory(trace, options, &history, &error)) {
    std::fprintf(stderr, "strata pixel: error: %s\n", error.c_str());
    return 1;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (json) {
    JsonWriter out;
    inspect::WritePixelHistoryJson(history, out);
    std::printf("%s\n", out.str().c_str());
  } else {
    std::fputs(inspect::PixelHistoryText(history).c_str(), stdout);
  }
  std::fprintf(stderr, "strata pixel: %llu calls examined, %llu draws run again to test them, %.2f s\n",
               static_cast<unsigned long long>(history.calls_examined),
               static_cast<unsigned long long>(history.draws_tested), seconds);
  return 0;
}

}  // namespace strata::tools
