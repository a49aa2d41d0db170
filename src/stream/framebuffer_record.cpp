#include "stream/framebuffer_record.h"

#include "stream/byte_reader.h"
#include "stream/record_format.h"

namespace strata::stream {
namespace {

// The optional varint after the pixels: why the image was taken.
constexpr uint64_t kFinalFrame = 1;

// The payload up to the pixel bytes: the fields and the pixel blob's size.
void EncodeFramebufferHead(ByteWriter& w, const FramebufferImage& image) {
  w.Varint(image.frame);
  w.Varint(image.sequence);
  w.Varint(image.context);
  w.Varint(image.framebuffer);
  w.Zigzag(image.x);
  w.Zigzag(image.y);
  w.Varint(image.width);
  w.Varint(image.height);
  w.Varint(image.format);
  w.Varint(PixelBytes(image) + 1);
}

}  // namespace

size_t WriteFramebufferRecordHead(ByteBuffer& out, const FramebufferImage& image) {
  ByteBuffer head;
  ByteWriter head_writer(&head);
  EncodeFramebufferHead(head_writer, image);
  const size_t trailer = image.final_frame ? 1 : 0;
  ByteWriter w(&out);
  w.U8(static_cast<uint8_t>(RecordType::kFramebuffer));
  w.Varint(head.size + PixelBytes(image) + trailer);
  w.Raw(head.storage.data(), head.size);
  return trailer;
}

void PutFinalFrameMarker(uint8_t* after_pixels) { *after_pixels = static_cast<uint8_t>(kFinalFrame); }  // a one-byte varint

void WriteFramebufferRecord(ByteBuffer& out, const FramebufferImage& image) {
  const size_t trailer = WriteFramebufferRecordHead(out, image);
  ByteWriter w(&out);
  w.Raw(image.pixels.data(), image.pixels.size());
  if (trailer != 0) w.Varint(kFinalFrame);
}

void EncodeFramebuffer(ByteWriter& w, const FramebufferImage& image) {
  EncodeFramebufferHead(w, image);  // the pixels' size from the image's: they must agree
  w.Raw(image.pixels.data(), image.pixels.size());
  if (image.final_frame) w.Varint(kFinalFrame);  // absent for the others: their records stay as they were
}

bool DecodeFramebuffer(std::span<const uint8_t> payload, FramebufferImage* image) {
  ByteReader r(payload);
  image->frame = r.Varint();
  image->sequence = r.Varint();
  image->context = r.Varint();
  image->framebuffer = r.Varint();
  image->x = r.Zigzag();
  image->y = r.Zigzag();
  image->width = r.Varint();
  image->height = r.Varint();
  image->format = r.Varint();
  if (!r.Blob(&image->pixels)) return false;
  image->final_frame = false;
  if (!r.done()) image->final_frame = r.Varint() == kFinalFrame;
  if (!r.ok() || !r.done()) return false;
  if (image->format != kFramebufferRgba8 && image->format != kFramebufferBgra8) return false;
  return image->width <= kMaxFramebufferSide && image->height <= kMaxFramebufferSide &&
         image->pixels.size() == image->width * image->height * 4;
}

bool DecodeFramebufferAsRgba(std::span<const uint8_t> payload, FramebufferImage* image, std::vector<uint8_t>* scratch) {
  if (!DecodeFramebuffer(payload, image)) return false;
  if (image->format == kFramebufferRgba8) return true;
  scratch->resize(image->pixels.size());
  const uint8_t* from = image->pixels.data();
  uint8_t* to = scratch->data();
  for (size_t i = 0; i < scratch->size(); i += 4) {
    to[i + 0] = from[i + 2];
    to[i + 1] = from[i + 1];
    to[i + 2] = from[i + 0];
    to[i + 3] = from[i + 3];
  }
  image->pixels = *scratch;
  image->format = kFramebufferRgba8;
  return true;
}

}  // namespace strata::stream
