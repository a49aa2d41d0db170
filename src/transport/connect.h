#pragma once
// The client's end: a byte stream to a server at an address in the user's
// notation (unix:@NAME, unix:/PATH, shm:NAME, shm:/PATH, tcp:HOST:PORT).
// Over a Unix socket the stream is a shared-memory ring (shm_ring.h) where
// the server takes one.

#include <memory>
#include <string>

#include "transport/byte_stream.h"
#include "transport/ring_offer.h"
#include "transport/sockets.h"

namespace strata::transport {

struct ConnectOptions {
  // How errors name the other end: "<peer_role> at <address>".
  std::string peer_role = "renderer";
  // How long to wait for a server that does not answer (< 0: forever).
  int timeout_ms = kDefaultConnectTimeoutMs;
  // For unix: addresses; shm: addresses always require the ring, tcp: never has one.
  RingUse unix_ring = RingUse::kPreferred;
};

// A connected stream, or nullptr with one line such as
// "cannot connect to renderer at unix:@foo: Connection refused".
std::unique_ptr<ByteStream> Connect(const std::string& address, std::string* error,
                                    const ConnectOptions& options = {});

}  // namespace strata::transport
