#include "replay/gpu_times.h"

#include <GLES2/gl2.h>
#include <GLES2/gl2ext.h>

#include <algorithm>
#include <chrono>
#include <deque>
#include <optional>
#include <set>
#include <string_view>
#include <vector>

#include "common/gl_queries.h"
#include "host/executor.h"
#include "stream/capture_sizes.h"
#include "strata/api/functions.h"
#include "strata/api/traits.h"

namespace strata::replay {
namespace {

// Past this many measurements waiting on one context, a swap waits for the GPU.
constexpr size_t kMaxPending = 4096;

struct TimerFunctions {
  explicit TimerFunctions(const host::HostDriver& d)
      : GenQueries(d.Get<PFNGLGENQUERIESEXTPROC>(api::glGenQueriesEXT)),
        DeleteQueries(d.Get<PFNGLDELETEQUERIESEXTPROC>(api::glDeleteQueriesEXT)),
        BeginQuery(d.Get<PFNGLBEGINQUERYEXTPROC>(api::glBeginQueryEXT)),
        EndQuery(d.Get<PFNGLENDQUERYEXTPROC>(api::glEndQueryEXT)),
        GetQueryiv(d.Get<PFNGLGETQUERYIVEXTPROC>(api::glGetQueryivEXT)),
        GetQueryObjectuiv(d.Get<PFNGLGETQUERYOBJECTUIVEXTPROC>(api::glGetQueryObjectuivEXT)),
        GetQueryObjectui64v(d.Get<PFNGLGETQUERYOBJECTUI64VEXTPROC>(api::glGetQueryObjectui64vEXT)),
        GetIntegerv(d.Get<PFNGLGETINTEGERVPROC>(api::glGetIntegerv)),
        GetString(d.Get<PFNGLGETSTRINGPROC>(api::glGetString)),
        IsEnabled(d.Get<PFNGLISENABLEDPROC>(api::glIsEnabled)),
        Enable(d.Get<PFNGLENABLEPROC>(api::glEnable)),
        Disable(d.Get<PFNGLDISABLEPROC>(api::glDisable)),
        Scissor(d.Get<PFNGLSCISSORPROC>(api::glScissor)),
        Clear(d.Get<PFNGLCLEARPROC>(api::glClear)),
        GetError(d.Get<PFNGLGETERRORPROC>(api::glGetError)) {}
  bool complete() const {
    return GenQueries && DeleteQueries && BeginQuery && EndQuery && GetQueryiv && GetQueryObjectuiv &&
           GetQueryObjectui64v && GetIntegerv && GetString && GetError;
  }
  PFNGLGENQUERIESEXTPROC GenQueries;
  PFNGLDELETEQUERIESEXTPROC DeleteQueries;
  PFNGLBEGINQUERYEXTPROC BeginQuery;
  PFNGLENDQUERYEXTPROC EndQuery;
  PFNGLGETQUERYIVEXTPROC GetQueryiv;
  PFNGLGETQUERYOBJECTUIVEXTPROC GetQueryObjectuiv;
  PFNGLGETQUERYOBJECTUI64VEXTPROC GetQueryObjectui64v;
  PFNGLGETINTEGERVPROC GetIntegerv;
  PFNGLGETSTRINGPROC GetString;
  PFNGLISENABLEDPROC IsEnabled;
  PFNGLENABLEPROC Enable;
  PFNGLDISABLEPROC Disable;
  PFNGLSCISSORPROC Scissor;
  PFNGLCLEARPROC Clear;
  PFNGLGETERRORPROC GetError;
};

struct Measurement {
  GLuint query = 0;
  uint64_t sequence = 0, frame = 0, context_id = 0;
  int slot = -1;
  std::chrono::steady_clock::time_point begun;  // on the CPU: no GPU time of it can be longer than since then
};

// One recorded context's timer queries (query objects belong to a context).
struct ContextTimer {
  bool checked = false, supported = false;
  uint32_t thread = 0;             // the recorded thread that last had it current
  bool app_timing = false;         // the app's own GL_TIME_ELAPSED_EXT query is running
  std::vector<GLuint> free;        // query objects to reuse
  std::deque<Measurement> pending; // ended, result not read yet, in call order
  std::optional<Measurement> open; // begun for a call that has not ended
};

bool IsTimeElapsed(const stream::DecodedCall& call) {
  return call.args.size() >= 1 && call.args[0].u == GL_TIME_ELAPSED_EXT;
}

// What a function is to the timer, by slot, so that the calls it has no
// business with (most of them) cost one load.
enum class Role : uint8_t { kNone, kWork, kSwap, kLeave, kBeginQuery, kEndQuery };
const std::vector<Role>& Roles() {
  static const std::vector<Role> roles = [] {
    std::vector<Role> r(api::kFunctionCount, Role::kNone);
    for (int slot = 0; slot < api::kFunctionCount; ++slot) {
      // Work a timer query can measure: draws, compute dispatches, clears and blits.
      if (api::IsGpuWork(slot) || api::HasTrait(slot, api::kWritesFramebuffer)) r[slot] = Role::kWork;
      if (api::HasTrait(slot, api::kEndsFrame)) r[slot] = Role::kSwap;
      if (api::HasTrait(slot, api::kLeavesContext)) r[slot] = Role::kLeave;
      const int core = api::CoreOf(slot);
      if (core == api::CoreOf(api::glBeginQueryEXT)) r[slot] = Role::kBeginQuery;  // and its other names
      if (core == api::CoreOf(api::glEndQueryEXT)) r[slot] = Role::kEndQuery;
    }
    return r;
  }();
  return roles;
}

}  // namespace

class GpuTimer::Impl {
 public:
  bool Before(host::Executor& executor, const stream::DecodedCall& call, uint64_t frame) {
    const Role role = call.slot >= 0 ? roles_[call.slot] : Role::kNone;
    if (role == Role::kNone) return true;
    const uint32_t thread = static_cast<uint32_t>(call.thread);
    const uint64_t context = executor.CurrentContext(thread);
    if (context == 0) return true;
    ContextTimer& timer = contexts_[context];
    timer.thread = thread;
    if (timer.open) Abandon(executor, timer, "a call the replay could not run");
    if (role == Role::kSwap) {
      Collect(executor, timer, timer.pending.size() > kMaxPending);
    } else if (role == Role::kLeave && LeavesContext(call, context)) {
      Collect(executor, timer, true);  // it may never be current again
    } else if (role == Role::kBeginQuery && IsTimeElapsed(call)) {
      timer.app_timing = true;
    } else if (role == Role::kEndQuery && IsTimeElapsed(call)) {
      timer.app_timing = false;
    }
    if (role != Role::kWork) return true;
    if (!Supported(executor, thread, timer)) return NotMeasured("the driver has no GL_EXT_disjoint_timer_query");
    if (timer.app_timing) return NotMeasured("the app's own GL_TIME_ELAPSED_EXT query was running");
    GLuint query = 0;
    if (timer.free.empty()) {
      gl_->GenQueries(1, &query);
    } else {
      query = timer.free.back();
      timer.free.pop_back();
    }
    gl_->BeginQuery(GL_TIME_ELAPSED_EXT, query);
    DrainGlErrors(gl_->GetError);  // none expected; one would read as the call's own
    timer.open = Measurement{query, call.sequence, frame, call.context, call.slot, std::chrono::steady_clock::now()};
    return true;
  }

  bool After(host::Executor& executor, const stream::DecodedCall& call) {
    if (call.slot < 0 || roles_[call.slot] != Role::kWork) return true;
    const uint64_t context = executor.CurrentContext(static_cast<uint32_t>(call.thread));
    auto it = contexts_.find(context);
    if (it == contexts_.end() || !it->second.open) return true;
    ContextTimer& timer = it->second;
    gl_->EndQuery(GL_TIME_ELAPSED_EXT);
    DrainGlErrors(gl_->GetError);
    timer.pending.push_back(*timer.open);
    timer.open.reset();
    return true;
  }

  // The loop's end: what every context still waits for, on the thread that has it current.
  bool Finish(host::Executor& executor, const ReplayOptions::RunOn& run_on) {
    for (auto& entry : contexts_) {
      const auto context = entry.first;  // not a structured binding: clang 14 cannot capture one
      auto& timer = entry.second;
      if (!timer.open && timer.pending.empty()) continue;
      bool current = false;
      run_on(timer.thread, [&] {
        current = executor.CurrentContext(timer.thread) == context;
        if (!current) return;
        if (timer.open) Abandon(executor, timer, "a call the replay could not run");
        Collect(executor, timer, true);
      });
      if (!current) {
        summary_.not_measured += timer.pending.size() + (timer.open ? 1 : 0);
        Note("their context was no longer current when the replay ended");
      }
    }
    contexts_.clear();  // query objects die with the contexts; the next loop makes its own
    loops_.push_back(std::move(loop_));
    loop_.clear();
    return true;
  }

  GpuTimesFile Result(const std::string& trace) const {
    GpuTimesFile file;
    file.trace = trace;
    file.renderer = renderer_;
    file.loops = loops_.size();
    std::map<uint64_t, std::pair<GpuTime, std::vector<uint64_t>>> calls;
    for (const auto& loop : loops_) {
      for (const GpuTime& time : loop) {
        auto& [first, times] = calls[time.sequence];
        if (times.empty()) first = time;
        times.push_back(time.ns);
      }
    }
    for (auto& [sequence, entry] : calls) {
      auto& [call, times] = entry;
      std::sort(times.begin(), times.end());
      const size_t n = times.size();
      call.ns = n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
      file.calls.push_back(call);
    }
    return file;
  }

  GpuTimerSummary& summary() { return summary_; }

 private:
  // eglMakeCurrent of another context (or none), eglReleaseThread, and
  // eglDestroyContext or eglTerminate of the current one.
  static bool LeavesContext(const stream::DecodedCall& call, uint64_t context) {
    if (call.slot == api::eglMakeCurrent) return call.args.size() == 4 && call.args[3].u != context;
    if (call.slot == api::eglDestroyContext) return call.args.size() == 2 && call.args[1].u == context;
    return true;  // eglReleaseThread, eglTerminate
  }

  bool Supported(host::Executor& executor, uint32_t thread, ContextTimer& timer) {
    if (timer.checked) return timer.supported;
    timer.checked = true;
    if (!gl_) gl_ = std::make_unique<TimerFunctions>(executor.driver());
    if (executor.CurrentVersion(thread) < 2 || !gl_->complete()) return false;
    const char* extensions = reinterpret_cast<const char*>(gl_->GetString(GL_EXTENSIONS));
    if (!capture::HasExtension(extensions, "GL_EXT_disjoint_timer_query")) return false;
    GLint bits = 0;
    gl_->GetQueryiv(GL_TIME_ELAPSED_EXT, GL_QUERY_COUNTER_BITS_EXT, &bits);
    GLint disjoint = 0;
    gl_->GetIntegerv(GL_GPU_DISJOINT_EXT, &disjoint);  // reading clears it: events before the replay's queries do not count
    if (renderer_.empty()) {
      const char* renderer = reinterpret_cast<const char*>(gl_->GetString(GL_RENDERER));
      const char* version = reinterpret_cast<const char*>(gl_->GetString(GL_VERSION));
      renderer_ = std::string(renderer ? renderer : "?") + ", " + (version ? version : "?");
    }
    timer.supported = bits > 0;
    if (timer.supported) {
      // A first query of a context, around a clear of no pixels, whose result is
      // thrown away: llvmpipe answers the first query that holds work with its
      // clock's absolute value, which would cost the first call its time.
      GLuint query = 0;
      GLint box[4] = {};
      gl_->GetIntegerv(GL_SCISSOR_BOX, box);
      const bool scissor = gl_->IsEnabled(GL_SCISSOR_TEST);
      gl_->GenQueries(1, &query);
      gl_->BeginQuery(GL_TIME_ELAPSED_EXT, query);
      gl_->Enable(GL_SCISSOR_TEST);
      gl_->Scissor(0, 0, 0, 0);
      gl_->Clear(GL_COLOR_BUFFER_BIT);
      gl_->Scissor(box[0], box[1], box[2], box[3]);
      if (!scissor) gl_->Disable(GL_SCISSOR_TEST);
      gl_->EndQuery(GL_TIME_ELAPSED_EXT);
      GLuint64 ignored = 0;
      gl_->GetQueryObjectui64v(query, GL_QUERY_RESULT_EXT, &ignored);
      timer.free.push_back(query);
    }
    DrainGlErrors(gl_->GetError);
    return timer.supported;
  }

  // Reads the results waiting, in order: all of them (waiting for the GPU),
  // or only up to the first not yet available.
  void Collect(host::Executor&, ContextTimer& timer, bool wait) {
    if (timer.pending.empty()) return;
    std::vector<GpuTime> batch;
    while (!timer.pending.empty()) {
      const Measurement& m = timer.pending.front();
      if (!wait) {
        GLuint available = GL_FALSE;
        gl_->GetQueryObjectuiv(m.query, GL_QUERY_RESULT_AVAILABLE_EXT, &available);
        if (!available) break;
      }
      GLuint64 ns = 0;
      gl_->GetQueryObjectui64v(m.query, GL_QUERY_RESULT_EXT, &ns);
      // A time longer than the wall clock's since the query began is the driver's mistake
      // (llvmpipe answers a context's first query with its clock's absolute value).
      const auto since = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - m.begun);
      if (ns > static_cast<GLuint64>(since.count())) {
        ++summary_.implausible;
        NotMeasured("the driver gave times longer than the wall clock's span they were measured in");
      } else {
        batch.push_back({m.sequence, m.frame, m.context_id, ns, m.slot});
      }
      timer.free.push_back(m.query);
      timer.pending.pop_front();
    }
    GLint disjoint = 0;
    gl_->GetIntegerv(GL_GPU_DISJOINT_EXT, &disjoint);
    DrainGlErrors(gl_->GetError);
    if (disjoint) {
      // Every result read now, and those still waiting, may span the event.
      summary_.disjoint += batch.size() + timer.pending.size();
      for (const Measurement& m : timer.pending) timer.free.push_back(m.query);
      timer.pending.clear();
      return;
    }
    if (loops_.empty()) summary_.measured += batch.size();
    loop_.insert(loop_.end(), batch.begin(), batch.end());
  }

  // A query begun for a call that never ended (the executor refused the call).
  void Abandon(host::Executor&, ContextTimer& timer, const char* why) {
    gl_->EndQuery(GL_TIME_ELAPSED_EXT);
    timer.free.push_back(timer.open->query);
    timer.open.reset();
    DrainGlErrors(gl_->GetError);
    NotMeasured(why);
  }

  bool NotMeasured(const char* why) {
    ++summary_.not_measured;
    Note(why);
    return true;
  }
  void Note(const std::string& why) {
    if (std::find(summary_.notes.begin(), summary_.notes.end(), why) == summary_.notes.end()) {
      summary_.notes.push_back(why);
    }
  }

  const std::vector<Role>& roles_ = Roles();
  std::unique_ptr<TimerFunctions> gl_;
  std::map<uint64_t, ContextTimer> contexts_;  // by recorded context handle
  std::vector<GpuTime> loop_;                  // this loop's times, in the order read
  std::vector<std::vector<GpuTime>> loops_;
  std::string renderer_;
  GpuTimerSummary summary_;
};

GpuTimer::GpuTimer() : impl_(std::make_unique<Impl>()) {}
GpuTimer::~GpuTimer() = default;

ReplayOptions::CallHooks GpuTimer::Hooks() {
  Impl* impl = impl_.get();
  ReplayOptions::CallHooks hooks;
  hooks.before = [impl](host::Executor& executor, const stream::DecodedCall& call, uint64_t frame, std::string*) {
    return impl->Before(executor, call, frame);
  };
  hooks.after = [impl](host::Executor& executor, const stream::DecodedCall& call, uint64_t, std::string*) {
    return impl->After(executor, call);
  };
  hooks.finish = [impl](host::Executor& executor, const ReplayOptions::RunOn& run_on, std::string*) {
    return impl->Finish(executor, run_on);
  };
  return hooks;
}

GpuTimesFile GpuTimer::Result(const std::string& trace) const { return impl_->Result(trace); }
const GpuTimerSummary& GpuTimer::summary() const { return impl_->summary(); }

}  // namespace strata::replay
