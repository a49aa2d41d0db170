#include "trim/trace_trim.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <cstdio>
#include <map>
#include <set>

#include "replay/replayer.h"
#include "snapshot/context_snapshot.h"
#include "strata/api/traits.h"
#include "stream/byte_reader.h"
#include "stream/call_encoder.h"
#include "stream/framebuffer_record.h"
#include "stream/ordered_reader.h"
#include "trim/replayed_context.h"

namespace strata::trim {
namespace {

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
  // Threads that made calls up to the range's end: with more than one, the
  // other threads are mid-frame where the range's first frame starts, and
  // what they drew so far must be replayed and carried.
  size_t threads = 0;
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
  if (next <= first || reader.thread_count() > 1) return false;  // several threads: counted by reading
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
  std::set<uint32_t> threads;
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
    threads.insert(record.thread_id);
    range->threads = threads.size();
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

// Pass 2: the replay up to the range, and the snapshots there.
// One context's snapshot, and the stream thread the new trace recreates it on.
struct ContextBlock {
  uint64_t thread = 0, context_id = 0;
  StreamFacts::MakeCurrent current;  // made current before the snapshot's calls
  snapshot::SnapshotResult snapshot;
};
struct Start {
  bool nothing_before = false;  // no context made yet: the range needs no snapshot
  // Every live context's, in the order the new trace runs them: a share
  // group's objects with its first context, each thread's own current
  // context last on that thread, the range's thread's last of all.
  std::vector<ContextBlock> blocks;
};

// Snapshots every live context once the replay stopped at the range's
// start: contexts current on a thread are read on that thread's host
// thread; the others (current nowhere) on the range's thread, made current
// there without a surface for the reading.
bool SnapshotContexts(host::Executor& executor, const stream::DecodedCall& call,
                      const replay::ReplayOptions::RunOn& run_on, const StreamFacts& facts, bool carry_surfaces,
                      bool several_threads, Start* start, std::string* error) {
  const uint32_t range_thread = static_cast<uint32_t>(call.thread);
  const uint64_t range_context = executor.CurrentContext(range_thread);
  if (range_context == 0 && facts.live_contexts().empty()) {
    start->nothing_before = true;
    return true;
  }
  if (range_context == 0) {
    *error = "the range's first call (" + std::to_string(call.sequence) + ", thread " + std::to_string(call.thread) +
             ") runs with no context current; trim starts where the range's thread has its context current";
    return false;
  }
  std::map<uint64_t, uint64_t> owner;  // live context -> the thread that has it current
  for (const auto& [thread, made] : facts.current()) {
    if (made.context != 0 && facts.live_contexts().count(made.context) &&
        executor.CurrentContext(static_cast<uint32_t>(thread)) == made.context) {
      owner[made.context] = thread;
    }
  }
  if (owner.find(range_context) == owner.end()) {
    *error = "no eglMakeCurrent of the range's thread before the range";
    return false;
  }
  std::vector<uint64_t> order;
  for (uint64_t context : facts.live_contexts()) {
    if (owner.find(context) == owner.end()) order.push_back(context);
  }
  for (const auto& [context, thread] : owner) {
    if (context != range_context) order.push_back(context);
  }
  order.push_back(range_context);
  const StreamFacts::MakeCurrent range_current = facts.current().at(range_thread);
  std::set<uint64_t> groups_written;
  for (const uint64_t context : order) {
    const uint64_t group = executor.ShareGroupOf(context);
    if (group == 0) {
      *error = "context " + std::to_string(context) + " was not made on the host";
      return false;
    }
    const bool objects = groups_written.insert(group).second;
    const auto owned = owner.find(context);
    ContextBlock block;
    block.context_id = context;
    block.thread = owned != owner.end() ? owned->second : range_thread;
    block.current = owned != owner.end() ? facts.current().at(block.thread)
                                         : StreamFacts::MakeCurrent{range_current.display, 0, 0, context};
    bool ok = false;
    std::string snapshot_error;
    auto take = [&] {
      ReplayedContext source(executor, static_cast<uint32_t>(block.thread), facts);
      // A frame begins here: the surface's pixels matter only where the app
      // asked for them to be preserved across swaps (and then no draw was skipped).
      // With several threads the others are mid-frame, and the range's own
      // may have ended its drawing (its image then is what it left).
      source.CarrySurface(carry_surfaces && owned != owner.end(), several_threads);
      ok = snapshot::TakeSnapshot(source, &block.snapshot, &snapshot_error,
                                  objects ? snapshot::SnapshotScope::kObjectsAndContext
                                          : snapshot::SnapshotScope::kContextOnly);
    };
    if (owned != owner.end()) {
      run_on(block.thread, take);
    } else {
      run_on(range_thread, [&] {
        if (!executor.WithContextCurrent(range_thread, context, take, &snapshot_error)) ok = false;
      });
    }
    if (!ok) {
      *error = order.size() > 1 ? "context " + std::to_string(context) + ": " + snapshot_error : snapshot_error;
      return false;
    }
    if (order.size() > 1) {
      for (std::string& line : block.snapshot.not_carried) line = "context " + std::to_string(context) + ": " + line;
    }
    start->blocks.push_back(std::move(block));
  }
  return true;
}

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
  // ... unless other threads are mid-frame there: their surfaces hold what they drew so far.
  replay.fast_forward_draws = range.threads <= 1;
  replay.stop_before_call = range.snapshot_at;
  replay.before_call = [&facts](host::Executor& executor, const stream::DecodedCall& call) {
    facts.BeforeCall(executor, call);
  };
  replay.after_stop = [&](host::Executor& executor, const stream::DecodedCall& call,
                          const replay::ReplayOptions::RunOn& run_on) {
    const bool draws_skipped = replay.first_frame > 0 && replay.fast_forward_draws && replayed.fast_forward_note.empty();
    snapshot_taken =
        SnapshotContexts(executor, call, run_on, facts, !draws_skipped, range.threads > 1, start, &stop_error);
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
          // The EGL calls the range's calls depend on (displays, configs,
          // surfaces, contexts); the snapshot then makes the context current.
          if (api::HasTrait(call.slot, api::kSetsUpEgl)) {
            out.Call(call, thread);
            ++result->egl_calls;
          }
          continue;
        }
        if (!started && start.nothing_before) started = true;
        if (!started) {
          started = true;
          // The snapshots, each on its context's thread and after its eglMakeCurrent.
          for (const ContextBlock& block : start.blocks) {
            snapshot::CallList make_current;
            make_current.Add(api::eglMakeCurrent)
                .Arg(static_cast<int64_t>(block.current.display))
                .Arg(static_cast<int64_t>(block.current.draw))
                .Arg(static_cast<int64_t>(block.current.read))
                .Arg(static_cast<int64_t>(block.current.context))
                .Returns(1);
            if (start.blocks.size() > 1) make_current.Add(api::glFinish);  // another context's objects are complete
            auto stamp = [&](stream::DecodedCall made) {
              made.thread = block.thread;
              made.context = block.context_id;
              made.start_ns = call.start_ns;
              made.duration_ns = 0;
              out.Call(std::move(made), static_cast<uint32_t>(block.thread));
            };
            stamp(make_current.calls().front());
            for (const stream::DecodedCall& made : block.snapshot.calls.calls()) stamp(made);
            if (start.blocks.size() > 1) stamp(make_current.calls().back());
            result->snapshot_calls += block.snapshot.calls.size() + (start.blocks.size() > 1 ? 2 : 1);
          }
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
  for (const ContextBlock& block : start.blocks) {
    result->not_carried.insert(result->not_carried.end(), block.snapshot.not_carried.begin(),
                               block.snapshot.not_carried.end());
  }
  result->contexts = start.blocks.size();
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
