// The renderer's side of a client connection: the hello as the listener
// reads and checks it (serve/handshake.h), then, for a process's first
// connection, the worker's session and message loop (serve/connection.h):
// message and bulk segment framing, and the records of each message run on
// the executor, exactly as `strata serve --decode-ahead on` runs them. The input is everything
// a client sends, from its hello on; it arrives over a Unix socket pair, and
// what the renderer answers is read and dropped.
#include <sys/socket.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <thread>

#include "fuzz_support.h"
#include "serve/connection.h"
#include "serve/handshake.h"
#include "transport/socket_stream.h"

using namespace strata;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static serve::ServeContext* context = [] {
    auto* made = new serve::ServeContext;
    made->driver = &fuzz::Driver();
    // Messages of 4 KiB and more are decoded ahead on a second thread, as
    // with --decode-ahead on: the preparing thread reads hostile bytes too,
    // and calls kept decoded run through the handlers' decoded-form entries.
    made->decode_ahead = true;
    return made;
  }();
  int ends[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) return 0;
  // The client: sends the input, then reads whatever comes back until the renderer closes.
  std::thread client([fd = ends[1], data, size] {
    std::thread drain([fd] {
      char sink[4096];
      while (read(fd, sink, sizeof sink) > 0) {
      }
    });
    for (size_t sent = 0; sent < size;) {
      const ssize_t n = send(fd, data + sent, size - sent, MSG_NOSIGNAL);
      if (n <= 0) break;  // the renderer closed this client
      sent += static_cast<size_t>(n);
    }
    shutdown(fd, SHUT_WR);
    drain.join();
    close(fd);
  });
  transport::Peer peer;
  peer.is_unix = true;
  peer.uid = geteuid();
  peer.pid = getpid();
  peer.description = "fuzz client";
  auto stream = std::make_unique<transport::SocketStream>(ends[0], "fuzz client");
  serve::ClientHello hello;
  if (serve::ReadClientHello(*stream, peer, serve::AuthPolicy{}, &hello) && hello.role == "process") {
    const std::string* features = hello.hello.Find("features");
    const std::string common = stream::wire::CommonFeatures(serve::kRendererFeatures, features ? *features : "");
    auto session = std::make_shared<serve::Session>("1", "key", serve::ClientInfo{hello.program, 0, peer.description},
                                                    *hello.hello.Find("functions"), common, *context->driver,
                                                    nullptr);
    session->executor().SetDrawLimit(fuzz::kDrawVertexLimit);
    stream::wire::Hello answer;
    answer.values = {{"status", "ok"}, {"features", common}, {"session", "1"}, {"session_key", "key"}};
    serve::Connection connection(*context, std::move(stream), std::move(session), answer);
    connection.Run();
  }
  stream.reset();
  client.join();
  return 0;
}
