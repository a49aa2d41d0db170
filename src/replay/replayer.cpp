#include "replay/replayer.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "common/png_file.h"
#include "host/host_driver.h"
#include "host/record_dispatch.h"
#include "host/surface_factory.h"
#include "stream/event_records.h"
#include "stream/framebuffer_record.h"
#include "stream/ordered_reader.h"

namespace strata::replay {
namespace {

using Clock = std::chrono::steady_clock;
constexpr size_t kMismatchesKept = 10;

FramebufferMismatch Compare(const stream::FramebufferImage& recorded, const host::RgbaImage& replayed, bool* equal) {
  FramebufferMismatch m;
  m.frame = recorded.frame;
  m.sequence = recorded.sequence;
  m.framebuffer = recorded.framebuffer;
  m.total_pixels = recorded.width * recorded.height;
  bool first = true;
  for (uint64_t i = 0; i < m.total_pixels; ++i) {
    int worst = 0;
    for (int c = 0; c < 4; ++c) {
      worst = std::max(worst, std::abs(int(recorded.pixels[i * 4 + c]) - int(replayed.pixels[i * 4 + c])));
    }
    if (worst == 0) continue;
    ++m.differing_pixels;
    m.max_difference = std::max(m.max_difference, worst);
    if (first) {
      first = false;
      m.first_x = static_cast<int>(recorded.x + static_cast<int64_t>(i % recorded.width));
      m.first_y = static_cast<int>(recorded.y + static_cast<int64_t>(i / recorded.width));
    }
  }
  *equal = m.differing_pixels == 0;
  return m;
}

class LoopReplay {
 public:
  LoopReplay(const ReplayOptions& options, const host::HostDriver& driver, host::SurfaceFactory& surfaces,
             const stream::FunctionTable& functions, ReplayResult* result, bool first_loop)
      : options_(options), dispatch_(driver, surfaces, functions), result_(result), first_loop_(first_loop),
        checking_(options.check && first_loop), check_(driver) {
    dispatch_.executor().before_swap = [this](uint32_t thread, uint64_t) { BeforeSwap(thread); };
    if ((options.stop_before_call != UINT64_MAX || options.before_call) && first_loop) {
      dispatch_.before_call = [this](const stream::DecodedCall& call) {
        if (options_.before_call) options_.before_call(dispatch_.executor(), call);
        if (call.sequence < options_.stop_before_call) return true;
        if (options_.at_stop) options_.at_stop(dispatch_.executor(), call);
        return false;
      };
    }
    dispatch_.executor().SetStorageLimit(options.memory_limit);
    dispatch_.AcceptUnknownFunctions();
    if (checking_) {
      dispatch_.wants_reply = [this](const stream::DecodedCall& call) { return check_.WantsReply(call); };
      dispatch_.after_call = [this](const stream::DecodedCall& call, const host::CallReply* reply) {
        check_.Check(call, reply);
      };
    }
  }

  bool Run(stream::RecordSource& source, std::string* error) {
    stream::Record record;
    const bool show_progress = options_.progress && isatty(STDERR_FILENO);
    Clock::time_point last_progress = Clock::now();
    while (source.Next(&record)) {
      if (!dispatch_.Dispatch(record, error)) return false;
      if (dispatch_.stopped()) break;
      if (record.type == stream::RecordType::kFrame) {
        ++frame_;
        if (show_progress && Clock::now() - last_progress > std::chrono::seconds(1)) {
          last_progress = Clock::now();
          std::fprintf(stderr, "\rreplay: frame %llu, %llu calls", static_cast<unsigned long long>(frame_),
                       static_cast<unsigned long long>(dispatch_.calls()));
        }
      } else if (record.type == stream::RecordType::kFramebuffer && options_.verify && first_loop_) {
        Verify(record);
      } else if (record.type == stream::RecordType::kTraceEvent && checking_) {
        uint64_t context = 0, error = 0;
        if (stream::DecodeGlErrorEvent(record.payload, &context, &error)) {
          check_.CheckFrameEndError(context, error, dispatch_.last_sequence() + 1);
        }
      }
    }
    if (show_progress) std::fprintf(stderr, "\r%60s\r", "");
    result_->calls = dispatch_.calls();
    result_->stopped = dispatch_.stopped();
    result_->last_sequence = dispatch_.last_sequence();
    result_->frames = frame_;
    result_->skipped_calls = dispatch_.executor().skipped_calls();
    result_->problems = dispatch_.executor().problems();
    if (checking_) {
      result_->calls_compared = check_.compared();
      result_->calls_differing = check_.differing();
      result_->call_differences = check_.first_differences();
    }
    if (dispatch_.calls() != 0) {
      result_->traced_seconds = double(dispatch_.last_end_ns() - dispatch_.first_start_ns()) / 1e9;
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

 private:
  void BeforeSwap(uint32_t thread) {
    bool wanted = false;
    for (auto [first, last] : options_.snapshot_frames) wanted |= frame_ >= first && frame_ <= last;
    if (!first_loop_ || !wanted) return;
    if (options_.snapshot_dir.empty() && !options_.on_snapshot) return;
    host::RgbaImage image;
    std::string error;
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

  void Verify(const stream::Record& record) {
    stream::FramebufferImage recorded;
    if (!stream::DecodeFramebuffer(record.payload, &recorded) || recorded.format != 0) return;
    host::RgbaImage replayed;
    std::string error;
    bool read = false;
    dispatch_.RunOn(record.thread_id, [&] {
      read = dispatch_.executor().ReadFramebuffer(record.thread_id, recorded.framebuffer, static_cast<int>(recorded.x),
                                       static_cast<int>(recorded.y), static_cast<int>(recorded.width),
                                       static_cast<int>(recorded.height), &replayed, &error);
      check_.DropHostErrors();
    });
    ++result_->framebuffers_checked;
    bool equal = false;
    FramebufferMismatch mismatch;
    if (read) {
      mismatch = Compare(recorded, replayed, &equal);
    } else {
      mismatch.frame = recorded.frame;
      mismatch.sequence = recorded.sequence;
      mismatch.framebuffer = recorded.framebuffer;
      mismatch.total_pixels = mismatch.differing_pixels = recorded.width * recorded.height;
      mismatch.max_difference = 255;
    }
    if (equal) return;
    ++result_->framebuffers_differing;
    if (result_->mismatches.size() < kMismatchesKept) result_->mismatches.push_back(mismatch);
  }

  const ReplayOptions& options_;
  host::RecordDispatch dispatch_;
  ReplayResult* result_;
  const bool first_loop_;
  const bool checking_;  // the self-check runs (first loop only)
  SelfCheck check_;
  uint64_t frame_ = 0;
  std::string snapshot_error_;
};

}  // namespace

bool Replay(const std::string& trace_path, const ReplayOptions& options, ReplayResult* result, std::string* error) {
  auto driver = host::HostDriver::Load(options.strata_lib_dir, error);
  if (!driver) return false;
  std::unique_ptr<host::SurfaceFactory> surfaces =
      options.window ? host::MakeX11SurfaceFactory(*driver, error) : host::MakePbufferSurfaceFactory(*driver);
  if (!surfaces) return false;
  for (int loop = 0; loop < std::max(options.loops, 1); ++loop) {
    auto reader = stream::OrderedRecordReader::Open(trace_path, error);
    if (!reader) return false;
    Clock::time_point start = Clock::now();
    bool ok;
    {
      LoopReplay replay(options, *driver, *surfaces, reader->functions(), result, loop == 0);
      ok = replay.Run(*reader, error);
    }
    result->loop_seconds.push_back(std::chrono::duration<double>(Clock::now() - start).count());
    if (!ok) return false;
  }
  return true;
}

}  // namespace strata::replay
