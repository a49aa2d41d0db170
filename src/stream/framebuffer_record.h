#pragma once
// The framebuffer record (RecordType::kFramebuffer): one captured image.
// Written by the tracer, read by dump, tests and (later) replay --verify.

#include <cstdint>
#include <span>
#include <vector>

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

// Pixel formats of a framebuffer record, both bottom row first: BGRA8 where
// the driver reads the framebuffer that way without converting (what X
// servers and most drivers store for a window), else RGBA8.
constexpr uint64_t kFramebufferRgba8 = 0, kFramebufferBgra8 = 1;
// The largest side of a framebuffer record, a capture, a readback or a
// surface size a trace sets (GL_MAX_VIEWPORT_DIMS of large desktop GPUs):
// what readers accept, so that what a tracer or renderer writes is read back.
constexpr uint64_t kMaxFramebufferSide = 16384;
template <typename Side>
constexpr bool PlausibleFramebufferSize(Side width, Side height) {
  return width > 0 && height > 0 && static_cast<uint64_t>(width) <= kMaxFramebufferSide &&
         static_cast<uint64_t>(height) <= kMaxFramebufferSide;
}

// The payload (inside a record the caller begins and ends).
void EncodeFramebuffer(ByteWriter& w, const FramebufferImage& image);
// A whole record (type, length, payload) with its length known before the
// pixels go in: a frame's megabytes are copied once, not moved again to
// widen the length as a record begun with one byte for it would be.
void WriteFramebufferRecord(ByteBuffer& out, const FramebufferImage& image);
// The same up to the pixel bytes, for a writer that sends the pixels from
// where they lie right after what this wrote (the renderer's window frames;
// `image.pixels` need not be set: the record has room for PixelBytes);
// returns the bytes to follow them: 1 for a final frame, whose marker
// PutFinalFrameMarker writes after the pixels.
size_t WriteFramebufferRecordHead(ByteBuffer& out, const FramebufferImage& image);
void PutFinalFrameMarker(uint8_t* after_pixels);
// What a record of `image` holds of pixels: width * height * 4 bytes.
inline uint64_t PixelBytes(const FramebufferImage& image) { return image.width * image.height * 4; }
// False for a malformed record or pixels that do not match the size.
bool DecodeFramebuffer(std::span<const uint8_t> payload, FramebufferImage* image);
// The same, its pixels then RGBA8 whatever the record holds: BGRA8 ones are
// swizzled into `scratch`, which `image->pixels` then points into.
bool DecodeFramebufferAsRgba(std::span<const uint8_t> payload, FramebufferImage* image, std::vector<uint8_t>* scratch);

}  // namespace strata::stream
