#include "serve/server.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <list>
#include <mutex>
#include <thread>

#include "common/env.h"
#include "host/host_driver.h"
#include "serve/connection.h"
#include "serve/frame_display.h"
#include "serve/log.h"
#include "transport/listener.h"
#include "transport/token.h"

namespace strata::serve {
namespace {

// A connection and the thread that runs it.
struct Client {
  std::unique_ptr<Connection> connection;
  std::thread thread;
};

}  // namespace

struct Server::State {
  std::unique_ptr<host::HostDriver> driver;
  std::unique_ptr<FrameDisplay> display;  // outlives every connection
  ServeContext context;
  std::vector<std::unique_ptr<transport::Listener>> listeners;
  std::string token_file;
  int stop_pipe[2] = {-1, -1};
  std::list<Client> clients;  // only the Run() thread touches the list

  ~State() {
    for (int fd : stop_pipe) {
      if (fd >= 0) close(fd);
    }
  }
  // Joins the threads of connections that have ended.
  void Reap() {
    for (auto it = clients.begin(); it != clients.end();) {
      if (!it->connection->done()) {
        ++it;
        continue;
      }
      it->thread.join();
      it = clients.erase(it);
    }
  }
};

std::string DefaultAddress() { return "unix:@strata-render-" + std::to_string(getuid()); }

std::string DefaultTokenFile() {
  const char* runtime = GetEnv("XDG_RUNTIME_DIR");
  if (runtime != nullptr && runtime[0] == '/') return std::string(runtime) + "/strata-serve.token";
  return "/tmp/strata-serve-" + std::to_string(getuid()) + ".token";
}

Server::Server(std::unique_ptr<State> state) : state_(std::move(state)) {}

Server::~Server() = default;

std::unique_ptr<Server> Server::Open(const ServeOptions& options, std::string* error) {
  auto state = std::make_unique<State>();
  state->driver = host::HostDriver::Load(options.strata_lib_dir, error);
  if (!state->driver) return nullptr;
  state->context.driver = state->driver.get();
  state->context.record_dir = options.record_dir;
  state->context.client_memory = options.client_memory;
  state->context.auth.allowed_uids = options.allow_uids;
  if (options.display) {
    state->display = FrameDisplay::Open(error);
    if (!state->display) return nullptr;
    state->context.display = state->display.get();
  }
  bool tcp = false;
  for (const std::string& address : options.listen) {
    auto listener = transport::Listener::Open(address, error);
    if (!listener) return nullptr;
    tcp |= address.rfind("tcp:", 0) == 0;
    state->listeners.push_back(std::move(listener));
  }
  if (tcp) {
    state->token_file = options.token_file.empty() ? DefaultTokenFile() : options.token_file;
    if (!transport::WriteNewToken(state->token_file, &state->context.auth.token, error)) return nullptr;
  }
  if (pipe2(state->stop_pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
    *error = std::string("cannot make a pipe: ") + std::strerror(errno);
    return nullptr;
  }
  return std::unique_ptr<Server>(new Server(std::move(state)));
}

std::vector<std::string> Server::addresses() const {
  std::vector<std::string> out;
  for (const auto& listener : state_->listeners) out.push_back(listener->address());
  return out;
}

const std::string& Server::token_file() const { return state_->token_file; }

void Server::Stop() {
  const char byte = 1;
  [[maybe_unused]] ssize_t n = write(state_->stop_pipe[1], &byte, 1);
}

void Server::Run() {
  State& s = *state_;
  std::vector<pollfd> fds;
  for (const auto& listener : s.listeners) fds.push_back({listener->fd(), POLLIN, 0});
  fds.push_back({s.stop_pipe[0], POLLIN, 0});
  for (;;) {
    // Wakes now and then to join the threads of clients that left.
    const int ready = poll(fds.data(), fds.size(), 1000);
    s.Reap();
    if (ready < 0 && errno != EINTR) {
      Log(std::string("poll failed: ") + std::strerror(errno));
      break;
    }
    if (ready <= 0) continue;
    if (fds.back().revents != 0) break;
    for (size_t i = 0; i < s.listeners.size(); ++i) {
      if (fds[i].revents == 0) continue;
      transport::Peer peer;
      std::string error;
      auto stream = s.listeners[i]->Accept(0, &peer, &error);
      if (!stream) {
        if (!error.empty()) Log(error);
        continue;
      }
      Client& client = s.clients.emplace_back();
      client.connection = std::make_unique<Connection>(s.context, std::move(stream), std::move(peer));
      client.thread = std::thread([connection = client.connection.get()] { connection->Run(); });
    }
  }
  // Ending: every client is told by its connection closing, then waited for.
  s.context.sessions.CloseAll("the renderer is stopping");
  for (Client& client : s.clients) client.connection->Shutdown();
  for (Client& client : s.clients) client.thread.join();
  s.clients.clear();
}

}  // namespace strata::serve
