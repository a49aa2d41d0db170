#include "support/trace_check.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <regex>

#include "support/scratch.h"

namespace strata::test {
namespace {

std::map<std::string, long> CounterFile(const std::string& path) {
  std::map<std::string, long> counts;
  std::ifstream in(path);
  std::string first;
  std::getline(in, first);
  long n;
  std::string name;
  while (in >> n >> name) counts[name] = n;
  return counts;
}

// "name count" lines, summed over the processes that wrote them, and "unstubbed name".
void ReadShimFile(const std::string& path, std::map<std::string, long>& counts, std::set<std::string>& unstubbed) {
  std::ifstream in(path);
  std::string first, second;
  while (in >> first >> second) {
    if (first == "unstubbed") {
      unstubbed.insert(second);
    } else {
      counts[first] += std::stol(second);
    }
  }
}

long JsonNumber(const std::string& json, const std::string& key) {
  std::smatch m;
  if (!std::regex_search(json, m, std::regex("\"" + key + "\":(\\d+)"))) return -1;
  return std::stol(m[1]);
}

}  // namespace

TracedRun RunTracedAndCounted(const std::string& strata_cli, const std::vector<std::string>& argv,
                              const std::string& scratch_name, ProcessOptions options) {
  std::string trace = ScratchPath(scratch_name + ".strace");
  std::string counts = trace + ".counts";
  std::string shim_counts = trace + ".shim-counts";
  std::vector<std::string> run = {strata_cli, "run", "--"};
  run.insert(run.end(), argv.begin(), argv.end());
  options.set_env["STRATA_LAYERS"] = "libstrata_call_counter.so:libstrata_trace.so";
  options.set_env["STRATA_TRACE"] = "file:" + trace;
  options.set_env["STRATA_CALL_COUNTER_OUTPUT"] = counts;
  options.set_env["LD_PRELOAD"] = STRATA_COUNTING_SHIM;
  options.set_env["COUNTING_SHIM_OUTPUT"] = shim_counts;
  unlink(shim_counts.c_str());  // the shim appends
  TracedRun result;
  result.process = RunProcess(run, options);
  result.counted = CounterFile(counts);
  ReadShimFile(shim_counts, result.preloaded, result.unstubbed);
  ProcessResult stats = RunProcess({strata_cli, "stats", "--json", "--top", "0", trace});
  result.stats_json = stats.out;
  static const std::regex entry(R"re(\{"name":"([A-Za-z0-9_]+)","calls":(\d+))re");
  for (auto it = std::sregex_iterator(stats.out.begin(), stats.out.end(), entry); it != std::sregex_iterator(); ++it) {
    result.traced[(*it)[1]] = std::stol((*it)[2]);
  }
  result.undecodable_records = JsonNumber(stats.out, "undecodable_records");
  result.uncovered_calls = JsonNumber(stats.out, "uncovered_calls");
  result.complete = stats.out.find("\"complete\":true") != std::string::npos;
  ProcessResult bind_api = RunProcess({strata_cli, "dump", "--no-header", "--grep", "^eglBindAPI", trace});
  result.bound_desktop_gl = bind_api.out.find("api=EGL_OPENGL_API") != std::string::npos;
  unlink(trace.c_str());
  unlink(counts.c_str());
  unlink(shim_counts.c_str());
  return result;
}

namespace {

std::map<std::string, long> EglOnly(std::map<std::string, long> counts) {
  std::erase_if(counts, [](const auto& entry) { return entry.first.rfind("egl", 0) != 0; });
  return counts;
}

}  // namespace

std::map<std::string, long> TracedRun::TracedComparable() const {
  std::map<std::string, long> countable = traced;
  for (const std::string& name : unstubbed) countable.erase(name);
  return bound_desktop_gl ? EglOnly(countable) : countable;
}

std::map<std::string, long> TracedRun::PreloadedComparable() const {
  return bound_desktop_gl ? EglOnly(preloaded) : preloaded;
}

void WaitUntilAttachable(int pid) {
  const std::string name = "@strata-trace-" + std::to_string(pid);
  for (int tries = 0; tries < 600; ++tries) {
    std::ifstream sockets("/proc/net/unix");
    for (std::string line; std::getline(sockets, line);) {
      if (line.ends_with(name)) return;
    }
    usleep(50000);
  }
  ADD_FAILURE() << "process " << pid << " never listened on " << name;
}

}  // namespace strata::test
