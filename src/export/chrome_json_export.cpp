#include "export/chrome_json_export.h"

#include <algorithm>
#include <charconv>
#include <string>
#include <string_view>
#include <unordered_map>

#include "common/json_writer.h"
#include "stream/call_printer.h"
#include "stream/record_format.h"
#include "strata/api/functions.h"

namespace strata::exporter {
namespace {

using api::ArgKind;

constexpr size_t kFlushSize = 1 << 20;

void AppendInt(std::string& out, uint64_t value) {
  char digits[24];
  auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
  out.append(digits, end);
}

void AppendSigned(std::string& out, int64_t value) {
  char digits[24];
  auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
  out.append(digits, end);
}

// Trace Event Format times are microseconds; ns keep their precision as
// three decimals, written exactly (no floating point).
void AppendMicros(std::string& out, uint64_t ns) {
  AppendInt(out, ns / 1000);
  uint64_t fraction = ns % 1000;
  char digits[4] = {'.', static_cast<char>('0' + fraction / 100), static_cast<char>('0' + fraction / 10 % 10),
                    static_cast<char>('0' + fraction % 10)};
  out.append(digits, 4);
}

// A JSON string; bytes that are not UTF-8 become U+FFFD (common/json_writer.h).
void AppendString(std::string& out, std::string_view s) { AppendJsonQuoted(&out, s); }

class ChromeJsonWriter : public TraceVisitor {
 public:
  ChromeJsonWriter(const stream::TraceHeader& header, OutputFile& out, ExportSummary* summary,
                   const GpuTimesFile* gpu_times)
      : header_(header), pid_(header.pid > 0 ? static_cast<uint64_t>(header.pid) : 0), out_(out), summary_(summary),
        gpu_times_(gpu_times) {
    if (gpu_times_) {
      for (const GpuTime& time : gpu_times_->calls) gpu_ns_[time.sequence] = time.ns;
    }
  }

  void Begin() {
    buffer_ += "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"program\":";
    AppendString(buffer_, header_.program);
    buffer_ += ",\"command_line\":";
    AppendString(buffer_, header_.command_line);
    buffer_ += ",\"start_time_unix_ns\":";
    AppendSigned(buffer_, header_.start_time_unix_ns);
    buffer_ += "},\"traceEvents\":[";
    BeginEvent("M", "process_name", pid_);
    buffer_ += ",\"args\":{\"name\":";
    AppendString(buffer_, header_.program);
    buffer_ += "}}";
  }

  void OnCall(const stream::DecodedCall& call, bool selected) override {
    Track& track = TrackOf(call.thread);
    if (!track.seen_call) {
      track.seen_call = true;
      track.frame_start_ns = call.start_ns;
    }
    track.last_end_ns = call.start_ns + call.duration_ns;
    if (!selected) return;
    if (!track.named) NameThread(call.thread, track);
    const api::FunctionInfo& info = api::kFunctions[call.slot];
    BeginEvent("X", info.name, call.thread);
    buffer_ += ",\"cat\":";
    buffer_ += info.is_egl ? "\"egl\"" : "\"gles\"";
    buffer_ += ",\"ts\":";
    AppendMicros(buffer_, call.start_ns);
    buffer_ += ",\"dur\":";
    AppendMicros(buffer_, call.duration_ns);
    buffer_ += ",\"args\":{\"seq\":";
    AppendInt(buffer_, call.sequence);
    buffer_ += ",\"context\":";
    AppendInt(buffer_, call.context);
    for (int i = 0; i < info.param_count; ++i) {
      buffer_ += ',';
      AppendString(buffer_, info.params[i].name);
      buffer_ += ':';
      AppendValue(call, i);
    }
    if (call.has_reply && call.result.kind != ArgKind::kVoid) {
      buffer_ += ",\"result\":";
      AppendString(buffer_, stream::FormatResult(call));
    }
    if (call.flags & stream::kCallSynthesized) buffer_ += ",\"synthesized\":true";
    if (call.flags & stream::kCallUntimed) buffer_ += ",\"untimed\":true";
    buffer_ += "}}";
    ++summary_->calls;
    if (auto gpu = gpu_ns_.find(call.sequence); gpu != gpu_ns_.end()) GpuSlice(call, info.name, gpu->second);
    FlushIfFull();
  }

  void OnFramebuffer(uint32_t, const stream::FramebufferImage&, bool) override {}  // no place for pixels here

  // A frame runs from the end of the thread's previous swap (or its first
  // call) to the end of the swap that ends it.
  void OnFrameEnd(uint32_t thread, uint64_t frame, bool selected) override {
    Track& track = TrackOf(thread);
    if (!track.seen_call) return;  // a frame end without a swap before it: nothing to span
    uint64_t start = track.frame_start_ns, end = std::max(track.last_end_ns, start);
    track.frame_start_ns = end;
    if (!selected) return;
    if (!track.named) NameThread(thread, track);
    uint64_t frame_track = thread + kFrameTrackOffset;
    if (!track.frames_named) {
      track.frames_named = true;
      BeginEvent("M", "thread_name", frame_track);
      buffer_ += ",\"args\":{\"name\":\"frames of thread ";
      AppendInt(buffer_, thread);
      buffer_ += "\"}}";
      BeginEvent("M", "thread_sort_index", frame_track);
      buffer_ += ",\"args\":{\"sort_index\":";
      AppendInt(buffer_, track.sort_index * 2 + 1);
      buffer_ += "}}";
    }
    BeginEvent("X", "frame " + std::to_string(frame), frame_track);
    buffer_ += ",\"cat\":\"frame\",\"ts\":";
    AppendMicros(buffer_, start);
    buffer_ += ",\"dur\":";
    AppendMicros(buffer_, end - start);
    buffer_ += ",\"args\":{\"frame\":";
    AppendInt(buffer_, frame);
    buffer_ += ",\"thread\":";
    AppendInt(buffer_, thread);
    buffer_ += "}}";
    FlushIfFull();
  }

  bool OutputFailed() const override { return out_.failed(); }

  void Finish() {
    buffer_ += "\n]}\n";
    out_.Write(buffer_);
    buffer_.clear();
  }

 private:
  // The call's GPU time on its context's GPU track. The times come from a
  // replay, not from the traced run: each slice starts where its call
  // started, or where the slice before it on the track ended (the GPU runs
  // a context's work in order), whichever is later.
  void GpuSlice(const stream::DecodedCall& call, std::string_view name, uint64_t ns) {
    const uint64_t track = kGpuTrackOffset + call.context;
    auto [it, added] = gpu_end_ns_.try_emplace(call.context, 0);
    if (added) {
      BeginEvent("M", "thread_name", track);
      buffer_ += ",\"args\":{\"name\":";
      AppendString(buffer_, "GPU, context " + std::to_string(call.context) + " (replayed on " + gpu_times_->renderer + ")");
      buffer_ += "}}";
      BeginEvent("M", "thread_sort_index", track);
      buffer_ += ",\"args\":{\"sort_index\":";
      AppendInt(buffer_, (uint64_t{1} << 20) + call.context);
      buffer_ += "}}";
    }
    const uint64_t start = std::max(call.start_ns, it->second);
    it->second = start + ns;
    BeginEvent("X", name, track);
    buffer_ += ",\"cat\":\"gpu\",\"ts\":";
    AppendMicros(buffer_, start);
    buffer_ += ",\"dur\":";
    AppendMicros(buffer_, ns);
    buffer_ += ",\"args\":{\"seq\":";
    AppendInt(buffer_, call.sequence);
    buffer_ += ",\"gpu_ns\":";
    AppendInt(buffer_, ns);
    buffer_ += "}}";
    ++summary_->gpu_slices;
  }

  struct Track {
    bool seen_call = false, named = false, frames_named = false;
    uint64_t sort_index = 0;  // threads in the order they first appear
    uint64_t frame_start_ns = 0, last_end_ns = 0;
  };

  Track& TrackOf(uint64_t thread) {
    auto [it, added] = tracks_.try_emplace(thread);
    if (added) it->second.sort_index = tracks_.size() - 1;
    return it->second;
  }

  // `{"ph":..,"name":..,"pid":..,"tid":..` of one event, after the separator.
  void BeginEvent(std::string_view phase, std::string_view name, uint64_t tid) {
    buffer_ += first_event_ ? "\n{\"ph\":\"" : ",\n{\"ph\":\"";
    first_event_ = false;
    buffer_ += phase;
    buffer_ += "\",\"name\":";
    AppendString(buffer_, name);
    buffer_ += ",\"pid\":";
    AppendInt(buffer_, pid_);
    buffer_ += ",\"tid\":";
    AppendInt(buffer_, tid);
  }

  void NameThread(uint64_t thread, Track& track) {
    track.named = true;
    BeginEvent("M", "thread_name", thread);
    buffer_ += ",\"args\":{\"name\":";
    AppendString(buffer_, thread == pid_ ? "main thread " + std::to_string(thread) : "thread " + std::to_string(thread));
    buffer_ += "}}";
    BeginEvent("M", "thread_sort_index", thread);
    buffer_ += ",\"args\":{\"sort_index\":";
    AppendInt(buffer_, track.sort_index * 2);
    buffer_ += "}}";
  }

  // Integers as JSON numbers; everything else (enum names, floats, strings,
  // arrays, pointers) as the text `strata dump` prints.
  void AppendValue(const stream::DecodedCall& call, int index) {
    const stream::DecodedValue& v = call.args[index];
    if (v.kind == ArgKind::kInt) {
      AppendSigned(buffer_, v.i);
    } else if (v.kind == ArgKind::kUInt) {
      AppendInt(buffer_, v.u);
    } else {
      AppendString(buffer_, stream::FormatValue(call, index));
    }
  }

  void FlushIfFull() {
    if (buffer_.size() < kFlushSize) return;
    out_.Write(buffer_);
    buffer_.clear();
  }

  const stream::TraceHeader& header_;
  const uint64_t pid_;
  OutputFile& out_;
  ExportSummary* summary_;
  std::unordered_map<uint64_t, Track> tracks_;
  const GpuTimesFile* gpu_times_;
  std::unordered_map<uint64_t, uint64_t> gpu_ns_;      // GPU time by call
  std::unordered_map<uint64_t, uint64_t> gpu_end_ns_;  // per context: where its GPU track's last slice ends
  std::string buffer_;
  bool first_event_ = true;
};

}  // namespace

void ExportChromeJson(stream::RecordReader& reader, const Selection& selection, OutputFile& out,
                      ExportSummary* summary, const GpuTimesFile* gpu_times) {
  ChromeJsonWriter writer(reader.header(), out, summary, gpu_times);
  writer.Begin();
  WalkTrace(reader, selection, writer, summary);
  writer.Finish();
}

}  // namespace strata::exporter
