#include "serve/worker_channel.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "transport/stream_handoff.h"

namespace strata::serve {
namespace {

namespace wire = stream::wire;

constexpr char kWorkerMagic[9] = "STRATAW\n";
// A client's hello (its function table) and a stream's state fit with room to spare.
constexpr size_t kMaxControlBytes = 1u << 20;
// A ring's socket, memory and four eventfds.
constexpr size_t kMaxDescriptors = 8;

}  // namespace

bool SendControl(int fd, const wire::Hello& message, const std::vector<int>& descriptors) {
  const std::vector<uint8_t> bytes = wire::EncodeHello(kWorkerMagic, message);
  return bytes.size() <= kMaxControlBytes && transport::SendWithDescriptors(fd, bytes, descriptors);
}

int ReceiveControl(int fd, wire::Hello* message, std::vector<int>* descriptors, std::string* error) {
  std::vector<uint8_t> bytes;
  const ssize_t got = transport::ReceiveWithDescriptors(fd, &bytes, kMaxControlBytes, descriptors, kMaxDescriptors, -1);
  if (got == 0) return 0;
  if (got < 0) {
    *error = std::string("cannot read the renderer's control socket: ") + std::strerror(errno);
    return -1;
  }
  uint32_t version = 0, body_size = 0;
  const bool ok = wire::DecodeHelloHeader(bytes, kWorkerMagic, &version, &body_size, error) &&
                  body_size == bytes.size() - wire::kHelloHeaderBytes &&
                  wire::DecodeHelloBody(std::span<const uint8_t>(bytes).subspan(wire::kHelloHeaderBytes), message,
                                        error);
  if (!ok) {
    for (int d : *descriptors) close(d);
    descriptors->clear();
    if (error->empty()) *error = "a control message of the wrong size";
    *error = "a malformed control message: " + *error;
    return -1;
  }
  return 1;
}

}  // namespace strata::serve
