#pragma once
// Runs a program traced, counted twice: by Strata's call counter layer stacked
// above the trace layer, and by the test's own counting shim preloaded into
// the program (support/counting_shim.cpp), which shares no code with Strata.
// The trace must hold every call either saw.

#include <map>
#include <set>
#include <string>
#include <vector>

#include "support/process.h"

namespace strata::test {

struct TracedRun {
  ProcessResult process;
  std::map<std::string, long> counted;    // by the call counter layer
  std::map<std::string, long> preloaded;  // by the counting shim, as the program called
  std::set<std::string> unstubbed;        // functions the shim handed out uncounted (exported by no library)
  std::map<std::string, long> traced;     // in the trace, per `strata stats`
  long undecodable_records = -1;
  long uncovered_calls = -1;
  bool complete = false;
  std::string stats_json;
  // The program made desktop GL contexts (eglBindAPI(EGL_OPENGL_API)): its gl*
  // calls went to the system's libGL, which Strata does not trace.
  bool bound_desktop_gl = false;

  // What the trace and the shim must agree on: the functions the shim can
  // count; of a desktop GL program, only the EGL ones.
  std::map<std::string, long> TracedComparable() const;
  std::map<std::string, long> PreloadedComparable() const;
};

// `argv` runs through `strata run` with both layers; `options` adds to the environment.
TracedRun RunTracedAndCounted(const std::string& strata_cli, const std::vector<std::string>& argv,
                              const std::string& scratch_name, ProcessOptions options = {});

// Waits (up to 30 s) until process `pid` listens on its trace control
// socket: on a loaded machine a program under `strata run` may take longer
// than a test's pause to start, and an attach before it listens fails.
// A test failure when it never does.
void WaitUntilAttachable(int pid);

}  // namespace strata::test
