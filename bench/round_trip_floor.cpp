// The floor of a round trip between two processes on this machine, with none
// of Strata's code: `--pairs N` pairs of processes (a "client" and its
// "worker", as a remote client and its renderer worker) each hand a token
// back and forth `--trips M` times through a word of shared memory, waiting
// with a futex (after spinning for `--spin-us` while a core is free, as the
// rings do; or yielding the core while it looks), all pairs at once. It prints the wall time from the first
// pair's start to the last pair's end and the time per round trip, to set
// beside N native processes doing M answered calls each
// (`trace_workload --mode roundtrip`): no remote renderer whose client waits
// for an answer can beat this. docs/benchmarks.md has the command and figures.
#include <linux/futex.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

struct alignas(64) Mailbox {
  std::atomic<uint32_t> turn{0};  // even: the client's turn, odd: the worker's
  std::atomic<uint32_t> sleepers{0};
};

bool g_yield = false;  // --yield: give the core away while spinning
bool g_pin = false;    // --pin: both processes of a pair on one core

void FutexWait(std::atomic<uint32_t>* word, uint32_t expected) {
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(word), FUTEX_WAIT, expected, nullptr, nullptr, 0);
}
void FutexWake(std::atomic<uint32_t>* word) {
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(word), FUTEX_WAKE, 1, nullptr, nullptr, 0);
}

// Waits until `turn` has `parity`, spinning up to `spin_us` first.
void AwaitTurn(Mailbox* box, uint32_t parity, int spin_us) {
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::microseconds(spin_us);
  uint32_t seen = box->turn.load(std::memory_order_acquire);
  while ((seen & 1) != parity && spin_us > 0 && std::chrono::steady_clock::now() < give_up) {
    if (g_yield) sched_yield(); else __builtin_ia32_pause();
    seen = box->turn.load(std::memory_order_acquire);
  }
  while ((seen & 1) != parity) {
    box->sleepers.fetch_add(1, std::memory_order_seq_cst);
    seen = box->turn.load(std::memory_order_seq_cst);
    if ((seen & 1) != parity) FutexWait(&box->turn, seen);
    box->sleepers.fetch_sub(1, std::memory_order_relaxed);
    seen = box->turn.load(std::memory_order_acquire);
  }
}

void PassTurn(Mailbox* box) {
  box->turn.fetch_add(1, std::memory_order_seq_cst);
  if (box->sleepers.load(std::memory_order_seq_cst) != 0) FutexWake(&box->turn);
}

[[noreturn]] void Usage(int status) {
  std::fprintf(status == 0 ? stdout : stderr,
               "usage: round_trip_floor [--pairs N] [--trips M] [--spin-us U] [--yield] [--pin]\n"
               "  N pairs of processes hand a token back and forth M times each through shared\n"
               "  memory and a futex, all pairs at once (defaults: 4 pairs, 200000 trips, 0 us spin);\n"
               "  --yield gives the core away (sched_yield) while spinning instead of pausing;\n"
               "  --pin puts both processes of a pair on one core.\n");
  std::exit(status);
}

}  // namespace

int main(int argc, char** argv) {
  int pairs = 4, spin_us = 0;
  long trips = 200000;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") Usage(0);
    if (arg == "--yield" || arg == "--pin") {
      (arg == "--yield" ? g_yield : g_pin) = true;
      continue;
    }
    if (i + 1 >= argc) Usage(2);
    const long value = std::strtol(argv[++i], nullptr, 10);
    if (arg == "--pairs" && value > 0 && value <= 64) {
      pairs = static_cast<int>(value);
    } else if (arg == "--trips" && value > 0) {
      trips = value;
    } else if (arg == "--spin-us" && value >= 0) {
      spin_us = static_cast<int>(value);
    } else {
      std::fprintf(stderr, "round_trip_floor: error: bad option %s %s\n", arg.c_str(), argv[i]);
      Usage(2);
    }
  }
  void* shared = mmap(nullptr, sizeof(Mailbox) * pairs + 64, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (shared == MAP_FAILED) {
    std::perror("round_trip_floor: error: mmap");
    return 1;
  }
  auto* boxes = new (shared) Mailbox[pairs];
  auto* start_gate = reinterpret_cast<std::atomic<uint32_t>*>(static_cast<char*>(shared) + sizeof(Mailbox) * pairs);
  start_gate->store(0);
  for (int p = 0; p < 2 * pairs; ++p) {
    const pid_t pid = fork();
    if (pid < 0) {
      std::perror("round_trip_floor: error: fork");
      return 1;
    }
    if (pid != 0) continue;
    Mailbox* box = &boxes[p / 2];
    const bool client = p % 2 == 0;
    if (g_pin) {
      cpu_set_t cpus;
      CPU_ZERO(&cpus);
      CPU_SET((p / 2) % sysconf(_SC_NPROCESSORS_ONLN), &cpus);
      sched_setaffinity(0, sizeof cpus, &cpus);
    }
    while (start_gate->load(std::memory_order_acquire) == 0) sched_yield();
    for (long t = 0; t < trips; ++t) {
      if (client) {
        PassTurn(box);           // the request
        AwaitTurn(box, 0, spin_us);  // its answer
      } else {
        AwaitTurn(box, 1, spin_us);
        PassTurn(box);
      }
    }
    _exit(0);
  }
  const auto begin = std::chrono::steady_clock::now();
  start_gate->store(1, std::memory_order_release);
  int failed = 0;
  for (int p = 0; p < 2 * pairs; ++p) {
    int status = 0;
    if (wait(&status) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) ++failed;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  if (failed != 0) {
    std::fprintf(stderr, "round_trip_floor: error: %d processes failed\n", failed);
    return 1;
  }
  std::printf("%d pairs x %ld round trips, spin %d us%s%s: %.3f s, %.2f us per round trip per pair\n", pairs, trips,
              spin_us, g_yield ? " yielding" : "", g_pin ? ", pinned" : "", seconds,
              seconds * 1e6 / static_cast<double>(trips));
  return 0;
}
