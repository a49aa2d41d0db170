#pragma once
// Which process traces, decided by each process for itself, not when the
// library loads: a launcher that loads EGL and forks into apps decides nothing
// for them (the layers document's rule). A process decides at its first call
// through the layer; a forked child only when it opens an EGL display of its
// own (eglGetDisplay, eglGetPlatformDisplay[EXT] or eglInitialize), with a
// fresh session and a trace file of its own. A child that only uses what it
// inherited records nothing.

#include <atomic>
#include <string>

namespace strata::trace {

// At layer initialization: reads the environment (STRATA_TRACE,
// STRATA_TRACE_CONTROL, STRATA_TRACE_PROCESS, ...). False when this process
// can never trace, so the layer wraps nothing.
bool PrepareTracing(const std::string& driver);

// Where this process is with its decision; back to kUndecided in a forked child.
enum class Decision : int { kUndecided, kDeciding, kDecided };
extern std::atomic<Decision> g_decision;
void DecideTracing();
inline bool ProcessDecided() { return g_decision.load(std::memory_order_acquire) == Decision::kDecided; }
// The generated wrappers of the display-opening calls call this first; a
// thread's first call (JoinTracing) decides in a process that was not forked.
inline void DecisionPoint() {
  if (!ProcessDecided()) [[unlikely]] DecideTracing();
}

}  // namespace strata::trace
