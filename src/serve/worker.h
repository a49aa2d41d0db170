#pragma once
// A worker process of the renderer: it serves one client process, on a GL
// driver of its own. The listener starts it (`strata serve --worker`) before
// any client needs it, hands it the client's connections over its control
// socket (worker_channel.h), and it ends when the client does. A driver that
// crashes or serialises contexts (NVIDIA) affects this one client alone.

#include <cstdint>
#include <string>

namespace strata::serve {

struct WorkerOptions {
  std::string strata_lib_dir;    // Strata's own libraries, never taken as the driver
  std::string record_dir;        // --record
  bool display = false;          // --display
  uint64_t client_memory = 0;    // the GL storage budget (host/storage_budget.h; 0: none)
  uint64_t process_memory = 0;   // --worker-memory: RLIMIT_DATA of the process (0: none)
  bool decode_ahead = false;     // --decode-ahead (connection.h)
};

// The worker's life, on the control socket at kWorkerChannelFd; its exit status.
int RunWorker(const WorkerOptions& options);

}  // namespace strata::serve
