#include "layers/trace/control_server.h"

#include <sys/socket.h>
#include <unistd.h>

#include <sstream>
#include <thread>

#include "common/log.h"
#include "layers/trace/trace_session.h"
#include "transport/sockets.h"

namespace strata::trace {
namespace {

std::string Handle(const std::string& line, std::string* destination) {
  std::istringstream words(line);
  std::string command;
  words >> command;
  TraceSession& session = TraceSession::Get();
  if (command == "attach") {
    std::string compression, target;
    words >> compression;
    std::getline(words >> std::ws, target);
    std::string error;
    if (target.empty()) return "error attach needs a destination";
    if (!session.Start(target, compression, &error)) return "error " + error;
    *destination = target;
    STRATA_INFO("tracing switched on: %s", target.c_str());
    return "ok tracing to " + target + " from each context's next eglSwapBuffers";
  }
  if (command == "detach") {
    if (!session.active()) return "error not tracing";
    session.Stop(2000);
    STRATA_INFO("tracing switched off");
    return "ok trace of " + *destination + " finished";
  }
  if (command == "status") return session.active() ? "tracing " + *destination : "idle";
  return "error unknown command '" + command + "'";
}

void Serve(int listen_fd) {
  std::string destination;
  for (;;) {
    int fd = accept4(listen_fd, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    ucred peer{};
    socklen_t size = sizeof peer;
    std::string reply;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &size) != 0 || (peer.uid != geteuid() && peer.uid != 0)) {
      reply = "error permission denied: only the process's user may control its tracing";
    } else {
      std::string line;
      char c;
      while (line.size() < 8192 && read(fd, &c, 1) == 1 && c != '\n') line += c;
      reply = Handle(line, &destination);
    }
    reply += "\n";
    if (send(fd, reply.data(), reply.size(), MSG_NOSIGNAL) < 0) { /* the client left; nothing to do */ }
    close(fd);
  }
}

}  // namespace

std::string ControlAddress(int pid) { return "unix:@strata-trace-" + std::to_string(pid); }

bool StartControlServer(std::string* error) {
  int fd = transport::ListenOn(ControlAddress(getpid()), error);
  if (fd < 0) return false;
  std::thread(Serve, fd).detach();
  return true;
}

}  // namespace strata::trace
