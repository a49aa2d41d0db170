// What a remote client reads from the renderer: the renderer's hello, and
// the messages it reads while a call waits for its reply (replies decoded
// against the waiting function's layout, framebuffer records of a window's
// frames, the renderer's error event). The input's first two bytes choose the
// waiting function; the rest is read both as a hello and as a message.
#include <cstddef>
#include <cstdint>
#include <string>

#include "remote/reply_scan.h"
#include "stream/framebuffer_record.h"
#include "stream/wire.h"

using namespace strata;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const int slot = (data[0] | data[1] << 8) % api::kFunctionCount;
  const std::span<const uint8_t> bytes(data + 2, size - 2);

  std::string error;
  uint32_t version = 0, body_size = 0;
  if (bytes.size() >= stream::wire::kHelloHeaderBytes &&
      stream::wire::DecodeHelloHeader(bytes.first(stream::wire::kHelloHeaderBytes), stream::wire::kRendererMagic,
                                      &version, &body_size, &error)) {
    stream::wire::Hello hello;
    const std::span<const uint8_t> body = bytes.subspan(stream::wire::kHelloHeaderBytes);
    if (body.size() >= body_size) stream::wire::DecodeHelloBody(body.first(body_size), &hello, &error);
  }

  stream::wire::Reply reply;
  const auto frame = [](const stream::FramebufferImage& image) { (void)image.pixels.size(); };
  // The sequence a client waits for is its own; take it from the message, as a matching renderer would send.
  for (uint64_t sequence : {uint64_t{0}, uint64_t{1}}) {
    if (remote::ScanRendererMessage(bytes, sequence, slot, &reply, frame, &error) == remote::ReplyScan::kReplied) {
      for (const stream::DecodedValue& output : reply.outputs) (void)output.out.size();
    }
  }
  return 0;
}
