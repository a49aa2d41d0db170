// strata serve: the remote renderer (docs/remote.md).
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "common/byte_size.h"
#include "serve/log.h"
#include "serve/server.h"
#include "serve/worker.h"
#include "tools/command.h"
#include "tools/command_line.h"
#include "tools/install_paths.h"

namespace strata::tools {
namespace {

constexpr char kUsage[] = R"(usage: strata serve [options]

The remote renderer: clients whose EGL/GLES driver is Strata's remote one
(STRATA_REMOTE=ADDRESS) send their calls here, where they run on this
machine's driver. Each client process is served by a worker process of its
own (its objects are its own, its contexts run beside other clients', and a
crash in the driver ends that client alone); each of its threads gets a
connection and a host thread of its own. Window surfaces become pbuffers;
their frames go back to the client. The listening process itself never
loads the GL driver.

options:
  --listen ADDRESS     where clients connect (repeatable): unix:@NAME,
                       unix:/PATH, tcp:HOST:PORT, or tcp:PORT for
                       tcp:127.0.0.1:PORT (default unix:@strata-render-$UID)
  --allow-uid UID      also serve Unix clients of this uid (repeatable; by
                       default only the renderer's own uid)
  --token-file PATH    where the token TCP clients must send is written
                       (mode 0600; default $XDG_RUNTIME_DIR/strata-serve.token,
                       else /tmp/strata-serve-$UID.token); clients read it
                       through STRATA_REMOTE_TOKEN_FILE
  --record DIR         store each client process's stream as a trace:
                       DIR/PROGRAM-PID-SESSION.strace (strata dump, replay)
  --driver-egl PATH    the host's libEGL.so.1 (STRATA_DRIVER_EGL)
  --driver-glesv2 PATH the host's libGLESv2.so.2 (STRATA_DRIVER_GLESV2)
  --driver-glesv1 PATH the host's libGLESv1_CM.so.1 (STRATA_DRIVER_GLESV1)
  --display            show each client window's frames in a window of the
                       renderer's own too, scaled to fit (on $DISPLAY)
  --client-memory SIZE GL storage (buffers, textures, renderbuffers) each
                       client process may hold, in bytes or with K, M, G;
                       a call past it gets GL_OUT_OF_MEMORY and does not
                       reach the driver (default: half this machine's
                       memory; 0: no limit)
  --worker-memory SIZE the data segment each worker process may have
                       (RLIMIT_DATA: heap and private mappings, the driver's
                       included); past it the driver's allocations fail in
                       that worker alone (default: no limit)
  --decode-ahead WHEN  on, off or auto (default): keep a large message's
                       calls decoded on a second thread of the worker while
                       the thread that calls the driver runs the calls
                       before them; auto: on where this machine has four
                       CPUs or more
  --idle-workers N     worker processes started ahead of clients, their
                       driver loaded, so that a client's first call does
                       not wait for it (default 2; 0: each client waits for
                       its own; one is always started at first, to check
                       that workers can run). A worker whose client, a Unix
                       client of this user, ended normally may wait too,
                       warm, for the next such client (as many as N)
  -h, --help           show this help

It logs one line when ready, one per client joining and leaving (with the
reason: a worker that was killed or crashed is named with its signal) and
one per refused client, on stderr. SIGINT or SIGTERM ends every client and
stops it. A worker process under memory pressure is the kernel's first
choice to end (its oom_score_adj is 500), not the listener. The renderer
starts its workers itself, as strata serve --worker on a control socket of
its own; that form is not for use by hand.

exit status: 0 stopped by a signal, 1 could not start, 2 bad usage.
)";

serve::Server* g_server = nullptr;

void OnSignal(int) {
  if (g_server != nullptr) g_server->Stop();
}

bool ParseUid(const char* text, uid_t* uid) {
  char* end = nullptr;
  errno = 0;
  unsigned long value = std::strtoul(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || value >= static_cast<unsigned long>(static_cast<uid_t>(-1))) {
    return false;
  }
  *uid = static_cast<uid_t>(value);
  return true;
}

}  // namespace

int ServeCommandMain(int argc, char** argv) {
  serve::ServeOptions options;
  uint64_t client_memory = 0;
  bool client_memory_given = false;
  bool worker = false;
  auto usage_error = [](const std::string& message) {
    std::fprintf(stderr, "strata serve: error: %s\n\n%s", message.c_str(), kUsage);
    return 2;
  };
  CommandLine args("strata serve", kUsage,
                   {{"help", 'h', false}, {"listen", 0, true}, {"allow-uid", 0, true}, {"token-file", 0, true},
                    {"record", 0, true}, {"driver-egl", 0, true}, {"driver-glesv2", 0, true},
                    {"driver-glesv1", 0, true}, {"display", 0, false}, {"client-memory", 0, true},
                    {"worker-memory", 0, true}, {"idle-workers", 0, true}, {"decode-ahead", 0, true},
                    {"worker", 0, false}},
                   argc, argv);
  while (args.Next()) {
    const std::string value = args.value() ? args.value() : "";
    if (args.Is("help")) {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (args.Is("listen")) {
      std::string address = value;
      // tcp:PORT: loopback unless the user names another host.
      if (address.rfind("tcp:", 0) == 0 && address.find(':', 4) == std::string::npos) {
        address = "tcp:127.0.0.1:" + address.substr(4);
      }
      options.listen.push_back(address);
    } else if (args.Is("allow-uid")) {
      uid_t uid;
      if (!ParseUid(value.c_str(), &uid)) return usage_error("--allow-uid takes a number, not '" + value + "'");
      options.allow_uids.push_back(uid);
    } else if (args.Is("token-file")) {
      options.token_file = value;
    } else if (args.Is("record")) {
      options.record_dir = value;
    } else if (args.Is("driver-egl") || args.Is("driver-glesv2") || args.Is("driver-glesv1")) {
      const char* variable = args.Is("driver-egl")      ? "STRATA_DRIVER_EGL"
                             : args.Is("driver-glesv2") ? "STRATA_DRIVER_GLESV2"
                                                        : "STRATA_DRIVER_GLESV1";
      setenv(variable, value.c_str(), 1);  // read by the driver locator the host driver uses
    } else if (args.Is("display")) {
      options.display = true;
    } else if (args.Is("client-memory")) {
      if (!ParseByteSize(value, &client_memory)) {
        return usage_error("--client-memory takes a size (1073741824, 512M, 4G), not '" + value + "'");
      }
      client_memory_given = true;
    } else if (args.Is("worker-memory")) {
      if (!ParseByteSize(value, &options.worker_memory)) {
        return usage_error("--worker-memory takes a size (1073741824, 512M, 4G), not '" + value + "'");
      }
    } else if (args.Is("idle-workers")) {
      char* end = nullptr;
      const unsigned long n = std::strtoul(value.c_str(), &end, 10);
      if (value.empty() || *end != '\0' || n > 64) {
        return usage_error("--idle-workers takes a number from 0 to 64, not '" + value + "'");
      }
      options.idle_workers = n;
    } else if (args.Is("decode-ahead")) {
      if (value == "on" || value == "off") {
        options.decode_ahead = value == "on";
      } else if (value != "auto") {
        return usage_error("--decode-ahead takes on, off or auto, not '" + value + "'");
      }
    } else if (args.Is("worker")) {
      worker = true;
    }
  }
  if (args.failed()) return 2;
  if (!args.operands().empty()) return usage_error("strata serve takes no operands ('" + args.operands()[0] + "')");
  if (options.listen.empty()) options.listen.push_back(serve::DefaultAddress());
  options.client_memory = client_memory_given ? client_memory : PhysicalMemoryBytes() / 2;
  if (!options.record_dir.empty()) {
    struct stat st;
    if (stat(options.record_dir.c_str(), &st) != 0 && mkdir(options.record_dir.c_str(), 0755) != 0) {
      std::fprintf(stderr, "strata serve: error: cannot create %s: %s\n", options.record_dir.c_str(),
                   std::strerror(errno));
      return 1;
    }
  }
  if (worker) {
    serve::WorkerOptions worker_options;
    worker_options.strata_lib_dir = StrataLibraryDirectory();
    worker_options.record_dir = options.record_dir;
    worker_options.display = options.display;
    worker_options.client_memory = options.client_memory;
    worker_options.process_memory = options.worker_memory;
    worker_options.decode_ahead = options.decode_ahead;
    return serve::RunWorker(worker_options);
  }

  std::string error;
  auto server = serve::Server::Open(options, &error);
  if (!server) {
    std::fprintf(stderr, "strata serve: error: %s\n", error.c_str());
    return 1;
  }
  g_server = server.get();
  struct sigaction action {};
  action.sa_handler = OnSignal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  signal(SIGPIPE, SIG_IGN);

  std::string line = "listening on ";
  const auto addresses = server->addresses();
  for (size_t i = 0; i < addresses.size(); ++i) line += (i ? ", " : "") + addresses[i];
  if (!server->token_file().empty()) line += " (TCP clients: token in " + server->token_file() + ")";
  serve::Log(line);
  server->Run();
  g_server = nullptr;
  serve::Log("stopped");
  return 0;
}

}  // namespace strata::tools
