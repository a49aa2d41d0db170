#pragma once
// Runs a program for a test and captures what it printed and how it ended.

#include <map>
#include <string>
#include <vector>

namespace strata::test {

struct ProcessResult {
  int exit_code = -1;   // -1 when killed by a signal or timed out
  int signal = 0;       // the terminating signal, if any
  bool timed_out = false;
  std::string out, err;
};

struct ProcessOptions {
  std::map<std::string, std::string> set_env;  // added to this process's environment
  std::vector<std::string> unset_env;
  std::string working_directory;
  int timeout_seconds = 120;
};

// Options that only add environment variables.
inline ProcessOptions WithEnv(std::map<std::string, std::string> env) {
  ProcessOptions options;
  options.set_env = std::move(env);
  return options;
}

ProcessResult RunProcess(const std::vector<std::string>& argv, const ProcessOptions& options = {});

// "argv[0] argv[1] ..." for failure messages.
std::string Describe(const std::vector<std::string>& argv);

}  // namespace strata::test
