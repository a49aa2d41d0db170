#pragma once
// The framebuffer record (RecordType::kFramebuffer): one captured image.
// Written by the tracer, read by dump, tests and (later) replay --verify.

#include <cstdint>
#include <span>

#include "stream/byte_writer.h"

namespace strata::stream {

struct FramebufferImage {
  uint64_t frame = 0;
  uint64_t sequence = 0;     // the call the image was taken before
  uint64_t context = 0;      // context id
  uint64_t framebuffer = 0;  // 0: the surface
  int64_t x = 0, y = 0;
  uint64_t width = 0, height = 0;
  uint64_t format = 0;                // kFramebufferRgba8 or kFramebufferBgra8
  std::span<const uint8_t> pixels;    // width * height * 4 bytes
  bool final_frame = false;           // what the app drew last, not an image of a swap or draw
};

// Pixel formats of a framebuffer record, both bottom row first. Traces hold
// RGBA8; a renderer sends a window's frames as BGRA8 where the host reads
// that without converting (what X servers and most drivers store).
constexpr uint64_t kFramebufferRgba8 = 0, kFramebufferBgra8 = 1;

void EncodeFramebuffer(ByteWriter& w, const FramebufferImage& image);
// False for a malformed record or pixels that do not match the size.
bool DecodeFramebuffer(std::span<const uint8_t> payload, FramebufferImage* image);

}  // namespace strata::stream
