#pragma once
// Stream sockets named the way users write them:
//   unix:@NAME        abstract Unix socket (Linux)
//   unix:/PATH        Unix socket in the file system
//   tcp:HOST:PORT     TCP (numeric IPv4 host, e.g. tcp:127.0.0.1:7070)
// Knows nothing of what travels over them.

#include <string>

namespace strata::transport {

// A listening socket, or -1 with `error`.
int ListenOn(const std::string& address, std::string* error);
// Waits up to `timeout_ms` for one client; the connected socket, or -1 with `error`.
int AcceptOne(int listen_fd, int timeout_ms, const std::string& address, std::string* error);
// A connected socket, or -1 with `error`.
int ConnectTo(const std::string& address, std::string* error);

}  // namespace strata::transport
