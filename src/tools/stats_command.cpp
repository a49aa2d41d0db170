// strata stats TRACE: where the calls, bytes and CPU time of a trace went.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "common/json_writer.h"
#include "strata/api/traits.h"
#include "stream/call_decoder.h"
#include "stream/frame_numbering.h"
#include "stream/record_reader.h"
#include "tools/command.h"
#include "tools/command_line.h"

namespace strata::tools {
namespace {

constexpr char kUsage[] = R"(usage: strata stats [--json] [--top N] TRACE

Summarizes a trace: calls, draw calls, frames and bytes; per function its
calls, bytes recorded and CPU time spent in the driver; per frame its calls,
draws and CPU time. Frames are counted by their ends (swaps); the calls after
the last swap are listed as an unfinished frame that no count includes
(docs/trace-format.md, "Frames").

options:
  --json       one JSON object instead of tables
  --top N      functions to list (default 25; 0 for all)
  -h, --help   show this help
)";

struct FunctionStats {
  uint64_t calls = 0, bytes = 0, ns = 0, untimed = 0;  // untimed: calls recorded without a clock reading
};
struct FrameStats {
  uint64_t calls = 0, draws = 0, ns = 0;
};

}  // namespace

int StatsCommandMain(int argc, char** argv) {
  bool json = false;
  uint64_t top = 25;
  std::string path;
  CommandLine args("strata stats", kUsage, {{"help", 'h', false}, {"json", 0, false}, {"top", 0, true}}, argc, argv);
  while (args.Next()) {
    if (args.Is("help")) {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (args.Is("json")) {
      json = true;
    } else if (args.Is("top")) {
      if (!args.Count(&top)) return 2;
    }
  }
  if (args.failed() || !args.OneTrace(&path)) return 2;
  std::string error;
  auto reader = stream::RecordReader::Open(path, &error);
  if (!reader) {
    std::fprintf(stderr, "strata stats: error: %s\n", error.c_str());
    return 1;
  }
  std::map<std::string, FunctionStats> functions;
  std::vector<FrameStats> frames(1);
  uint64_t calls = 0, draws = 0, record_bytes = 0, memory_bytes = 0, undecodable = 0, uncovered = 0, untimed = 0,
           unknown_functions = 0;
  uint64_t framebuffers = 0, framebuffer_bytes = 0;
  stream::Record record;
  stream::DecodedCall call;
  stream::CallDecoder decoder(reader->functions());
  decoder.AcceptUnknownFunctions(true);
  while (reader->Next(&record)) {
    record_bytes += record.payload.size() + 2;
    if (record.type == stream::RecordType::kFrame) {
      frames.emplace_back();
    } else if (record.type == stream::RecordType::kMemory) {
      memory_bytes += record.payload.size();
    } else if (record.type == stream::RecordType::kFramebuffer) {
      ++framebuffers;
      framebuffer_bytes += record.payload.size();
    } else if (record.type == stream::RecordType::kCall) {
      if (!decoder.Decode(record.payload, record.thread_id, record.chunk, &call, &error)) {
        ++undecodable;
        continue;
      }
      std::string name(call.name);
      FunctionStats& f = functions[name];
      ++f.calls;
      f.bytes += record.payload.size();
      f.ns += call.duration_ns;
      ++calls;
      uncovered += (call.flags & stream::kCallUncovered) != 0;
      unknown_functions += call.slot < 0;
      if (call.flags & stream::kCallUntimed) {
        ++f.untimed;
        ++untimed;
      }
      FrameStats& frame = frames.back();
      ++frame.calls;
      frame.ns += call.duration_ns;
      if (api::IsGpuWork(call.slot)) {
        ++frame.draws;
        ++draws;
      }
    }
  }
  // The calls after the last frame end are an unfinished frame: listed, never counted (stream/frame_numbering.h).
  const uint64_t ended_frames = frames.size() - 1, calls_after_last_frame = frames.back().calls;
  if (frames.size() > 1 && frames.back().calls == 0) frames.pop_back();
  std::vector<std::pair<std::string, FunctionStats>> sorted(functions.begin(), functions.end());
  std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
    return a.second.calls != b.second.calls ? a.second.calls > b.second.calls : a.first < b.first;
  });
  if (top != 0 && sorted.size() > top) sorted.resize(top);
  uint64_t total_ns = 0;
  for (const auto& [name, f] : functions) total_ns += f.ns;

  if (json) {
    JsonWriter out;
    out.BeginObject().Key("program").String(reader->header().program).Key("calls").Int(calls);
    out.Key("draws").Int(draws).Key("frames").Int(ended_frames);
    out.Key("calls_after_last_frame").Int(calls_after_last_frame).Key("record_bytes").Int(record_bytes);
    out.Key("memory_bytes").Int(memory_bytes).Key("uncovered_calls").Int(uncovered).Key("untimed_calls").Int(untimed);
    out.Key("unknown_function_calls").Int(unknown_functions);
    out.Key("framebuffers").Int(framebuffers).Key("framebuffer_bytes").Int(framebuffer_bytes);
    out.Key("undecodable_records").Int(undecodable).Key("complete").Bool(reader->complete());
    out.Key("functions").BeginArray();
    for (const auto& [name, f] : sorted) {
      out.BeginObject().Key("name").String(name).Key("calls").Int(f.calls).Key("bytes").Int(f.bytes);
      out.Key("cpu_ns").Int(f.ns).Key("untimed_calls").Int(f.untimed).EndObject();
    }
    out.EndArray().Key("per_frame").BeginArray();
    for (size_t i = 0; i < frames.size(); ++i) {
      const FrameStats& f = frames[i];
      out.BeginObject().Key("calls").Int(f.calls).Key("draws").Int(f.draws).Key("cpu_ns").Int(f.ns);
      out.Key("ended").Bool(i < ended_frames).EndObject();
    }
    out.EndArray().EndObject();
    std::printf("%s\n", out.str().c_str());
  } else {
    std::printf("trace:   %s (%s, pid %lld)%s\n", path.c_str(), reader->header().program.c_str(),
                static_cast<long long>(reader->header().pid), reader->complete() ? "" : "  [incomplete: no index]");
    std::printf("calls:   %llu (%llu draws) in %s; %.3f ms in the driver\n", static_cast<unsigned long long>(calls),
                static_cast<unsigned long long>(draws), stream::FrameSummary(ended_frames, calls_after_last_frame).c_str(),
                total_ns / 1e6);
    std::printf("bytes:   %llu in records (%llu of them app memory: client arrays, mapped buffers)\n",
                static_cast<unsigned long long>(record_bytes), static_cast<unsigned long long>(memory_bytes));
    if (framebuffers) {
      std::printf("images:  %llu framebuffers captured (%llu bytes before compression)\n",
                  static_cast<unsigned long long>(framebuffers), static_cast<unsigned long long>(framebuffer_bytes));
    }
    if (unknown_functions) {
      std::printf("note:    %llu calls to functions Strata's registry does not know: recorded by name, without "
                  "arguments; replay skips them\n",
                  static_cast<unsigned long long>(unknown_functions));
    }
    if (uncovered) std::printf("note:    %llu calls have pointer data Strata does not capture yet (strata info --coverage)\n", static_cast<unsigned long long>(uncovered));
    if (untimed) {
      std::printf("note:    %llu state-setting calls are not timed (\"untimed\" below; STRATA_TRACE_TIMING=all times them)\n",
                  static_cast<unsigned long long>(untimed));
    }
    std::printf("\n%-36s %10s %12s %12s %6s\n", "function", "calls", "bytes", "cpu ms", "cpu %");
    for (const auto& [name, f] : sorted) {
      if (f.untimed == f.calls) {
        std::printf("%-36s %10llu %12llu %12s %6s\n", name.c_str(), static_cast<unsigned long long>(f.calls),
                    static_cast<unsigned long long>(f.bytes), "untimed", "");
        continue;
      }
      std::printf("%-36s %10llu %12llu %12.3f %5.1f%%\n", name.c_str(), static_cast<unsigned long long>(f.calls),
                  static_cast<unsigned long long>(f.bytes), f.ns / 1e6, total_ns ? 100.0 * f.ns / total_ns : 0.0);
    }
    std::printf("\n%-8s %10s %8s %12s\n", "frame", "calls", "draws", "cpu ms");
    for (size_t i = 0; i < frames.size(); ++i) {
      if (frames.size() > 40 && i == 20) {
        std::printf("%-8s\n", "...");
        i = frames.size() - 20;
      }
      std::printf("%-8zu %10llu %8llu %12.3f%s\n", i, static_cast<unsigned long long>(frames[i].calls),
                  static_cast<unsigned long long>(frames[i].draws), frames[i].ns / 1e6,
                  i < ended_frames ? "" : "  (unfinished: no frame end)");
    }
  }
  if (!reader->error().empty()) {
    std::fprintf(stderr, "strata stats: %s: %s\n", reader->truncated() ? "warning" : "error", reader->error().c_str());
    return reader->truncated() ? 0 : 1;
  }
  return 0;
}

}  // namespace strata::tools
