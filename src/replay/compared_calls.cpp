#include "replay/compared_calls.h"

#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

#include <cstring>
#include <vector>

#include "strata/api/functions.h"
#include "strata/api/parameters.h"
#include "strata/api/traits.h"

namespace strata::replay {
namespace {

using api::ArgKind;

// Calls whose comparison depends on what they ask (a pname, a target): how.
enum class ByParameter : uint8_t {
  kNone,
  kState,            // glGet*v: app-set state and default values, limits (output 1)
  kIndexedBinding,   // glGet*i_v: indexed bindings and limits (output 2)
  kObjectParameter,  // glGet<Object>Parameter*v: what the app set (output 2)
  kQueryObject,      // glGetQueryObject*: the result (output 2)
};

// By the function's query trait (api/function_traits.txt): an alias is its core's.
ByParameter ByParameterOf(int slot) {
  switch (api::kTraits[slot].query) {
    case api::QueryKind::kState: return ByParameter::kState;
    case api::QueryKind::kIndexedState: return ByParameter::kIndexedBinding;
    case api::QueryKind::kObjectParameter: return ByParameter::kObjectParameter;
    case api::QueryKind::kQueryResult: return ByParameter::kQueryObject;
    default: return ByParameter::kNone;
  }
}

// Per slot: the comparison that needs no argument, or how the arguments decide it.
struct SlotComparison {
  Comparison fixed;
  ByParameter by_parameter = ByParameter::kNone;
};

std::vector<SlotComparison> BuildTable() {
  std::vector<SlotComparison> table(api::kFunctionCount);
  for (int slot = 0; slot < api::kFunctionCount; ++slot) {
    const api::FunctionInfo& info = api::kFunctions[slot];
    const api::FunctionTraits& traits = api::kTraits[slot];
    Agreement& agreement = table[slot].fixed.agreement;
    if (info.is_egl) {
      // Success agrees: a display, config, context or surface made, made
      // current or destroyed on both sides. Not the strings or config lists.
      if (info.return_kind == ArgKind::kBoolean || info.return_kind == ArgKind::kHandle) agreement = Agreement::kSuccess;
    } else if (traits.query == api::QueryKind::kIsObject) {
      agreement = Agreement::kSameResult;
    } else if (traits.query == api::QueryKind::kImplementation) {
      agreement = Agreement::kDriverAnswer;  // strings, extension lists, precisions and sample counts
    } else if ((traits.creates != api::ObjectClass::kNone && info.return_kind != ArgKind::kVoid) ||
               traits.mapping == api::Mapping::kMap || traits.mapping == api::Mapping::kUnmap) {
      // A name, sync or mapping the driver makes (or an unmapping's
      // success): its value is the driver's own, its success is not.
      agreement = Agreement::kSuccess;
    }
    table[slot].by_parameter = ByParameterOf(slot);
  }
  // A function and every other name of it (api/function_traits.txt).
  auto set = [&](api::Slot core, Agreement agreement) {
    for (int slot = 0; slot < api::kFunctionCount; ++slot) {
      if (api::CoreOf(slot) == core) table[slot].fixed.agreement = agreement;
    }
  };
  set(api::eglGetProcAddress, Agreement::kNone);  // entry points are the host's own
  set(api::eglGetError, Agreement::kSameResult);
  set(api::eglClientWaitSync, Agreement::kWaitOutcome);
  set(api::glGetError, Agreement::kGlError);
  set(api::glCheckFramebufferStatus, Agreement::kSameResult);
  set(api::glClientWaitSync, Agreement::kWaitOutcome);
  return table;
}

// Filled before main (the registry's tables are constants): every replayed
// call asks, twice, so the common answer is one load.
const std::vector<SlotComparison> kComparisons = BuildTable();

Comparison DecidedByParameters(const stream::DecodedCall& call, ByParameter by) {
  switch (by) {
    // Which pnames hold what the app set (or the specification fixes as a
    // default), which every driver answers alike: the parameter table's
    // app-set rows, of the getter the call's query trait names; its limits
    // are the driver's own answers, compared on the recording driver only.
    // The rest (sizes a driver rounds up, info log lengths, active resources
    // a compiler may drop) are not compared.
    case ByParameter::kState:
      if (api::IsAppSet(api::kGetGet, call.args[0].u)) return {Agreement::kSameOutput, 1};
      return api::IsDriverLimit(call.args[0].u) ? Comparison{Agreement::kDriverAnswer, 1} : Comparison{};
    case ByParameter::kIndexedBinding:
      if (api::ObjectNamedBy(static_cast<uint32_t>(call.args[0].u)) != api::ObjectClass::kNone) {
        return {Agreement::kSameOutput, 2};
      }
      return api::IsDriverLimit(call.args[0].u) ? Comparison{Agreement::kDriverAnswer, 2} : Comparison{};
    case ByParameter::kObjectParameter:
      return api::IsAppSet(api::kTraits[call.slot].reveals, call.args[1].u) ? Comparison{Agreement::kSameOutput, 2}
                                                                             : Comparison{};
    case ByParameter::kQueryObject:
      return call.args[1].u == GL_QUERY_RESULT ? Comparison{Agreement::kQueryResult, 2} : Comparison{};
    case ByParameter::kNone:
      break;
  }
  return {};
}

}  // namespace

bool QueryResultIsExact(uint32_t target) {
  return target == GL_ANY_SAMPLES_PASSED || target == GL_PRIMITIVES_GENERATED ||
         target == GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN;
}

Comparison ComparisonOf(const stream::DecodedCall& call) {
  if (call.slot < 0) return {};
  const SlotComparison& entry = kComparisons[call.slot];
  if (entry.fixed.agreement != Agreement::kNone || entry.by_parameter == ByParameter::kNone) return entry.fixed;
  return DecidedByParameters(call, entry.by_parameter);
}

}  // namespace strata::replay
