#pragma once
// Waiting awake for the other side, only while it helps.
//
// A reader that sleeps is woken across CPUs, which costs 100-500 us on the
// virtual machines we measure on, while an answer often comes in a few us:
// so a waiter first looks without sleeping. That pays only while the thread
// it waits for has a core of its own. Once the machine has more runnable
// threads than cores (several clients and their renderer workers on two
// cores), a spinning waiter takes the core the other side needs, and every
// round trip costs a scheduler time slice instead of microseconds. So the
// spin asks the kernel how many threads are runnable right now
// (/proc/loadavg's fourth field, which counts the spinner itself) and stops
// as soon as they outnumber the cores; then the waiter sleeps on its file
// descriptor or futex as usual.

#include <sched.h>

#include <chrono>
#include <cstdint>

namespace strata::transport {

// True while every runnable thread of the machine (the caller included) has
// a core. Costs a read of /proc/loadavg (about a microsecond); true where it
// cannot be read (then the spin's length alone bounds it).
bool CoreToSpare();

// The calling thread's last answer of CoreToSpare, if it is younger than
// kVerdictNs: on a machine found full a moment ago a waiter does not spin
// at all, not even the grace, which there only burns the core it waits for.
inline constexpr int64_t kVerdictNs = 2'000'000;
bool RecentlyFull(std::chrono::steady_clock::time_point now);
// CoreToSpare, remembered for RecentlyFull.
bool CoreToSpareNow(std::chrono::steady_clock::time_point now);

// On a full machine: looks for `ready()` between giving the core away
// (sched_yield) until `until`. The thread waited for, if it waits for this
// core, runs at once, with no wake-up across CPUs (a futex or eventfd wake
// and its sleep cost about 11 us a round trip here, a yield about 6:
// bench/round_trip_floor.cpp); a waiter with nobody else to run looks again.
template <typename Ready>
bool YieldWhileWaiting(Ready ready, std::chrono::steady_clock::time_point until) {
  for (;;) {
    if (ready()) return true;
    sched_yield();
    if (std::chrono::steady_clock::now() >= until) return ready();
  }
}

// Spins until `ready()` or `spin_ns` passed; once the machine has no core to
// spare (asked first after a short grace, so that an answer that comes in a
// few microseconds costs no system call, then every few microseconds), it
// yields the core between looks instead (YieldWhileWaiting). True when
// ready() was seen true.
template <typename Ready>
bool SpinWhileUseful(Ready ready, int64_t spin_ns) {
  using Clock = std::chrono::steady_clock;
  if (spin_ns <= 0) return false;
  constexpr int64_t kGraceNs = 4'000;
  constexpr int64_t kAskEveryNs = 20'000;
  const auto start = Clock::now();
  const auto until = start + std::chrono::nanoseconds(spin_ns);
  if (RecentlyFull(start)) return YieldWhileWaiting(ready, until);
  auto next_ask = start + std::chrono::nanoseconds(kGraceNs);
  for (;;) {
    if (ready()) return true;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
    const auto now = Clock::now();
    if (now >= until) return false;
    if (now >= next_ask) {
      if (!CoreToSpareNow(now)) return YieldWhileWaiting(ready, until);
      next_ask = now + std::chrono::nanoseconds(kAskEveryNs);
    }
  }
}

}  // namespace strata::transport
