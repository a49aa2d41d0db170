#include "layers/trace/frame_range.h"

#include <cstdlib>
#include <mutex>
#include <thread>

#include "common/log.h"
#include "common/range_option.h"
#include "layers/trace/call_writer.h"
#include "layers/trace/trace_session.h"

namespace strata::trace {

FrameRangeFlags g_frame_range;

namespace {

std::mutex g_mutex;                   // arming, disarming, describing
std::atomic<uint64_t> g_swaps_left{0};  // untraced swaps until the range begins
uint64_t g_swaps_first = 0;           // as armed
std::atomic<uint64_t> g_frames{0};    // frames the range traces (0: to the end)

void WarnAtExit() {
  if (g_frame_range.counting.load()) {
    const uint64_t seen = g_swaps_first - g_swaps_left.load();
    STRATA_WARN("frame range: the program ended after %llu frames, before the range began (after %llu); nothing "
                "was traced",
                static_cast<unsigned long long>(seen), static_cast<unsigned long long>(g_swaps_first));
  } else if (g_frame_range.ending.load()) {
    STRATA_WARN("frame range: the program ended after %u of the range's %llu frames", TraceSession::frame(),
                static_cast<unsigned long long>(g_frames.load()));
  }
}

}  // namespace

bool ParseFrameRange(const std::string& text, uint64_t* first, uint64_t* last, std::string* error) {
  std::pair<uint64_t, uint64_t> range;
  if (!ParseRangeItem(text, &range)) {
    *error = "frames '" + text + "': use A-B, A-, -B or N (frame numbers from 0, B not before A)";
    return false;
  }
  *first = range.first;
  *last = range.second;
  return true;
}

bool ArmFrameRange(uint64_t swaps_first, uint64_t frames, std::string* error) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (g_frame_range.counting.load() || g_frame_range.ending.load()) {
    *error = "a frame range is already armed: " + std::string(g_frame_range.counting ? "waiting" : "tracing");
    return false;
  }
  g_swaps_first = swaps_first;
  g_swaps_left.store(swaps_first);
  g_frames.store(frames);
  g_frame_range.ending.store(frames != 0);
  g_frame_range.counting.store(swaps_first != 0);
  static std::once_flag at_exit;
  std::call_once(at_exit, [] { std::atexit(WarnAtExit); });
  return true;
}

void DisarmFrameRange() {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_frame_range.counting.store(false);
  g_frame_range.ending.store(false);
}

std::string DescribeFrameRange() {
  std::lock_guard<std::mutex> lock(g_mutex);
  const uint64_t frames = g_frames.load();
  const std::string length = frames == 0 ? "to the end" : std::to_string(frames) + " frames";
  if (g_frame_range.counting.load()) {
    return "waiting " + std::to_string(g_swaps_left.load()) + " more frames, then tracing " + length;
  }
  if (g_frame_range.ending.load()) return "tracing " + length + ", " + std::to_string(TraceSession::frame()) + " done";
  return "";
}

void CountUntracedSwap() {
  // Only the swap that takes the count to zero switches tracing on.
  uint64_t left = g_swaps_left.load();
  while (left > 0 && !g_swaps_left.compare_exchange_weak(left, left - 1)) {
  }
  if (left != 1) return;
  g_frame_range.counting.store(false);
  TraceSession& session = TraceSession::Get();
  if (!session.active()) return;  // the sink failed, or a detach came first
  session.SwitchOn();
  STRATA_INFO("frame range: tracing switched on after %llu frames", static_cast<unsigned long long>(g_swaps_first));
  JoinAtFrameStart();
}

void NoteTracedFrameEnd(uint32_t frame) {
  if (frame + 1 < g_frames.load()) return;
  if (!g_frame_range.ending.exchange(false)) return;  // another thread ended it
  TraceSession& session = TraceSession::Get();
  session.SwitchOff();
  LeaveTracingNow();
  STRATA_INFO("frame range: tracing switched off after %u frames", frame + 1);
  // Finishing joins the tracer's threads and writes what is left: not on the app's thread.
  std::thread([] { TraceSession::Get().Stop(2000); }).detach();
}

bool InLastFrameOfRange(uint32_t frame) {
  return g_frame_range.ending.load(std::memory_order_relaxed) && frame + 1 == g_frames.load();
}

}  // namespace strata::trace
