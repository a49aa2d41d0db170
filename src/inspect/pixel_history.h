#pragma once
// `strata pixel TRACE --frame N --at X,Y`: every call of frame N that wrote
// the pixel, on the surface the frame ends on or on an image that ends up
// there, with the pixel before and after it and, for draws, which fragment
// test let the fragment through or stopped it. Computed by two replays:
//   1. a survey of frame N: what each draw, clear, blit and copy writes and
//      reads (framebuffer attachments, blit and copy rectangles, the 2D
//      textures a draw samples), from which the images that end up in the
//      pixel are followed back from the frame's end: through blits and
//      copies exactly, through a texture a later draw samples by that draw's
//      viewport (an assumption: a full-screen pass samples where it draws);
//   2. a replay that reads the pixel of each such image before and after
//      each call that writes it, and runs a draw that left it unchanged
//      again, scissored to the pixel with writes off, inside occlusion
//      queries: tests off (does it reach the pixel at all), then the app's
//      stencil test, then its depth test (inspect/pixel_probe.h).

#include <cstdint>
#include <string>
#include <vector>

#include "common/json_writer.h"
#include "inspect/pixel_probe.h"

namespace strata::inspect {

struct PixelHistoryOptions {
  uint64_t frame = 0;
  int x = 0, y = 0;  // on the frame's surface, from its top-left corner (as its PNG shows it)
  std::string strata_lib_dir;
};

// Where a call wrote the pixel.
struct PixelTarget {
  bool surface = true;
  uint64_t framebuffer = 0;  // the trace's framebuffer the call wrote through (0: the surface, or a copy)
  std::string attachment;    // "GL_COLOR_ATTACHMENT0", "GL_BACK"
  std::string image;         // "the surface", "texture 4 level 0", "renderbuffer 2"
  int x = 0, y = 0;          // in the image, GL window coordinates (bottom-left origin)
  bool assumed = false;      // the position follows a draw's viewport, not an exact mapping
  std::string via;           // how the image ends up in the pixel ("blitted by call 40", "sampled by call 52")
};

struct PixelEntry {
  uint64_t sequence = 0, thread = 0;
  std::string function, text;  // text as strata dump prints the call
  PixelTarget target;
  PixelValue before, after;
  // "passed" (a draw's fragment got through every test; a clear, blit or
  // copy covered the pixel), "rejected" (rejected_by says by which test),
  // "untested" (note says why).
  std::string outcome;
  std::string rejected_by;  // "scissor", "stencil", "depth"
  bool changed = false;     // colour, depth or stencil differ after it
  std::string note;
};

struct PixelHistory {
  uint64_t frame = 0;
  int x = 0, y = 0;        // as asked (top-left origin)
  int gl_x = 0, gl_y = 0;  // on the surface, bottom-left origin
  int width = 0, height = 0;
  uint64_t swap = 0;       // the frame's eglSwapBuffers
  std::vector<PixelEntry> entries;  // in call order
  PixelValue final;        // the surface's pixel at the frame's swap
  uint64_t calls_examined = 0, draws_tested = 0;
  std::vector<std::string> notes;
};

// False with *error: a trace that cannot be replayed, a frame it does not
// have, a pixel off the frame's surface.
bool BuildPixelHistory(const std::string& trace, const PixelHistoryOptions& options, PixelHistory* history,
                       std::string* error);

void WritePixelHistoryJson(const PixelHistory& history, JsonWriter& json);
std::string PixelHistoryText(const PixelHistory& history);

}  // namespace strata::inspect
