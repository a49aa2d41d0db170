#pragma once
// Replays a trace file: reads its records in call order, runs the calls on
// the host through the executor, and on the way writes snapshots and checks
// the replayed framebuffers against those captured while tracing.

#include <cstdint>
#include <functional>
#include <span>
#include <utility>
#include <string>
#include <vector>

#include "common/image_difference.h"
#include "host/executor.h"
#include "replay/self_check.h"

namespace strata::replay {

struct ReplayOptions {
  bool window = false;              // X11 windows instead of pbuffers
  // Frames to snapshot, as inclusive ranges (frame 0 ends at the first eglSwapBuffers).
  std::vector<std::pair<uint64_t, uint64_t>> snapshot_frames;
  std::string snapshot_dir;
  bool verify = false;
  // How far a verified framebuffer may be from the captured one (exact by default).
  ImageTolerance tolerance;
  // Compare what calls give back with the recording (self_check.h).
  bool check = true;
  // Take the host's GL error after every call, so that a call that fails
  // here where it did not when traced is named exactly; by default calls
  // that give nothing back run through the executor's generated handlers,
  // unseen, and an error is named by the calls since the last one seen.
  bool check_each_call = false;
  int loops = 1;
  // Read the trace into memory, and decode the calls the handlers take,
  // before the first loop, so that every loop runs from memory (where the
  // records fit in record_memory; else they read the file).
  bool preload = false;
  // What --loop and --preload may keep of the records and calls decoded (0: a quarter of this machine's memory).
  uint64_t record_memory = 0;
  bool progress = false;            // a progress line on stderr for long replays
  uint64_t memory_limit = 0;        // GL storage the trace's calls may hold (host/storage_budget.h; 0: no limit)
  // Where Strata's own libraries are, so they are never taken as the host driver.
  std::string strata_lib_dir;
  // Replay frames first_frame..last_frame only: the calls before first_frame
  // run, but draws and clears into the surface are skipped there (nothing
  // reads them: see fast_forward_draws), and the replay ends after
  // last_frame's frame end. Timing, snapshots and --verify cover the range.
  uint64_t first_frame = 0, last_frame = UINT64_MAX;
  // Set by Replay: whether draws into the surface before first_frame can be
  // skipped (false when the trace reads its framebuffers back, or asks for a
  // preserved back buffer, before first_frame).
  bool fast_forward_draws = true;
  // Stop before the call with this sequence number (the calls before it run,
  // it and those after do not): `at_stop` is called on that call's host
  // thread, with its context current, to read what the calls before left.
  uint64_t stop_before_call = UINT64_MAX;
  std::function<void(host::Executor& executor, const stream::DecodedCall& call)> at_stop;
  // Then, on the thread that dispatches the calls, with `run_on` to run work
  // on the host thread of any recorded thread: to read contexts current on
  // other threads than the stopping call's.
  using RunOn = std::function<void(uint64_t thread, const std::function<void()>& work)>;
  std::function<void(host::Executor& executor, const stream::DecodedCall& call, const RunOn& run_on)> after_stop;
  // Called before every call runs, on its host thread (first loop only): to
  // read the state calls meet without stopping (`strata view --state-frames`).
  std::function<void(host::Executor& executor, const stream::DecodedCall& call)> before_call;
  // Work a tool does around the calls as they run, in every loop (shader
  // replacement, GPU timing, pixel history): on the call's host thread with
  // its context current, `frame` the frame the call belongs to. A hook that
  // returns false stops the replay, which then fails with the hook's *error.
  // Any hook set sends every call through the dispatch's hooked path.
  struct CallHooks {
    std::function<bool(host::Executor& executor, const stream::DecodedCall& call, uint64_t frame, std::string* error)>
        before;
    // After a call that ran (a call the executor refused gets none).
    std::function<bool(host::Executor& executor, const stream::DecodedCall& call, uint64_t frame, std::string* error)>
        after;
    // A memory record of `thread` (client-side arrays of its next draw), before the dispatch takes it.
    std::function<void(uint32_t thread, uint64_t address, std::span<const uint8_t> bytes, uint64_t frame)> memory;
    // After the loop's last call, on the dispatching thread: to collect what
    // is still pending on the contexts (run_on reaches each thread's).
    std::function<bool(host::Executor& executor, const RunOn& run_on, std::string* error)> finish;
  };
  std::vector<CallHooks> hooks;
  // Called with each frame image a snapshot takes (frame, image); optional.
  std::function<void(uint64_t, const host::RgbaImage&)> on_snapshot;
};

struct FramebufferMismatch {
  uint64_t frame = 0, sequence = 0, framebuffer = 0;
  ImageDifference difference;  // with the tolerance's threshold
  bool unread = false;         // the replay could not read its framebuffer (every pixel counts as off)
  int first_x = 0, first_y = 0;
};

// A context the trace recorded on another driver than the one replaying it
// (the trace's driver strings, GL_VENDOR, GL_RENDERER and GL_VERSION, against
// the host's for the same context).
struct OtherDriver {
  uint64_t context = 0;
  std::string recorded, replayed;  // "vendor, renderer, version"
};

struct ReplayResult {
  uint64_t calls = 0, frames = 0, skipped_calls = 0;
  uint64_t frame_ends = 0;               // every frame end read, inside the range or before it
  std::vector<double> loop_seconds;      // wall time of each loop
  // With more than one loop, or preloading: where the loops read their
  // records (from memory: stream/record_store.h), as a line for the user.
  std::string loops_note;
  double traced_seconds = 0;             // first call's start to last call's end, as recorded
  // The frames after the first, where a program times its frame rate: the
  // first frame also holds the setup (the display, contexts, shader
  // compiles) and its end is where the steady frames start. Each loop's wall
  // time of them, and the recorded run's time of the same span; only when
  // the replay runs whole (no frame range) and has at least two frames.
  std::vector<double> steady_seconds;
  double traced_steady_seconds = 0;
  uint64_t steady_frames = 0;
  uint64_t framebuffers_checked = 0, framebuffers_differing = 0;
  uint64_t framebuffers_tolerated = 0;          // not equal, but within the tolerance
  std::vector<FramebufferMismatch> mismatches;  // the first few past the tolerance
  std::vector<uint64_t> differing_frames;       // every frame with a framebuffer past the tolerance, ascending
  WorstDifference worst;                        // over every framebuffer that is not equal
  std::vector<OtherDriver> other_drivers;       // contexts replayed on another driver than they were recorded on
  std::vector<std::string> snapshots;     // files written
  std::vector<std::string> problems;      // calls that could not run, one line per function
  // The self-check: calls compared with the recording, those that differ, the first few.
  uint64_t calls_compared = 0, calls_differing = 0;
  std::vector<CallDifference> call_differences;
  std::vector<IgnoredAnswers> ignored_answers;  // the driver's own, not compared (another driver)
  std::string warning;                    // e.g. the trace was cut short
  bool stopped = false;                   // at stop_before_call
  uint64_t fast_forwarded_draws = 0;      // skipped before first_frame
  std::string fast_forward_note;          // why draws were not skipped, when they were not (set before the replay starts)
  uint64_t last_sequence = 0;             // of the last call read
};

// False with *error when the trace cannot be read or the host cannot replay
// it at all; a damaged trace replays up to the damage and says so in *error.
bool Replay(const std::string& trace_path, const ReplayOptions& options, ReplayResult* result, std::string* error);

}  // namespace strata::replay
