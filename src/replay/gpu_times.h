#pragma once
// `strata replay --gpu-times`: each draw, dispatch, clear and blit timed on
// the GPU with a GL_TIME_ELAPSED_EXT query (GL_EXT_disjoint_timer_query)
// through the replay's call hooks. Results are read without stalling: at
// each swap, those available; at a context switch and at the end, the rest.
// A disjoint event (GL_GPU_DISJOINT_EXT: the GPU's clock or power state
// changed) drops every measurement it may have spoilt.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/gpu_times_file.h"
#include "replay/replayer.h"

namespace strata::replay {

struct GpuTimerSummary {
  uint64_t measured = 0;       // calls with a time (first loop)
  uint64_t disjoint = 0;       // measurements dropped for a disjoint event (all loops)
  uint64_t not_measured = 0;   // calls of the kinds timed that got no time (all loops)
  uint64_t implausible = 0;    // of them, times the driver gave longer than the wall clock's span (dropped)
  std::vector<std::string> notes;  // why calls were not measured, once each
};

class GpuTimer {
 public:
  GpuTimer();
  ~GpuTimer();
  // The hooks that time the calls; the timer must outlive the replay.
  ReplayOptions::CallHooks Hooks();
  // After the replay: each measured call with the median of its loops'
  // times, in call order, and the replaying driver's name.
  GpuTimesFile Result(const std::string& trace) const;
  const GpuTimerSummary& summary() const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace strata::replay
