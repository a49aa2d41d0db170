#pragma once
// The listener's half of a client's handshake (stream/wire.h): the hello read
// within a time limit, its version and the client's credentials checked,
// before the connection is handed to the worker that serves the client or
// refused with one line the client prints.

#include <string>

#include "serve/auth.h"
#include "stream/wire.h"
#include "transport/byte_stream.h"
#include "transport/listener.h"

namespace strata::serve {

// The features this renderer speaks (stream/wire.h); a client gets those both name.
inline constexpr char kRendererFeatures[] = "records-v1,replies-v1,frames-v1,bulk-v1,words-v1,words-v2";

// A hello that passed the listener's checks.
struct ClientHello {
  stream::wire::Hello hello;
  std::string role;     // "process" (a new client process), "thread" (joins its session), "fate"
  std::string program;  // for the log: the client's word, at most 200 characters
  std::string pid;      // the kernel's word for a Unix peer, the client's own over TCP
};

// Reads and checks the hello. False when the client was refused (told why,
// and logged) or dropped (it sent nothing usable in time; logged unless it
// was a probe that closed before its first byte).
bool ReadClientHello(transport::ByteStream& stream, const transport::Peer& peer, const AuthPolicy& auth,
                     ClientHello* out);

// How the log names a client's connection after its program and pid: a Unix
// peer's uid (its pid, the kernel's, is the client's pid already), a TCP
// peer's address, or that the peer is unknown.
std::string ClientAddress(const transport::Peer& peer);
// "glmark2 (pid 1234, uid 1000)", "glmark2 (pid 1234, 127.0.0.1:5000)":
// `address` is ClientAddress's.
std::string NameClient(const std::string& program, const std::string& pid, const std::string& address);

// Tells the client why it is not served and logs it.
void RefuseClient(transport::ByteStream& stream, const transport::Peer& peer, const ClientHello& client,
                  const std::string& why);

// The renderer's answer; false when it could not be sent.
bool SendHelloAnswer(transport::ByteStream& stream, const stream::wire::Hello& answer);

}  // namespace strata::serve
