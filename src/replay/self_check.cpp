#include "replay/self_check.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl32.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string_view>

#include "replay/compared_calls.h"
#include "stream/call_printer.h"
#include "strata/api/functions.h"
#include "strata/api/traits.h"

namespace strata::replay {
namespace {

constexpr size_t kDifferencesKept = 10;
// GL keeps one flag per error: a handful at most. More means a loop.
constexpr int kMaxErrorsPerCall = 8;

std::string GlErrorText(uint64_t error) {
  if (error == GL_NO_ERROR) return "GL_NO_ERROR";
  if (const char* name = api::GlEnumName(static_cast<uint32_t>(error))) return name;
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(error));
  return text;
}

// A call's name, with the pname that decides what it answers.
std::string Describe(const stream::DecodedCall& call) {
  const api::FunctionInfo& info = api::kFunctions[call.slot];
  for (int i = 0; i < info.param_count; ++i) {
    if (std::strcmp(info.params[i].name, "pname") == 0) {
      return std::string(call.name) + "(" + stream::FormatValue(call, i) + ")";
    }
  }
  return std::string(call.name);
}

// A call's name with every enum it was given: the driver's answers differ by all of them
// (glGetShaderPrecisionFormat's shader and precision types, glGetInternalformativ's format).
std::string DescribeWithEnums(const stream::DecodedCall& call) {
  const api::FunctionInfo& info = api::kFunctions[call.slot];
  std::string enums;
  for (int i = 0; i < info.param_count && i < static_cast<int>(call.args.size()); ++i) {
    if (info.params[i].kind == api::ArgKind::kEnum) enums += (enums.empty() ? "" : ", ") + stream::FormatValue(call, i);
  }
  return std::string(call.name) + (enums.empty() ? "" : "(" + enums + ")");
}

// A returned string, up to its end or its first NUL.
std::string_view StringOf(const stream::DecodedValue& value) {
  const auto* text = reinterpret_cast<const char*>(value.out.data());
  return std::string_view(text, strnlen(text, value.out.size()));
}

std::string Quoted(std::string_view text) {
  constexpr size_t kShown = 80;
  return "\"" + std::string(text.substr(0, kShown)) + (text.size() > kShown ? "...\"" : "\"");
}

std::string ResultText(const stream::DecodedCall& call, const stream::DecodedValue& value) {
  if (call.slot == api::eglGetError) {
    if (value.i == EGL_SUCCESS) return "EGL_SUCCESS";
    if (const char* name = api::EglErrorName(value.i)) return name;
  }
  return stream::FormatScalar(call, value);
}

uint64_t ResultBits(const stream::DecodedCall& call, const stream::DecodedValue& value) {
  return api::kFunctions[call.slot].return_kind == api::ArgKind::kInt ? static_cast<uint64_t>(value.i) : value.u;
}

// EGL errors the replay cannot meet: it runs every display as its one
// initialized host display, and windows and pixmaps as pbuffers it makes, so
// calls that failed on a bad display or native window succeed here.
bool EglErrorOfAStandIn(int64_t error) {
  return error == EGL_NOT_INITIALIZED || error == EGL_BAD_DISPLAY || error == EGL_BAD_NATIVE_WINDOW ||
         error == EGL_BAD_NATIVE_PIXMAP;
}

bool WaitFailed(const stream::DecodedCall& call, uint64_t result) {
  return api::kFunctions[call.slot].is_egl ? result == EGL_FALSE : result == GL_WAIT_FAILED;
}

}  // namespace

SelfCheck::SelfCheck(const host::HostDriver& driver)
    : get_error_(reinterpret_cast<GetError>(driver.Function(api::glGetError))) {}

bool SelfCheck::WantsReply(const stream::DecodedCall& call) const {
  if (call.slot < 0) return false;
  if (api::kFunctions[call.slot].is_egl) return true;
  const Agreement agreement = ComparisonOf(call).agreement;
  return agreement != Agreement::kNone && agreement != Agreement::kGlError;
}

void SelfCheck::SetDriverOfContext(uint64_t context, bool same) { same_driver_[context] = same; }

void SelfCheck::DropHostErrors() {
  for (int i = 0; get_error_ && i < kMaxErrorsPerCall && get_error_() != GL_NO_ERROR; ++i) {
  }
}

bool SelfCheck::Sees(int slot) {
  const api::FunctionInfo& info = api::kFunctions[slot];
  if (info.is_egl || info.return_kind != api::ArgKind::kVoid) return true;
  for (int i = 0; i < info.param_count; ++i) {
    const api::ArgKind kind = info.params[i].kind;
    if (kind == api::ArgKind::kPointer || kind == api::ArgKind::kString) return true;
  }
  return api::CoreOf(slot) == api::glBeginQuery;
}

bool SelfCheck::TakeHostErrors(const stream::DecodedCall& call) {
  if (call.context == 0) return false;
  return TakeHostErrors(call.context, call.sequence, Describe(call));
}

bool SelfCheck::TakeHostErrors(uint64_t context, uint64_t sequence, const std::string& function) {
  if (get_error_ == nullptr) return false;
  uint64_t& through = taken_through_[context];
  const uint64_t first = through != 0 && through < sequence ? through + 1 : sequence;
  bool raised = false;
  for (int i = 0; i < kMaxErrorsPerCall; ++i) {
    const unsigned int code = get_error_();
    if (code == GL_NO_ERROR) break;
    raised = true;
    std::vector<MetError>& met = met_[context];
    const bool known = std::any_of(met.begin(), met.end(), [&](const MetError& e) { return e.code == code; });
    if (!known) met.push_back({code, function.empty() ? first : std::min(first, sequence), sequence, function});
  }
  through = sequence;
  return raised;
}

void SelfCheck::TakeErrorsBefore(uint64_t context, uint64_t next_sequence) {
  if (context == 0 || next_sequence == 0) return;
  auto seen = taken_through_.find(context);
  if (seen != taken_through_.end() && seen->second + 1 >= next_sequence) return;  // no call ran unseen since
  TakeHostErrors(context, next_sequence - 1, "");
}

void SelfCheck::CompareError(uint64_t context, uint64_t recorded, uint64_t sequence, const std::string& function,
                             bool consume) {
  ++compared_;
  std::vector<MetError>& met = met_[context];
  if (recorded == GL_NO_ERROR) {
    if (met.empty()) return;
    const MetError first = met.front();
    met.clear();
    const std::string where = consume ? function + " at call " + std::to_string(sequence) + " answered GL_NO_ERROR"
                                      : "none pending at the frame's end, before call " + std::to_string(sequence);
    Differ(first.sequence, first.function, "no GL error (" + where + ")", GlErrorText(first.code), first.first);
    return;
  }
  auto same = std::find_if(met.begin(), met.end(), [&](const MetError& e) { return e.code == recorded; });
  if (same != met.end()) {
    if (consume) met.erase(same);
    return;
  }
  std::string replayed = "GL_NO_ERROR";
  if (!met.empty()) {
    const MetError& e = met.front();
    replayed = GlErrorText(e.code) + " (raised by " +
               (e.first < e.sequence ? "one of calls " + std::to_string(e.first) + "-" + std::to_string(e.sequence)
                                     : "call " + std::to_string(e.sequence)) +
               (e.function.empty() ? "" : " " + e.function) + ")";
    if (consume) met.erase(met.begin());
  }
  Differ(sequence, function, GlErrorText(recorded), replayed);
}

void SelfCheck::CheckFrameEndError(uint64_t context, uint64_t error, uint64_t next_sequence) {
  CompareError(context, error, next_sequence, "the error pending at the frame's end", false);
}

void SelfCheck::Check(const stream::DecodedCall& call, const host::CallReply* reply) {
  const bool raised = !api::kFunctions[call.slot].is_egl && TakeHostErrors(call);
  if (api::CoreOf(call.slot) == api::glBeginQuery) {
    query_targets_[{call.context, call.args[1].u}] = static_cast<uint32_t>(call.args[0].u);
  }
  const Comparison comparison = ComparisonOf(call);
  if (comparison.agreement == Agreement::kNone) return;
  if (comparison.agreement == Agreement::kGlError) {
    if (call.has_reply) CompareError(call.context, call.result.u, call.sequence, api::kFunctions[api::glGetError].name, true);
    return;
  }
  if (reply == nullptr || !call.has_reply) return;
  switch (comparison.agreement) {
    case Agreement::kSameResult: {
      if (call.slot == api::eglGetError && reply->result.i == EGL_SUCCESS && EglErrorOfAStandIn(call.result.i)) return;
      ++compared_;
      if (ResultBits(call, call.result) != ResultBits(call, reply->result)) {
        Differ(call.sequence, Describe(call), ResultText(call, call.result), ResultText(call, reply->result));
      }
      return;
    }
    case Agreement::kSuccess: {
      ++compared_;
      const bool recorded = ResultBits(call, call.result) != 0, replayed = ResultBits(call, reply->result) != 0;
      if (recorded != replayed) {
        Differ(call.sequence, Describe(call), recorded ? "success" : "failure", replayed ? "success" : "failure");
      }
      return;
    }
    case Agreement::kWaitOutcome: {
      ++compared_;
      const bool recorded = WaitFailed(call, ResultBits(call, call.result));
      const bool replayed = WaitFailed(call, ResultBits(call, reply->result));
      if (recorded != replayed) {
        Differ(call.sequence, Describe(call), recorded ? "the wait failed" : "the wait succeeded",
               replayed ? "the wait failed" : "the wait succeeded");
      }
      return;
    }
    case Agreement::kDriverAnswer:
      if (!raised) CheckDriverAnswer(call, *reply);
      return;
    case Agreement::kQueryResult: {
      auto target = query_targets_.find({call.context, call.args[0].u});
      if (target == query_targets_.end() || !QueryResultIsExact(target->second)) return;
      [[fallthrough]];
    }
    case Agreement::kSameOutput: {
      if (raised) return;  // a call that failed on the host wrote nothing: its error is compared instead
      const stream::DecodedValue& recorded = call.args[comparison.output];
      const stream::DecodedValue& replayed = reply->outputs[comparison.output];
      if (!recorded.has_out || !replayed.has_out) return;
      ++compared_;
      const size_t size = std::min(recorded.out.size(), replayed.out.size());
      if (size == 0 || std::memcmp(recorded.out.data(), replayed.out.data(), size) != 0) {
        Differ(call.sequence, Describe(call), stream::FormatBytes(call, comparison.output, recorded.out),
               stream::FormatBytes(call, comparison.output, replayed.out));
      }
      return;
    }
    default:
      return;
  }
}

void SelfCheck::CheckDriverAnswer(const stream::DecodedCall& call, const host::CallReply& reply) {
  bool known = false, differs = false;
  std::string recorded, replayed;
  if (call.result.kind == api::ArgKind::kString && call.result.has_out && reply.result.has_out) {
    known = true;
    const std::string_view a = StringOf(call.result), b = StringOf(reply.result);
    if (a != b) differs = true, recorded = Quoted(a), replayed = Quoted(b);
  }
  for (size_t i = 0; i < call.args.size() && i < reply.outputs.size(); ++i) {
    const stream::DecodedValue &a = call.args[i], &b = reply.outputs[i];
    if (!a.has_out || !b.has_out) continue;
    known = true;
    const size_t size = std::min(a.out.size(), b.out.size());
    if (!differs && (size == 0 || std::memcmp(a.out.data(), b.out.data(), size) != 0)) {
      differs = true;
      recorded = stream::FormatBytes(call, static_cast<int>(i), a.out);
      replayed = stream::FormatBytes(call, static_cast<int>(i), b.out);
    }
  }
  if (!known) return;
  std::string function = DescribeWithEnums(call);
  auto same = same_driver_.find(call.context);
  if (same != same_driver_.end() && same->second) {
    ++compared_;
    if (differs) Differ(call.sequence, std::move(function), recorded, replayed);
    return;
  }
  auto [entry, added] = ignored_index_.emplace(function, ignored_.size());
  if (added) ignored_.push_back({std::move(function), 0, 0});
  IgnoredAnswers& ignored = ignored_[entry->second];
  ++ignored.count;
  ignored.differing += differs;
}

void SelfCheck::Differ(uint64_t sequence, std::string function, std::string recorded, std::string replayed,
                       uint64_t first) {
  ++differing_;
  if (differences_.size() < kDifferencesKept) {
    differences_.push_back({sequence, first < sequence ? first : UINT64_MAX, std::move(function), std::move(recorded),
                            std::move(replayed)});
  }
}

}  // namespace strata::replay
