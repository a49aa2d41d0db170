#include "layers/trace/control_server.h"

#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <thread>

#include "common/env.h"
#include "common/log.h"
#include "layers/trace/capture_setting.h"
#include "layers/trace/control_command.h"
#include "layers/trace/frame_range.h"
#include "layers/trace/framebuffer_capture.h"
#include "layers/trace/trace_session.h"
#include "transport/sockets.h"

namespace strata::trace {
namespace {

std::string Handle(const std::string& line, std::string* destination) {
  const ControlCommand command = ParseControlCommand(line);
  TraceSession& session = TraceSession::Get();
  switch (command.kind) {
    case ControlCommand::Kind::kAttach: {
      std::string error;
      if (session.active()) return "error already tracing" + (destination->empty() ? "" : " to " + *destination);
      const char* capture = command.capture.empty() ? GetEnv("STRATA_TRACE_CAPTURE") : command.capture.c_str();
      if (capture != nullptr && !IsCaptureSetting(capture)) {
        return "error capture '" + std::string(capture) + "': use " + kCaptureSettings;
      }
      ConfigureCapture(capture);
      // The next N frames: switched on where the next frame begins (frame_range.h).
      const bool range = command.frames > 0;
      if (!session.Start(command.destination, command.compression, &error, !range)) return "error " + error;
      if (range && !ArmFrameRange(1, command.frames, &error)) {
        session.Stop(0);
        return "error " + error;
      }
      *destination = command.destination;
      STRATA_INFO("tracing switched on: %s", command.destination.c_str());
      if (range) {
        return "ok tracing the next " + std::to_string(command.frames) + " frames to " + command.destination +
               ", from the end of the next eglSwapBuffers";
      }
      return "ok tracing to " + command.destination + " from each context's next eglSwapBuffers";
    }
    case ControlCommand::Kind::kDetach:
      if (!session.active()) return "error not tracing";
      DisarmFrameRange();
      session.Stop(2000);
      STRATA_INFO("tracing switched off");
      return "ok trace of " + *destination + " finished";
    case ControlCommand::Kind::kStatus: {
      if (!session.active()) return "idle";
      const std::string range = DescribeFrameRange();
      return "tracing " + *destination + (range.empty() ? "" : " (" + range + ")");
    }
    case ControlCommand::Kind::kInvalid: break;
  }
  return "error " + command.error;
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
      // A peer that connects and says nothing must not hold the socket for everyone else.
      const timeval patience{2, 0};
      setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &patience, sizeof patience);
      std::string line;
      char c;
      while (line.size() <= kMaxControlLine && read(fd, &c, 1) == 1 && c != '\n') line += c;
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
