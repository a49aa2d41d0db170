#pragma once
// The server's end: listens on one address and hands out a byte stream per
// client, with who the client is.

#include <sys/types.h>

#include <memory>
#include <string>

#include "transport/byte_stream.h"

namespace strata::transport {

struct Peer {
  bool is_unix = false;
  uid_t uid = static_cast<uid_t>(-1);  // Unix peers only (SO_PEERCRED)
  pid_t pid = 0;                        // Unix peers only
  std::string description;              // "pid 1234 (uid 1000)" or "127.0.0.1:54321"
};

class Listener {
 public:
  // Listens on `address` (unix:@NAME, unix:/PATH, shm:NAME, shm:/PATH (the
  // same as unix:), tcp:HOST:PORT), or nullptr
  // with a one-line `error`. A unix:/PATH socket gets mode 0600, replaces only
  // a stale socket (never a live one, never another kind of file) and is
  // removed when the listener goes. tcp:HOST:0 picks a free port.
  static std::unique_ptr<Listener> Open(const std::string& address, std::string* error);
  ~Listener();
  Listener(const Listener&) = delete;
  Listener& operator=(const Listener&) = delete;

  // Waits up to `timeout_ms` (< 0: forever) for a client. A Unix client's
  // stream becomes the ring it brings at the stream's first read, so the
  // server reads before it writes. nullptr with `error`
  // empty when the time ran out, set when accepting failed. `peer` may be null.
  std::unique_ptr<ByteStream> Accept(int timeout_ms, Peer* peer, std::string* error);

  // For poll() alongside other listeners.
  int fd() const { return fd_; }
  // Where clients connect, with the actual port when port 0 was asked for.
  const std::string& address() const { return address_; }

 private:
  Listener() = default;

  int fd_ = -1;
  bool is_unix_ = false;
  std::string address_;
  // The path socket this listener made, recognised by its inode so that a
  // socket someone else put there since is left alone.
  std::string socket_path_;
  dev_t socket_device_ = 0;
  ino_t socket_inode_ = 0;
};

}  // namespace strata::transport
