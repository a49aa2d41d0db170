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
  uint64_t format = 0;                // 0: RGBA8, bottom row first
  std::span<const uint8_t> pixels;    // width * height * 4 bytes
};

void EncodeFramebuffer(ByteWriter& w, const FramebufferImage& image);
// False for a malformed record or pixels that do not match the size.
bool DecodeFramebuffer(std::span<const uint8_t> payload, FramebufferImage* image);

}  // namespace strata::stream
