#pragma once
// Setting up a shared-memory ring (shm_ring.h) over a freshly connected Unix
// socket. The client speaks first: a 16-byte offer ("STRATAS\n", the version
// and the ring size, little-endian) carrying the memfd and the eventfds as
// SCM_RIGHTS; the server answers one byte, 'Y' (the ring carries everything
// from here) or 'N' (it does not, and the socket goes on as a plain stream).
// A client that sends anything else is a plain socket client.

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "transport/byte_stream.h"

namespace strata::transport {

enum class RingUse {
  kNever,     // a plain socket
  kPreferred, // a ring when the server takes it, else the socket
  kRequired,  // a ring or an error
};

// The client's end over connected Unix socket `fd` (taken): a ring, or the
// socket itself when the server declines and `use` allows it; nullptr with
// one line in `error`.
std::unique_ptr<ByteStream> OfferRing(int fd, const std::string& peer, RingUse use, int timeout_ms,
                                      std::string* error);

// Sends the offer's bytes with `descriptors` as SCM_RIGHTS (OfferRing's
// send; tests forge offers with it). False when not all of it went.
bool SendOffer(int fd, std::span<const uint8_t> offer, std::span<const int> descriptors);

// The server's end of an accepted Unix socket (taken): a stream that, at its
// first read, takes a ring the client offers and from then on reads and
// writes through it. A server must read before it writes.
std::unique_ptr<ByteStream> AcceptRingOrSocket(int fd, std::string peer);

}  // namespace strata::transport
