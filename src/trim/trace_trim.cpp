#include "trim/trace_trim.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <cstdio>
#include <map>

#include "replay/replayer.h"
#include "snapshot/context_snapshot.h"
#include "stream/byte_reader.h"
#include "stream/call_encoder.h"
#include "stream/framebuffer_record.h"
#include "stream/ordered_reader.h"
#include "trim/replayed_context.h"

namespace strata::trim {
namespace {

// The EGL calls before the range that the range's calls depend on: those
// that make displays, configs, surfaces and contexts (the snapshot then makes
// the context current). Queries, swaps and current-context changes are left out.
bool MakesEglObjects(int slot) {
  switch (slot) {
    case api::eglGetDisplay: case api::eglGetPlatformDisplay: case api::eglGetPlatformDisplayEXT:
    case api::eglInitialize: case api::eglBindAPI: case api::eglChooseConfig: case api::eglGetConfigs:
    case api::eglCreateWindowSurface: case api::eglCreatePlatformWindowSurface:
    case api::eglCreatePlatformWindowSurfaceEXT: case api::eglCreatePbufferSurface:
    case api::eglCreatePixmapSurface: case api::eglCreatePlatformPixmapSurface:
    case api::eglCreatePlatformPixmapSurfaceEXT: case api::eglCreateContext: case api::eglDestroySurface:
    case api::eglDestroyContext: case api::eglSurfaceAttrib:
      return true;
    default:
      return false;
  }
}

std::string RangeText(const TrimOptions& options) {
  std::string text = options.by_frames ? "frames " : "calls ";
  text += std::to_string(options.first) + "-";
  if (options.last != UINT64_MAX) text += std::to_string(options.last);
  return text;
}

// Pass 1: where the range starts and ends, as call numbers, and the frame it starts in.
struct Range {
  uint64_t first = UINT64_MAX, last = 0, first_frame = 0;
  // Where the snapshot is taken: the first call of the range's first frame.
  // A range that starts mid-frame gets the frame's calls before it as made-up
  // calls after the snapshot: what they drew into the surface (colour, depth,
  // stencil) is state the range's draws build on, and GLES cannot read a
  // surface's depth and stencil back.
  uint64_t snapshot_at = 0;
};
// A range of whole frames inside a finished trace, from its frame index
// alone (no reading of what comes before); false to find it by reading.
bool RangeFromIndex(const TrimOptions& options, const stream::OrderedRecordReader& reader, Range* range) {
  const std::vector<stream::FrameIndexEntry>& index = reader.frame_index();
  // Frame 0 and a range up to the end are found by reading: where the first
  // call is, and the number of the last, are not in the index.
  if (!options.by_frames || options.first == 0 || options.last == UINT64_MAX || options.last >= index.size()) {
    return false;
  }
  const uint64_t first = index[options.first - 1].sequence, next = index[options.last].sequence;
  if (next <= first) return false;
  range->first = range->snapshot_at = first;
  range->last = next - 1;
  range->first_frame = options.first;
  return true;
}

bool FindRange(const TrimOptions& options, Range* range, std::string* error) {
  auto reader = stream::OrderedRecordReader::Open(options.input, error);
  if (!reader) return false;
  if (RangeFromIndex(options, *reader, range)) return true;
  stream::CallDecoder decoder(reader->functions());
  decoder.AcceptUnknownFunctions(true);
  stream::Record record;
  stream::DecodedCall call;
  uint64_t frame = 0, calls = 0, last_call = 0;
  uint64_t frame_first_call = 0;
  bool any = false, frame_begins = true;
  while (reader->Next(&record)) {
    if (record.type == stream::RecordType::kFrame) {
      ++frame;
      frame_begins = true;
      if (options.by_frames && frame > options.last) break;
      continue;
    }
    if (record.type != stream::RecordType::kCall) continue;
    std::string problem;
    if (!decoder.Decode(record.payload, record.thread_id, record.chunk, &call, &problem)) {
      *error = options.input + ": call " + std::to_string(calls) + ": " + problem;
      return false;
    }
    ++calls;
    any = true;
    last_call = call.sequence;
    if (frame_begins) frame_first_call = call.sequence;
    frame_begins = false;
    const uint64_t position = options.by_frames ? frame : call.sequence;
    if (position < options.first) continue;
    if (!options.by_frames && position > options.last) break;
    if (range->first == UINT64_MAX) {
      range->first = call.sequence;
      range->first_frame = frame;
      range->snapshot_at = frame_first_call;
    }
    range->last = call.sequence;
  }
  if (!reader->error().empty() && !reader->truncated()) {
    *error = reader->error();
    return false;
  }
  if (range->first == UINT64_MAX) {
    *error = options.input + ": " + RangeText(options) + " is past its end (" +
             (options.by_frames ? std::to_string(frame) + " frames" : "calls up to " + std::to_string(last_call)) +
             (any ? ")" : "; it holds no calls)");
    return false;
  }
  return true;
}

// Pass 2: the replay up to the range, and the snapshot there.
struct Start {
  bool nothing_before = false;  // no context made yet: the range needs no snapshot
  snapshot::SnapshotResult snapshot;
  uint64_t thread = 0, context_id = 0;
  StreamFacts::MakeCurrent current;
};
bool ReplayToStart(const TrimOptions& options, const Range& range, Start* start, TrimResult* result,
                   std::string* error) {
  StreamFacts facts;
  replay::ReplayResult replayed;  // its fast_forward_note is set before the replay starts
  std::string stop_error;
  bool snapshot_taken = false;
  replay::ReplayOptions replay;
  replay.check = false;
  replay.strata_lib_dir = options.strata_lib_dir;
  replay.progress = options.progress;
  replay.first_frame = range.first_frame;  // fast-forward: draws into the surface before it cannot matter
  replay.stop_before_call = range.snapshot_at;
  replay.before_call = [&facts](host::Executor& executor, const stream::DecodedCall& call) {
    facts.BeforeCall(executor, call);
  };
  replay.at_stop = [&](host::Executor& executor, const stream::DecodedCall& call) {
    const uint32_t thread = static_cast<uint32_t>(call.thread);
    const uint64_t context = executor.CurrentContext(thread);
    if (facts.live_contexts().size() > 1) {
      stop_error = std::to_string(facts.live_contexts().size()) +
                   " contexts are alive where the range starts; trim snapshots one context";
      return;
    }
    if (context == 0 && facts.live_contexts().empty()) {
      start->nothing_before = true;
      snapshot_taken = true;
      return;
    }
    if (context == 0) {
      stop_error = "the range's first call (" + std::to_string(call.sequence) + ", thread " +
                   std::to_string(call.thread) + ") runs with no context current; trim snapshots the context " +
                   "current where the range starts";
      return;
    }
    ReplayedContext source(executor, thread, facts);
    // A frame begins here: the surface's pixels matter only where the app
    // asked for them to be preserved across swaps (and then no draw was skipped).
    source.CarrySurface(!replayed.fast_forward_note.empty());
    if (!snapshot::TakeSnapshot(source, &start->snapshot, &stop_error)) return;
    auto current = facts.current().find(call.thread);
    if (current == facts.current().end()) {
      stop_error = "no eglMakeCurrent of the range's thread before the range";
      return;
    }
    start->current = current->second;
    start->thread = call.thread;
    start->context_id = call.context;
    snapshot_taken = true;
  };
  std::string replay_error;
  const bool ran = replay::Replay(options.input, replay, &replayed, &replay_error);
  if (!replay_error.empty() && !ran) {
    *error = replay_error;
    return false;
  }
  if (!stop_error.empty()) {
    *error = options.input + ": cannot snapshot at call " + std::to_string(range.snapshot_at) + ": " + stop_error;
    return false;
  }
  if (!snapshot_taken) {
    *error = options.input + ": the replay did not reach call " + std::to_string(range.snapshot_at) +
             (replay_error.empty() ? "" : " (" + replay_error + ")");
    return false;
  }
  for (const std::string& problem : replayed.problems) {
    result->warnings.push_back("before the range, a call did not replay: " + problem);
  }
  return true;
}

// The new trace's records, one chunk per run of one thread's records.
class TrimWriter {
 public:
  explicit TrimWriter(stream::TraceFileWriter& file) : file_(file) {}

  void Call(stream::DecodedCall call, uint32_t thread) {
    Switch(thread);
    call.sequence = sequence_++;
    call.function_id = static_cast<uint64_t>(call.slot);
    if (run_.calls > 0) call.start_ns = std::max(call.start_ns, run_.last_start_ns);
    if (records_ == 0) first_sequence_ = call.sequence;
    stream::EncodeCall(call, run_, buffer_);
    ++records_;
    ++calls_;
  }
  void Raw(stream::RecordType type, std::span<const uint8_t> payload, uint32_t thread) {
    Switch(thread);
    stream::ByteWriter w(&buffer_);
    const size_t at = w.BeginRecord(static_cast<uint8_t>(type));
    w.Raw(payload.data(), payload.size());
    w.EndRecord(at);
    if (records_ == 0) first_sequence_ = sequence_;
    ++records_;
  }
  void FrameEnd(uint32_t thread) {
    stream::ByteBuffer payload;
    stream::ByteWriter(&payload).Varint(frame_);
    Raw(stream::RecordType::kFrame, payload.bytes(), thread);
    ++frame_;
    Flush();
    file_.AddFrame(static_cast<uint32_t>(frame_), sequence_);
  }
  bool Flush() {
    if (records_ == 0) return ok_;
    stream::ChunkInfo info;
    info.thread_id = thread_;
    info.first_sequence = first_sequence_;
    info.record_count = records_;
    info.first_frame = static_cast<uint32_t>(frame_);
    if (ok_ && !file_.WriteChunk(buffer_.bytes(), info, &error_)) ok_ = false;
    buffer_.Clear();
    run_.Restart();
    records_ = 0;
    return ok_;
  }
  uint64_t sequence() const { return sequence_; }
  uint64_t frame() const { return frame_; }
  uint64_t calls() const { return calls_; }
  const std::string& error() const { return error_; }

 private:
  void Switch(uint32_t thread) {
    if (records_ > 0 && (thread != thread_ || buffer_.size > (4u << 20))) Flush();
    thread_ = thread;
  }
  stream::TraceFileWriter& file_;
  stream::ByteBuffer buffer_;
  stream::CallRun run_;
  uint32_t thread_ = 0, records_ = 0;
  uint64_t first_sequence_ = 0, sequence_ = 0, frame_ = 0, calls_ = 0;
  bool ok_ = true;
  std::string error_;
};

// Pass 3: the new trace.
bool WriteTrimmed(const TrimOptions& options, const Range& range, const Start& start, const std::string& path,
                  TrimResult* result, std::string* error) {
  auto reader = stream::OrderedRecordReader::Open(options.input, error);
  if (!reader) return false;
  stream::TraceHeader header = reader->header();
  header.extra["functions"] = stream::FunctionTable::OwnNames();
  header.extra["trimmed_from"] = options.input + " (" + RangeText(options) + ": calls " +
                                 std::to_string(range.first) + "-" + std::to_string(range.last) + ")";
  auto file = stream::TraceFileWriter::Create(path, header, stream::Compression::kZstd, error);
  if (!file) return false;
  TrimWriter out(*file);
  stream::CallDecoder decoder(reader->functions());
  decoder.AcceptUnknownFunctions(true);
  std::map<uint32_t, std::vector<std::vector<uint8_t>>> pending_memory;  // per thread, for its next call
  std::map<uint32_t, uint64_t> last_call;                                 // per thread
  bool started = false, range_started = false;
  uint64_t first_output = 0, unknown = 0;
  stream::Record record;
  stream::DecodedCall call;
  auto in_range = [&](uint32_t thread) {
    auto it = last_call.find(thread);
    return it != last_call.end() && it->second >= range.first && it->second <= range.last;
  };
  bool past_range = false;
  while (!past_range && reader->Next(&record)) {
    const uint32_t thread = record.thread_id;
    switch (record.type) {
      case stream::RecordType::kCall: {
        std::string problem;
        if (!decoder.Decode(record.payload, thread, record.chunk, &call, &problem)) {
          *error = options.input + ": call " + std::to_string(call.sequence) + ": " + problem;
          return false;
        }
        if (call.sequence > range.last) {
          past_range = true;
          continue;
        }
        std::vector<std::vector<uint8_t>> memory = std::move(pending_memory[thread]);
        pending_memory[thread].clear();
        last_call[thread] = call.sequence;
        if (call.sequence < range.snapshot_at) {
          if (call.slot >= 0 && MakesEglObjects(call.slot)) {
            out.Call(call, thread);
            ++result->egl_calls;
          }
          continue;
        }
        if (!started && start.nothing_before) started = true;
        if (!started) {
          started = true;
          // The snapshot, on the thread and in the context of the range's first call.
          const uint32_t snapshot_thread = static_cast<uint32_t>(start.thread);
          snapshot::CallList make_current;
          make_current.Add(api::eglMakeCurrent)
              .Arg(static_cast<int64_t>(start.current.display))
              .Arg(static_cast<int64_t>(start.current.draw))
              .Arg(static_cast<int64_t>(start.current.read))
              .Arg(static_cast<int64_t>(start.current.context))
              .Returns(1);
          auto stamp = [&](stream::DecodedCall made) {
            made.thread = start.thread;
            made.context = start.context_id;
            made.start_ns = call.start_ns;
            made.duration_ns = 0;
            out.Call(std::move(made), snapshot_thread);
          };
          stamp(make_current.calls().front());
          for (const stream::DecodedCall& made : start.snapshot.calls.calls()) stamp(made);
          result->snapshot_calls = start.snapshot.calls.size() + 1;
        }
        if (call.slot < 0) {
          ++unknown;
          continue;
        }
        const bool before_range = call.sequence < range.first;
        if (!before_range && !range_started) {
          range_started = true;
          first_output = out.sequence();
        }
        for (const auto& bytes : memory) out.Raw(stream::RecordType::kMemory, bytes, thread);
        if (before_range) {
          call.flags |= stream::kCallSynthesized;
          ++result->frame_calls;
        } else {
          ++result->range_calls;
        }
        out.Call(call, thread);
        continue;
      }
      case stream::RecordType::kMemory:
        pending_memory[thread].emplace_back(record.payload.begin(), record.payload.end());
        continue;
      case stream::RecordType::kFrame:
        if (in_range(thread)) out.FrameEnd(thread);
        continue;
      case stream::RecordType::kFramebuffer: {
        stream::FramebufferImage image;
        if (!stream::DecodeFramebuffer(record.payload, &image)) continue;
        if (!in_range(thread) || image.sequence <= range.first || image.sequence > range.last + 1) continue;
        image.sequence = image.sequence - range.first + first_output;
        image.frame = out.frame();
        stream::ByteBuffer payload;
        stream::ByteWriter w(&payload);
        stream::EncodeFramebuffer(w, image);
        out.Raw(stream::RecordType::kFramebuffer, payload.bytes(), thread);
        continue;
      }
      case stream::RecordType::kTraceEvent: {
        if (started) {
          if (in_range(thread)) out.Raw(record.type, record.payload, thread);
          continue;
        }
        stream::ByteReader r(record.payload);
        const std::string kind = r.String();
        if (kind == "config" || kind == "surface") out.Raw(record.type, record.payload, thread);
        continue;
      }
      default:
        continue;
    }
  }
  if (!reader->error().empty()) result->warnings.push_back("the trace is damaged after the range's start: " + reader->error());
  if (unknown > 0) {
    result->warnings.push_back(std::to_string(unknown) +
                               " calls to functions Strata's registry does not know were left out (they never replay)");
  }
  if (!out.Flush() || !file->Finish(error)) {
    if (error->empty()) *error = out.error();
    return false;
  }
  result->frames = out.frame();
  return true;
}

}  // namespace

bool Trim(const TrimOptions& options, TrimResult* result, std::string* error) {
  // Where OUT goes must take a file before the replay's work is spent.
  const size_t slash = options.output.find_last_of('/');
  const std::string directory = slash == std::string::npos ? "." : options.output.substr(0, std::max<size_t>(slash, 1));
  if (access(directory.c_str(), W_OK) != 0) {
    *error = options.output + ": cannot write there (" + directory + ": " + std::strerror(errno) + ")";
    return false;
  }
  Range range;
  if (!FindRange(options, &range, error)) return false;
  result->first_call = range.first;
  result->last_call = range.last;
  Start start;
  if (!ReplayToStart(options, range, &start, result, error)) return false;
  result->not_carried = start.snapshot.not_carried;
  // Written beside the output and renamed into place: never a half-written trace under its name.
  const std::string partial = options.output + ".partial";
  if (!WriteTrimmed(options, range, start, partial, result, error)) {
    unlink(partial.c_str());
    return false;
  }
  if (rename(partial.c_str(), options.output.c_str()) != 0) {
    *error = options.output + ": cannot write: " + std::strerror(errno);
    unlink(partial.c_str());
    return false;
  }
  struct stat info;
  if (stat(options.output.c_str(), &info) == 0) result->output_bytes = static_cast<uint64_t>(info.st_size);
  return true;
}

}  // namespace strata::trim
