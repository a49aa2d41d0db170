#include "transport/connect.h"

#include "transport/socket_address.h"
#include "transport/socket_stream.h"

namespace strata::transport {

std::unique_ptr<ByteStream> Connect(const std::string& address, std::string* error, const ConnectOptions& options) {
  std::string peer = options.peer_role + " at " + address;
  Address parsed;
  std::string reason;
  if (!ParseAddress(address, &parsed, &reason)) {
    *error = "cannot connect to " + options.peer_role + ": " + reason;
    return nullptr;
  }
  if (!parsed.is_unix() && parsed.port() == 0) {
    *error = "cannot connect to " + peer + ": port 0 is only for listening";
    return nullptr;
  }
  int fd = ConnectSocket(parsed, options.timeout_ms, &reason);
  if (fd < 0) {
    *error = "cannot connect to " + peer + ": " + reason;
    return nullptr;
  }
  if (!parsed.is_unix()) return std::make_unique<SocketStream>(fd, std::move(peer));
  const RingUse ring = parsed.shared_memory() ? RingUse::kRequired : options.unix_ring;
  auto stream = OfferRing(fd, peer, ring, options.timeout_ms, &reason);
  if (!stream) *error = "cannot connect to " + peer + ": " + reason;
  return stream;
}

}  // namespace strata::transport
