#pragma once
// Runs a program traced with the call counter layer stacked above the trace
// layer, and compares what each saw: the trace must hold every call.

#include <map>
#include <string>
#include <vector>

#include "support/process.h"

namespace strata::test {

struct TracedRun {
  ProcessResult process;
  std::map<std::string, long> counted;  // by the call counter
  std::map<std::string, long> traced;   // in the trace, per `strata stats`
  long undecodable_records = -1;
  long uncovered_calls = -1;
  bool complete = false;
  std::string stats_json;
};

// `argv` runs through `strata run` with both layers; `options` adds to the environment.
TracedRun RunTracedAndCounted(const std::string& strata_cli, const std::vector<std::string>& argv,
                              const std::string& scratch_name, ProcessOptions options = {});

}  // namespace strata::test
