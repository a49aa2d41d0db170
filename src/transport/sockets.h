#pragma once
// Socket descriptors for addresses in the user's notation: the building blocks
// of Connect and Listener, and plain descriptors for small users (the trace
// layer's live sink and control socket, `strata trace`).

#include <string>

#include "transport/socket_address.h"

namespace strata::transport {

// How long Connect and ConnectTo wait for a peer that does not answer.
inline constexpr int kDefaultConnectTimeoutMs = 5000;

// Waits for `events` on `fd` for up to `timeout_ms` (< 0: forever), through
// signals. > 0 ready, 0 timed out, < 0 failed (errno set).
int WaitFor(int fd, short events, int timeout_ms);

// A listening socket (blocking, close-on-exec), or -1 with a one-line `error`.
// A unix:/PATH socket replaces a stale socket left by a dead server, never a
// live one or a file that is not a socket, and is created with mode 0600.
int ListenSocket(const Address& address, std::string* error);

// A connected, blocking socket, or -1 with `reason` (strerror's text, or how
// long nobody answered) for the caller to put after its own words.
int ConnectSocket(const Address& address, int timeout_ms, std::string* reason);

// Waits up to `timeout_ms` for a client; its socket, or -1 with `error` empty
// when the time ran out, or set when accepting failed.
int AcceptWithin(int listen_fd, int timeout_ms, std::string* error);

// The same with the address parsed from text and errors that name it.
int ListenOn(const std::string& address, std::string* error);
int AcceptOne(int listen_fd, int timeout_ms, const std::string& address, std::string* error);
int ConnectTo(const std::string& address, std::string* error);

}  // namespace strata::transport
