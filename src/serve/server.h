#pragma once
// `strata serve`: the remote renderer's listener. It never loads a GL
// driver: it listens on one or more addresses, reads and checks each
// client's hello (handshake.h), and hands the client's connections to a
// worker process of its own (worker.h, worker_pool.h): one per client
// process, so that contexts of different clients run in parallel even on
// drivers that serialise one process's contexts, and a crash in the driver
// ends one client. docs/remote.md.

#include <sys/types.h>

#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace strata::serve {

struct ServeOptions {
  std::vector<std::string> listen;  // unix:@NAME, unix:/PATH, tcp:HOST:PORT
  std::string record_dir;           // --record: one trace per client process
  std::vector<uid_t> allow_uids;    // Unix clients besides our own uid
  std::string token_file;           // written (0600) when a TCP address is listened on
  bool display = false;             // --display: client windows' frames shown here too
  uint64_t client_memory = 0;       // --client-memory: GL storage each client may hold (0: no limit)
  uint64_t worker_memory = 0;       // --worker-memory: each worker's RLIMIT_DATA (0: no limit)
  size_t idle_workers = 2;          // --idle-workers: started ahead of clients
  // --decode-ahead (connection.h), by default where this machine has a core
  // to spare beside a client's thread, the driver's and the driver's own.
  bool decode_ahead = std::thread::hardware_concurrency() >= 4;
};

// The default address: unix:@strata-render-<uid> (abstract, so nothing to clean up).
std::string DefaultAddress();
// The default token file: $XDG_RUNTIME_DIR/strata-serve.token, else /tmp/strata-serve-<uid>.token.
std::string DefaultTokenFile();

class Server {
 public:
  // Opens every listener, writes the token for TCP, and starts the first
  // workers, waiting until one is ready: a driver or display the workers
  // cannot use is an error here. Null with one line in *error.
  static std::unique_ptr<Server> Open(const ServeOptions& options, std::string* error);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Where clients connect (the actual port for tcp:HOST:0).
  std::vector<std::string> addresses() const;
  // Empty unless a TCP address is listened on.
  const std::string& token_file() const;

  // Accepts and hands over clients until Stop(); then stops the workers
  // (which end their clients) and returns once they have ended.
  void Run();
  // Async-signal-safe: for SIGINT/SIGTERM handlers.
  void Stop();

 private:
  struct State;
  explicit Server(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace strata::serve
