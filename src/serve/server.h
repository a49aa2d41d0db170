#pragma once
// `strata serve`: the remote renderer. Listens on one or more addresses,
// hands each client connection a thread of its own (connection.h) and each
// client process a session of its own (session.h). docs/remote.md.

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

namespace strata::serve {

struct ServeOptions {
  std::vector<std::string> listen;  // unix:@NAME, unix:/PATH, tcp:HOST:PORT
  std::string strata_lib_dir;       // Strata's own libraries, never taken as the driver
  std::string record_dir;           // --record: one trace per client process
  std::vector<uid_t> allow_uids;    // Unix clients besides our own uid
  std::string token_file;           // written (0600) when a TCP address is listened on
  bool display = false;             // --display: client windows' frames shown here too
  uint64_t client_memory = 0;       // --client-memory: GL storage each client may hold (0: no limit)
};

// The default address: unix:@strata-render-<uid> (abstract, so nothing to clean up).
std::string DefaultAddress();
// The default token file: $XDG_RUNTIME_DIR/strata-serve.token, else /tmp/strata-serve-<uid>.token.
std::string DefaultTokenFile();

class Server {
 public:
  // Loads the host driver, opens every listener and, for TCP, writes the
  // token. Null with one line in *error.
  static std::unique_ptr<Server> Open(const ServeOptions& options, std::string* error);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Where clients connect (the actual port for tcp:HOST:0).
  std::vector<std::string> addresses() const;
  // Empty unless a TCP address is listened on.
  const std::string& token_file() const;

  // Accepts and serves clients until Stop(); then ends every client, waits
  // for their threads and returns.
  void Run();
  // Async-signal-safe: for SIGINT/SIGTERM handlers.
  void Stop();

 private:
  struct State;
  explicit Server(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace strata::serve
