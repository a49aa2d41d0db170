// strata replay --gpu-times on pixel_app: one positive time for every draw,
// clear and blit, none for anything else; strata export --gpu-times puts
// each on a GPU track, strata view --gpu-times into the report. Bad input.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support/json_value.h"
#include "support/process.h"
#include "support/scratch.h"

namespace {

using strata::test::Json;
using strata::test::ProcessResult;
using strata::test::RunProcess;
using strata::test::ScratchPath;

ProcessResult Strata(std::vector<std::string> args) {
  args.insert(args.begin(), STRATA_CLI);
  return RunProcess(args);
}

std::string Read(const std::string& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// call -> ns, from a --gpu-times file.
std::map<uint64_t, uint64_t> Times(const std::string& path) {
  std::map<uint64_t, uint64_t> times;
  std::istringstream lines(Read(path));
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    uint64_t call = 0, frame = 0, context = 0, ns = 0;
    fields >> call >> frame >> context >> ns;
    EXPECT_TRUE(times.emplace(call, ns).second) << "call " << call << " twice";
  }
  return times;
}

class GpuTimes : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    trace_ = new std::string(ScratchPath("pixel_app-3.strace"));
    ProcessResult run = RunProcess({STRATA_CLI, "trace", "-o", *trace_, "--", STRATA_PIXEL_APP, "3"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
  }
  static void TearDownTestSuite() { delete trace_; }
  static std::string* trace_;
};
std::string* GpuTimes::trace_ = nullptr;

// Catches: calls left untimed or timed twice, times of zero (a query that
// measured nothing) or the driver's nonsense, calls timed that are no GPU
// work, the export or the report missing a time or changing it.
TEST_F(GpuTimes, OnePositiveTimePerDrawCarriedIntoTheExportAndTheReport) {
  const std::string times_path = ScratchPath("pixel_app.gpu");
  ProcessResult r = Strata({"replay", "--gpu-times", times_path, *trace_});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("gpu times: "), std::string::npos) << r.out;
  const std::map<uint64_t, uint64_t> times = Times(times_path);
  // Every draw, clear and blit of the trace, and nothing else.
  std::set<uint64_t> work;
  std::istringstream dump(Strata({"dump", "--no-header", *trace_}).out);
  for (std::string line; std::getline(dump, line);) {
    if (std::regex_search(line, std::regex(R"(^\d+ \[\d+\] (glDraw|glClear\(|glBlitFramebuffer))"))) {
      work.insert(std::stoull(line));
    }
  }
  ASSERT_EQ(work.size(), 3u * 11u + 1u) << "pixel_app: 8 draws (9 in odd frames), 2 clears, 1 blit a frame";
  std::set<uint64_t> timed;
  for (const auto& [call, ns] : times) {
    timed.insert(call);
    EXPECT_GT(ns, 0u) << "call " << call;
    EXPECT_LT(ns, 10'000'000'000u) << "call " << call;
  }
  EXPECT_EQ(timed, work);
  // The export: one GPU slice per time, with the time.
  const std::string json_path = ScratchPath("pixel_app.json");
  ProcessResult exported = Strata({"export", *trace_, "-o", json_path, "--gpu-times", times_path});
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  Json json;
  std::string error;
  ASSERT_TRUE(strata::test::ParseJson(Read(json_path), &json, &error)) << error;
  std::map<uint64_t, uint64_t> sliced;
  std::set<double> gpu_tracks;
  for (const Json& event : json["traceEvents"].array) {
    if (event["cat"].string != "gpu") continue;
    sliced[static_cast<uint64_t>(event["args"]["seq"].number)] = static_cast<uint64_t>(event["args"]["gpu_ns"].number);
    EXPECT_NEAR(event["dur"].number * 1000, event["args"]["gpu_ns"].number, 1) << "dur is the time in microseconds";
    gpu_tracks.insert(event["tid"].number);
  }
  EXPECT_EQ(sliced, times);
  EXPECT_EQ(gpu_tracks.size(), 1u) << "one context, one GPU track";
  // The report: each frame's calls with their times.
  const std::string page_path = ScratchPath("pixel_app.html");
  ProcessResult viewed = Strata({"view", *trace_, "-o", page_path, "--thumbnails", "none", "--gpu-times", times_path});
  ASSERT_EQ(viewed.exit_code, 0) << viewed.err;
  const std::string page = Read(page_path);
  const size_t start = page.find("<script type=\"application/json\" id=\"report-data\">");
  ASSERT_NE(start, std::string::npos);
  const size_t body = page.find('>', start) + 1;
  Json data;
  ASSERT_TRUE(strata::test::ParseJson(page.substr(body, page.find("</script>", body) - body), &data, &error)) << error;
  std::map<uint64_t, uint64_t> reported;
  for (const Json& frame : data["gpu"]["calls"].array) {
    std::istringstream numbers(frame.string);
    for (std::string seq, ns; std::getline(numbers, seq, ',') && std::getline(numbers, ns, ',');) {
      reported[std::stoull(seq)] = std::stoull(ns);
    }
  }
  EXPECT_EQ(reported, times);
}

// Catches: an unwritable file or a foreign one accepted, GPU times offered
// to a format that cannot hold them.
TEST_F(GpuTimes, BadFilesAreOneError) {
  ProcessResult unwritable = Strata({"replay", "--gpu-times", ScratchPath("no-such-dir/times.gpu"), *trace_});
  EXPECT_EQ(unwritable.exit_code, 1);
  EXPECT_NE(unwritable.err.find("--gpu-times: cannot write"), std::string::npos) << unwritable.err;
  ProcessResult foreign = Strata({"export", *trace_, "-o", ScratchPath("x.json"), "--gpu-times", *trace_});
  EXPECT_EQ(foreign.exit_code, 1);
  EXPECT_NE(foreign.err.find("is not a file of GPU times"), std::string::npos) << foreign.err;
  ProcessResult gltrace = Strata({"export", *trace_, "-o", ScratchPath("x.gltrace"), "--gpu-times", *trace_});
  EXPECT_EQ(gltrace.exit_code, 2);
  EXPECT_NE(gltrace.err.find("--gpu-times is for chrome-json"), std::string::npos) << gltrace.err;
}

}  // namespace
