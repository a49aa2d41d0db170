#include "replay/replayer.h"

#include <EGL/egl.h>
#include <GLES2/gl2.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "common/byte_size.h"
#include "common/png_file.h"
#include "host/host_driver.h"
#include "host/record_dispatch.h"
#include "host/surface_factory.h"
#include "strata/api/traits.h"
#include "stream/event_records.h"
#include "stream/framebuffer_record.h"
#include "stream/ordered_reader.h"
#include "stream/read_ahead.h"
#include "stream/record_store.h"
#include "strata/api/functions.h"

namespace strata::replay {
namespace {

using Clock = std::chrono::steady_clock;
constexpr size_t kMismatchesKept = 10;

FramebufferMismatch Compare(const stream::FramebufferImage& recorded, const host::RgbaImage& replayed, int threshold) {
  FramebufferMismatch m;
  m.frame = recorded.frame;
  m.sequence = recorded.sequence;
  m.framebuffer = recorded.framebuffer;
  m.difference.Add(recorded.pixels.data(), replayed.pixels.data(), recorded.width * recorded.height, threshold);
  if (m.difference.first_differing != UINT64_MAX) {
    m.first_x = static_cast<int>(recorded.x + static_cast<int64_t>(m.difference.first_differing % recorded.width));
    m.first_y = static_cast<int>(recorded.y + static_cast<int64_t>(m.difference.first_differing / recorded.width));
  }
  return m;
}

// "vendor, renderer, version" of a context's driver strings.
std::string DriverOf(const stream::KeyValues& strings) {
  std::string text;
  for (const char* key : {"GL_VENDOR", "GL_RENDERER", "GL_VERSION"}) {
    for (const auto& [name, value] : strings) {
      if (name == key) text += (text.empty() ? "" : ", ") + value;
    }
  }
  return text;
}

class LoopReplay {
 public:
  LoopReplay(const ReplayOptions& options, const host::HostDriver& driver, host::SurfaceFactory& surfaces,
             const stream::FunctionTable& functions, ReplayResult* result, bool first_loop)
      : options_(options), driver_(driver), dispatch_(driver, surfaces, functions), result_(result), first_loop_(first_loop),
        checking_(options.check && first_loop), check_(driver) {
    dispatch_.executor().before_swap = [this](const stream::DecodedCall& swap, uint64_t) {
      BeforeSwap(static_cast<uint32_t>(swap.thread));
    };
    using Action = host::RecordDispatch::CallAction;
    const bool inspecting = (options.stop_before_call != UINT64_MAX || options.before_call) && first_loop;
    const bool hooked = !options.hooks.empty();
    if (inspecting || hooked || (options.first_frame > 0 && options.fast_forward_draws)) {
      dispatch_.before_call = [this, inspecting](const stream::DecodedCall& call) {
        if (!hook_error_.empty()) return Action::kStop;  // an `after` hook failed on the call before
        if (inspecting) {
          if (call.sequence >= options_.stop_before_call) {
            if (options_.at_stop) options_.at_stop(dispatch_.executor(), call);
            stop_call_ = call;
            return Action::kStop;
          }
          // Only for calls that run: the call stopped before never does.
          if (options_.before_call) options_.before_call(dispatch_.executor(), call);
        }
        if (frame_ < options_.first_frame && options_.fast_forward_draws && DrawsIntoTheSurface(call)) {
          return Action::kSkip;
        }
        for (const ReplayOptions::CallHooks& hook : options_.hooks) {
          if (hook.before && !hook.before(dispatch_.executor(), call, frame_, &hook_error_)) {
            if (hook_error_.empty()) hook_error_ = "stopped at call " + std::to_string(call.sequence);
            return Action::kStop;
          }
        }
        return Action::kRun;
      };
    }
    dispatch_.executor().SetStorageLimit(options.memory_limit);
    dispatch_.AcceptUnknownFunctions();
    if (checking_) {
      dispatch_.wants_reply = [this](const stream::DecodedCall& call) { return check_.WantsReply(call); };
    } else if (hooked) {
      dispatch_.wants_reply = [](const stream::DecodedCall&) { return false; };  // hooks take no replies
    }
    // Calls nothing here needs to see run through the executor's generated
    // handlers (host/fast_call.h): with the check, those that give nothing back.
    if (!hooked && !dispatch_.before_call && !(checking_ && options.check_each_call)) {
      dispatch_.HookSlots([this](int slot) { return checking_ && SelfCheck::Sees(slot); });
      if (checking_) {
        // The errors of the calls that ran unseen are theirs, not the next seen call's (a glGetError
        // would take them from the host itself).
        dispatch_.before_unhandled = [this](const stream::DecodedCall& call) {
          if (!api::kFunctions[call.slot].is_egl) check_.TakeErrorsBefore(call.context, call.sequence);
        };
      }
    }
    if (checking_ || hooked) {
      dispatch_.after_call = [this](const stream::DecodedCall& call, const host::CallReply* reply) {
        if (checking_) check_.Check(call, reply);
        for (const ReplayOptions::CallHooks& hook : options_.hooks) {
          if (hook_error_.empty() && hook.after && !hook.after(dispatch_.executor(), call, frame_, &hook_error_) &&
              hook_error_.empty()) {
            hook_error_ = "stopped after call " + std::to_string(call.sequence);
          }
        }
      };
    }
  }

  // A template for the records kept in memory: their Next() inlines into the loop.
  template <class Source>
  bool Run(Source& source, std::string* error) {
    stream::Record record;
    const bool show_progress = options_.progress && isatty(STDERR_FILENO);
    Clock::time_point last_progress = Clock::now();
    while (source.Next(&record)) {
      if (record.type == stream::RecordType::kMemory) HandMemoryToHooks(record);
      if (!dispatch_.Dispatch(record, error)) return false;
      if (!hook_error_.empty()) {
        *error = hook_error_;
        return false;
      }
      if (dispatch_.stopped()) {
        if (options_.after_stop) {
          options_.after_stop(dispatch_.executor(), stop_call_, [this](uint64_t thread, const std::function<void()>& work) {
            dispatch_.RunOn(thread, work);
          });
        }
        break;
      }
      if (record.type == stream::RecordType::kFrame) {
        ++frame_;
        if (frame_ == options_.first_frame) Mark(&range_);
        if (frame_ == 1) Mark(&steady_);
        if (frame_ > options_.last_frame) {
          ended_at_last_frame_ = true;
          break;
        }
        if (show_progress && Clock::now() - last_progress > std::chrono::seconds(1)) {
          last_progress = Clock::now();
          std::fprintf(stderr, "\rreplay: frame %llu, %llu calls", static_cast<unsigned long long>(frame_),
                       static_cast<unsigned long long>(dispatch_.calls()));
        }
      } else if (record.type == stream::RecordType::kFramebuffer && options_.verify &&
                 frame_ >= options_.first_frame) {
        Verify(record);
      } else if (record.type == stream::RecordType::kTraceEvent && first_loop_) {
        uint64_t context = 0, error = 0;
        stream::KeyValues strings;
        if (checking_ && stream::DecodeGlErrorEvent(record.payload, &context, &error)) {
          // What calls unseen since the last one seen raised, on the thread with the context current.
          dispatch_.RunOn(record.thread_id, [&] { check_.TakeErrorsBefore(context, dispatch_.last_sequence() + 1); });
          check_.CheckFrameEndError(context, error, dispatch_.last_sequence() + 1);
        } else if (stream::DecodeContextEvent(record.payload, &context, &strings)) {
          CompareDriver(record.thread_id, context, strings);
        }
      }
    }
    range_end_ = Clock::now();
    if (show_progress) std::fprintf(stderr, "\r%60s\r", "");
    for (const ReplayOptions::CallHooks& hook : options_.hooks) {
      if (!hook.finish) continue;
      const bool finished = hook.finish(
          dispatch_.executor(), [this](uint64_t thread, const std::function<void()>& work) { dispatch_.RunOn(thread, work); },
          &hook_error_);
      if (!finished) {
        *error = hook_error_.empty() ? "a replay hook failed at the end" : hook_error_;
        return false;
      }
    }
    result_->calls = dispatch_.calls();
    result_->stopped = dispatch_.stopped();
    result_->fast_forwarded_draws = dispatch_.skipped();
    result_->last_sequence = dispatch_.last_sequence();
    result_->frames = frame_;
    result_->frame_ends = frame_;
    result_->skipped_calls = dispatch_.executor().skipped_calls();
    result_->problems = dispatch_.executor().problems();
    if (checking_) {
      result_->calls_compared = check_.compared();
      result_->calls_differing = check_.differing();
      result_->call_differences = check_.first_differences();
      result_->ignored_answers = check_.ignored();
    }
    if (options_.first_frame > 0) {
      // The original run's time for the frames replayed: from the end of the frame before the range.
      const uint64_t range_end = options_.last_frame == UINT64_MAX ? frame_ : std::min(frame_, options_.last_frame + 1);
      result_->frames = range_end > options_.first_frame ? range_end - options_.first_frame : 0;
      result_->traced_seconds = range_.started ? double(dispatch_.last_end_ns() - range_.traced_ns) / 1e9 : 0;
    } else if (dispatch_.calls() != 0) {
      result_->traced_seconds = double(dispatch_.last_end_ns() - dispatch_.first_start_ns()) / 1e9;
      if (frame_ >= 2 && !dispatch_.stopped()) {
        result_->steady_frames = frame_ - 1;
        result_->traced_steady_seconds = double(dispatch_.last_end_ns() - steady_.traced_ns) / 1e9;
        result_->steady_seconds.push_back(std::chrono::duration<double>(range_end_ - steady_.at).count());
      }
    }
    if (!source.error().empty()) {
      if (source.truncated()) {
        result_->warning = source.error() + "; replayed everything before it";
      } else {
        *error = source.error();
        return false;
      }
    }
    return snapshot_error_.empty() || (*error = snapshot_error_, false);
  }

  // With a frame range: the seconds from its first call to its last frame's end.
  // Whether its calls run through the generated handlers (RecordDispatch::RunsHandlers).
  bool RunsHandlers() const { return dispatch_.RunsHandlers(); }
  // The loop stopped at the end of the frame range (as every loop does there).
  bool EndedAtLastFrame() const { return ended_at_last_frame_; }
  double RangeSeconds() const {
    return std::chrono::duration<double>(range_end_ - (range_.started ? range_.at : range_end_)).count();
  }

 private:
  // A draw, clear or blit into the surface: before the range, what it draws
  // is overwritten before anything shows or reads it.
  bool DrawsIntoTheSurface(const stream::DecodedCall& call) {
    return api::HasTrait(call.slot, api::kWritesFramebuffer) &&
           dispatch_.executor().DrawsIntoSurface(static_cast<uint32_t>(call.thread));
  }

  void HandMemoryToHooks(const stream::Record& record) {
    uint64_t address = 0;
    std::span<const uint8_t> bytes;
    for (const ReplayOptions::CallHooks& hook : options_.hooks) {
      // A malformed record is the dispatch's to report.
      if (hook.memory && stream::DecodeMemory(record.payload, &address, &bytes)) {
        hook.memory(record.thread_id, address, bytes, frame_);
      }
    }
  }

  // Where a timed span starts, in this run and in the recorded one.
  struct SpanStart {
    bool started = false;
    Clock::time_point at{};
    uint64_t traced_ns = 0;
  };
  void Mark(SpanStart* span) {
    span->started = true;
    span->at = Clock::now();
    span->traced_ns = dispatch_.last_end_ns();
  }

  void BeforeSwap(uint32_t thread) {
    if (frame_ < options_.first_frame) return;
    bool wanted = false;
    for (auto [first, last] : options_.snapshot_frames) wanted |= frame_ >= first && frame_ <= last;
    if (!first_loop_ || !wanted) return;
    if (options_.snapshot_dir.empty() && !options_.on_snapshot) return;
    host::RgbaImage image;
    std::string error;
    TakeUnseenErrors(thread);
    const bool read = dispatch_.executor().ReadSurface(thread, &image, &error);
    check_.DropHostErrors();
    if (!read) {
      snapshot_error_ = "frame " + std::to_string(frame_) + ": cannot read the surface: " + error;
      return;
    }
    if (options_.on_snapshot) options_.on_snapshot(frame_, image);
    if (options_.snapshot_dir.empty()) return;
    char name[64];
    std::snprintf(name, sizeof name, "/frame-%06llu.png", static_cast<unsigned long long>(frame_));
    std::string path = options_.snapshot_dir + name;
    if (!WritePng(path, image.width, image.height, image.pixels, true, &error)) {
      snapshot_error_ = error;
      return;
    }
    result_->snapshots.push_back(path);
  }

  // The trace's driver strings for a context (recorded after its first
  // eglMakeCurrent, so it is current on the thread's host thread now)
  // against the host's.
  void CompareDriver(uint64_t thread, uint64_t context, const stream::KeyValues& recorded) {
    stream::KeyValues host;
    dispatch_.RunOn(thread, [&] {
      TakeUnseenErrors(thread);
      auto get_string = reinterpret_cast<const unsigned char* (*)(unsigned int)>(driver_.Function(api::glGetString));
      for (auto [name, key] : {std::pair{GL_VENDOR, "GL_VENDOR"}, std::pair{GL_RENDERER, "GL_RENDERER"},
                               std::pair{GL_VERSION, "GL_VERSION"}}) {
        const unsigned char* value = get_string ? get_string(name) : nullptr;
        if (value) host.emplace_back(key, reinterpret_cast<const char*>(value));
      }
      check_.DropHostErrors();
    });
    const std::string recorded_driver = DriverOf(recorded), host_driver = DriverOf(host);
    const bool same = !recorded_driver.empty() && recorded_driver == host_driver;
    if (checking_) check_.SetDriverOfContext(context, same);
    if (!same) result_->other_drivers.push_back({context, recorded_driver, host_driver});
  }

  // The GL errors of the calls that ran unseen (through the generated
  // handlers) on `thread`, taken before the replay's own GL work there
  // drops the host's errors.
  void TakeUnseenErrors(uint64_t thread) {
    if (!checking_) return;
    const auto id = static_cast<uint32_t>(thread);
    check_.TakeErrorsBefore(dispatch_.executor().StreamContext(id), dispatch_.last_sequence() + 1);
  }

  void Verify(const stream::Record& record) {
    stream::FramebufferImage recorded;
    if (!stream::DecodeFramebufferAsRgba(record.payload, &recorded, &rgba_scratch_)) return;
    host::RgbaImage replayed;
    std::string error;
    bool read = false;
    dispatch_.RunOn(record.thread_id, [&] {
      TakeUnseenErrors(record.thread_id);
      read = dispatch_.executor().ReadFramebuffer(record.thread_id, recorded.framebuffer, static_cast<int>(recorded.x),
                                       static_cast<int>(recorded.y), static_cast<int>(recorded.width),
                                       static_cast<int>(recorded.height), &replayed, &error);
      check_.DropHostErrors();
    });
    ++result_->framebuffers_checked;
    FramebufferMismatch mismatch;
    if (read) {
      mismatch = Compare(recorded, replayed, options_.tolerance.threshold);
    } else {
      mismatch.frame = recorded.frame;
      mismatch.sequence = recorded.sequence;
      mismatch.framebuffer = recorded.framebuffer;
      mismatch.unread = true;
      mismatch.difference.AddUnmatched(recorded.width * recorded.height);
    }
    if (mismatch.difference.equal()) return;
    result_->worst.Note(mismatch.frame, mismatch.difference);
    if (!mismatch.unread && options_.tolerance.Accepts(mismatch.difference)) {
      ++result_->framebuffers_tolerated;
      return;
    }
    ++result_->framebuffers_differing;
    if (result_->mismatches.size() < kMismatchesKept) result_->mismatches.push_back(mismatch);
    std::vector<uint64_t>& frames = result_->differing_frames;
    auto at = std::lower_bound(frames.begin(), frames.end(), mismatch.frame);
    if (at == frames.end() || *at != mismatch.frame) frames.insert(at, mismatch.frame);
  }

  const ReplayOptions& options_;
  const host::HostDriver& driver_;
  host::RecordDispatch dispatch_;
  stream::DecodedCall stop_call_;  // the call the replay stopped before (stop_before_call)
  ReplayResult* result_;
  const bool first_loop_;
  const bool checking_;  // the self-check runs (first loop only)
  SelfCheck check_;
  uint64_t frame_ = 0;
  std::string snapshot_error_;
  bool ended_at_last_frame_ = false;
  std::string hook_error_;  // a CallHooks hook stopped the replay: why
  std::vector<uint8_t> rgba_scratch_;  // a recorded BGRA8 frame as RGBA8
  SpanStart range_;   // the first frame of --frames
  SpanStart steady_;  // the first frame's end: the frames after it hold no setup
  Clock::time_point range_end_{};
};

// What the loops may keep of the trace's records and their calls decoded:
// by default a quarter of the machine's memory (the driver's storage takes its share too).
size_t MemoryForRecords(const ReplayOptions& options) {
  return options.record_memory != 0 ? options.record_memory : PhysicalMemoryBytes() / 4;
}

// "the N MiB kept for them (where N comes from)", for a note on records that did not fit.
std::string KeptFor(const stream::RecordStore& store, const ReplayOptions& options) {
  const double budget = double(store.budget());
  const bool mib = budget >= 1024.0 * 1024.0;
  char text[120];
  std::snprintf(text, sizeof text, "the %.1f %s kept for them (%s)", mib ? budget / (1024.0 * 1024.0) : budget / 1024.0,
                mib ? "MiB" : "KiB", options.record_memory != 0 ? "--record-memory" : "a quarter of this machine's memory");
  return text;
}

// Where the loops after the first read their records, for --benchmark.
std::string LoopsNote(const stream::RecordStore& store, const ReplayOptions& options, bool from_store,
                      size_t prepared_calls) {
  constexpr double kMiB = 1024.0 * 1024.0;
  char note[200];
  if (from_store) {
    std::snprintf(note, sizeof note,
                  "loops after the first ran from memory (%.1f MiB of records; %zu calls kept decoded, %.1f MiB)",
                  double(store.payload_bytes()) / kMiB, prepared_calls, double(store.prepared_bytes()) / kMiB);
  } else if (store.overflowed()) {
    return "loops after the first read the file: its records take more than " + KeptFor(store, options);
  } else {
    std::snprintf(note, sizeof note, "loops after the first read the file (the first loop stopped early)");
  }
  return note;
}

// --preload: the trace's records, up to the end of the frame range, read
// into `store` (the other core decompressing and ordering them), and the
// calls the handlers take decoded. False, with result->loops_note saying
// why, when they do not fit; with *error when the file cannot be opened.
bool Preload(const std::string& trace_path, const ReplayOptions& options, stream::RecordStore& store,
             stream::FunctionTable* functions, ReplayResult* result, std::string* error) {
  constexpr double kMiB = 1024.0 * 1024.0;
  auto reader = stream::OrderedRecordReader::Open(trace_path, error);
  if (!reader) return false;
  *functions = reader->functions();
  const Clock::time_point start = Clock::now();
  const bool show_progress = options.progress && isatty(STDERR_FILENO);
  Clock::time_point last_progress = start;
  {
    stream::ReadAhead ahead(*reader);
    stream::KeepingSource keeping(ahead, store);
    stream::Record record;
    uint64_t frame = 0;
    while (!store.overflowed() && keeping.Next(&record)) {
      // Every loop stops at the frame range's end: nothing after it is needed.
      if (record.type == stream::RecordType::kFrame && ++frame > options.last_frame) break;
      if (show_progress && Clock::now() - last_progress > std::chrono::seconds(1)) {
        last_progress = Clock::now();
        std::fprintf(stderr, "\rreplay: preloading, %.0f MiB read", double(store.payload_bytes()) / kMiB);
      }
    }
    if (show_progress) std::fprintf(stderr, "\r%60s\r", "");
  }
  if (store.overflowed()) {
    result->loops_note = "preload: the trace's records take more than " + KeptFor(store, options) +
                         "; every loop read the file";
    return false;
  }
  char note[200];
  const size_t prepared = store.PrepareCalls(*functions, host::RecordDispatch::Handles);
  std::snprintf(note, sizeof note,
                "preloaded in %.3f s; every loop ran from memory (%.1f MiB of records; %zu calls kept decoded, %.1f MiB)",
                std::chrono::duration<double>(Clock::now() - start).count(), double(store.payload_bytes()) / kMiB, prepared,
                double(store.prepared_bytes()) / kMiB);
  result->loops_note = note;
  return true;
}

// Why the draws into the surface before `first_frame` matter, or empty when
// they do not: something before it reads a framebuffer back (it could be the
// surface), or asks for the back buffer to be kept across swaps.
std::string WhyEarlierDrawsMatter(const std::string& trace_path, uint64_t first_frame) {
  std::string error;
  auto reader = stream::OrderedRecordReader::Open(trace_path, &error);
  if (!reader) return {};  // the replay itself says what is wrong
  stream::CallDecoder decoder(reader->functions());
  decoder.AcceptUnknownFunctions(true);
  stream::Record record;
  stream::DecodedCall call;
  uint64_t frame = 0;
  while (frame < first_frame && reader->Next(&record)) {
    if (record.type == stream::RecordType::kFrame) ++frame;
    if (record.type != stream::RecordType::kCall) continue;
    if (!decoder.Decode(record.payload, record.thread_id, record.chunk, &call, &error)) return {};
    const std::string_view name = call.name;
    if (api::HasTrait(call.slot, api::kReadsPixels)) {
      return "call " + std::to_string(call.sequence) + " (" + std::string(name) + ", frame " + std::to_string(frame) +
             ") reads a framebuffer back";
    }
    if (call.slot == api::eglSurfaceAttrib && call.args.size() == 4 && call.args[2].i == EGL_SWAP_BEHAVIOR &&
        call.args[3].i == EGL_BUFFER_PRESERVED) {
      return "call " + std::to_string(call.sequence) + " keeps the back buffer across swaps (EGL_BUFFER_PRESERVED)";
    }
  }
  return {};
}

}  // namespace

bool Replay(const std::string& trace_path, const ReplayOptions& given_options, ReplayResult* result,
            std::string* error) {
  ReplayOptions options = given_options;
  if (options.first_frame > 0 && options.fast_forward_draws) {
    result->fast_forward_note = WhyEarlierDrawsMatter(trace_path, options.first_frame);
    options.fast_forward_draws = result->fast_forward_note.empty();
  }
  auto driver = host::HostDriver::Load(options.strata_lib_dir, error);
  if (!driver) return false;
  std::unique_ptr<host::SurfaceFactory> surfaces =
      options.window ? host::MakeX11SurfaceFactory(*driver, error) : host::MakePbufferSurfaceFactory(*driver);
  if (!surfaces) return false;
  // Loops after the first run from the records the first one read (every
  // loop, with --preload), where they fit (MemoryForRecords).
  const int loops = std::max(options.loops, 1);
  stream::RecordStore store(loops > 1 || options.preload ? MemoryForRecords(options) : 0);
  bool from_store = false;
  stream::FunctionTable functions;
  if (options.preload) {
    std::string open_error;
    from_store = Preload(trace_path, options, store, &functions, result, &open_error);
    if (!open_error.empty()) {
      *error = open_error;
      return false;
    }
  }
  for (int loop = 0; loop < loops; ++loop) {
    std::unique_ptr<stream::OrderedRecordReader> reader;
    if (!from_store) {
      reader = stream::OrderedRecordReader::Open(trace_path, error);
      if (!reader) return false;
      if (loop == 0) functions = reader->functions();
    }
    const Clock::time_point start = Clock::now();
    LoopReplay replay(options, *driver, *surfaces, functions, result, loop == 0);
    std::unique_ptr<stream::RecordSource> records;
    if (from_store) {
      records = std::make_unique<stream::StoredRecords>(store);
    } else if (replay.RunsHandlers() && std::thread::hardware_concurrency() > 1) {
      // Reading, decompressing and ordering run on another core, and decoding the calls
      // the handlers take too while this thread is the busier (ReadAhead::PreparesChunk);
      // with one core, decoding there would only add the runs' bookkeeping.
      records = std::make_unique<stream::ReadAhead>(*reader, functions, host::RecordDispatch::Handles);
    } else {
      records = std::make_unique<stream::ReadAhead>(*reader);
    }
    std::optional<stream::KeepingSource> keeping;
    if (loops > 1 && loop == 0 && !from_store && !store.overflowed()) keeping.emplace(*records, store);
    const bool ok = from_store ? replay.Run(static_cast<stream::StoredRecords&>(*records), error)
                               : replay.Run(keeping ? *keeping : *records, error);
    const double range_seconds = replay.RangeSeconds();
    if (keeping) {
      // A later loop reads what this one read: all of it, or up to the
      // frame range's end, where every loop stops.
      from_store = ok && !store.overflowed() && (keeping->ended() || replay.EndedAtLastFrame());
      // Calls a generated handler can run are decoded once for all the loops to come.
      const size_t prepared = from_store ? store.PrepareCalls(functions, host::RecordDispatch::Handles) : 0;
      result->loops_note = LoopsNote(store, options, from_store, prepared);
    }
    // A whole loop counts its teardown too; a frame range only its frames.
    result->loop_seconds.push_back(options.first_frame > 0
                                       ? range_seconds
                                       : std::chrono::duration<double>(Clock::now() - start).count());
    if (!ok) return false;
  }
  return true;
}

}  // namespace strata::replay
