#pragma once
// Stream socket addresses named the way users write them:
//   unix:@NAME        abstract Unix socket (Linux; vanishes with its listener)
//   unix:/PATH        Unix socket in the file system
//   shm:NAME, shm:/PATH  the same Unix sockets, saying that the client must
//                     bring a shared-memory ring (ring_offer.h); over unix:
//                     addresses a client brings one unless told not to
//   tcp:HOST:PORT     TCP; HOST is numeric IPv4 (127.0.0.1), numeric IPv6 in
//                     brackets ([::1]) or localhost (127.0.0.1). No name lookup:
//                     parsing never blocks and never depends on the network.
// Knows nothing of what travels over them.

#include <sys/socket.h>

#include <cstdint>
#include <string>

namespace strata::transport {

class Address {
 public:
  enum class Kind { kUnixAbstract, kUnixPath, kTcp };

  Kind kind() const { return kind_; }
  bool is_unix() const { return kind_ != Kind::kTcp; }
  // Written shm:...: a Unix socket over which the client must bring a ring.
  bool shared_memory() const { return shared_memory_; }
  // The printable form, with a numeric host: "unix:@x", "unix:/run/s", "tcp:[::1]:7070".
  std::string ToString() const;
  // TCP only: "127.0.0.1:7070" or "[::1]:7070".
  std::string HostAndPort() const;
  // unix:/PATH only: the path.
  std::string path() const;
  // TCP only; 0 asks a listener for any free port.
  uint16_t port() const;
  // The same TCP address on another port (a listener on port 0 learns its port).
  Address WithPort(uint16_t port) const;

  int family() const { return storage_.ss_family; }  // AF_UNIX, AF_INET or AF_INET6
  const sockaddr* socket_address() const { return reinterpret_cast<const sockaddr*>(&storage_); }
  socklen_t length() const { return length_; }

  // A TCP endpoint as getpeername()/getsockname() give it; false for other families.
  static bool FromTcpEndpoint(const sockaddr_storage& storage, Address* out);

 private:
  friend bool ParseAddress(const std::string& text, Address* out, std::string* error);
  Kind kind_ = Kind::kTcp;
  bool shared_memory_ = false;
  sockaddr_storage storage_{};
  socklen_t length_ = 0;
};

// Parses `text`; false with a one-line `error` that names the expected form.
bool ParseAddress(const std::string& text, Address* out, std::string* error);

}  // namespace strata::transport
