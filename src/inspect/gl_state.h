#pragma once
// The GL state of a replayed context, read back from the host driver at the
// point a replay stopped (`strata state`): capabilities and fixed-function
// values, every binding point, the current program with its uniforms'
// values and its shaders' sources, vertex attributes, and the bound
// textures, buffers and draw framebuffer. Objects are named as the trace
// named them. Runs on the context's host thread (replay::ReplayOptions::at_stop).

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/json_writer.h"
#include "host/executor.h"

namespace strata::inspect {

struct GlStateOptions {
  // Where the bound textures' images (PNG), buffers' bytes and the draw
  // framebuffer's image go; empty: the JSON only.
  std::string output_dir;
  // Instead of image files: each image (RGBA8, bottom row first) is handed
  // here, and what it returns names it in the JSON (the report embeds them).
  std::function<std::string(int width, int height, const std::vector<uint8_t>& rgba)> image_sink;
  bool base_levels_only = false;  // images of each texture's level 0 only
};

struct GlStateFiles {
  std::vector<std::string> written;  // paths, in the order written
  std::vector<std::string> unread;   // what could not be read back, and why
};

// Writes one JSON object: the state of recorded thread `thread`'s current context.
void WriteGlState(host::Executor& executor, uint32_t thread, const GlStateOptions& options, JsonWriter& json,
                  GlStateFiles* files);

}  // namespace strata::inspect
