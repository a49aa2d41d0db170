#include "replay/compared_calls.h"

#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

#include <cstring>
#include <vector>

#include "common/pixel_store.h"
#include "host/bound_objects.h"
#include "strata/api/functions.h"
#include "strata/api/traits.h"

namespace strata::replay {
namespace {

using api::ArgKind;

// glGet{Boolean,Integer,Integer64,Float}v pnames whose value the app set (or
// the spec fixes as a default): every driver answers the same.
bool IsAppSetState(uint64_t pname) {
  if (host::ObjectBoundAt(pname) != api::ObjectClass::kNone || IsPixelStoreParameter(static_cast<GLenum>(pname))) {
    return true;
  }
  switch (pname) {
    case GL_ACTIVE_TEXTURE:
    case GL_VIEWPORT:
    case GL_SCISSOR_BOX:
    case GL_COLOR_CLEAR_VALUE:
    case GL_DEPTH_CLEAR_VALUE:
    case GL_STENCIL_CLEAR_VALUE:
    case GL_BLEND_SRC_RGB:
    case GL_BLEND_DST_RGB:
    case GL_BLEND_SRC_ALPHA:
    case GL_BLEND_DST_ALPHA:
    case GL_BLEND_EQUATION_RGB:
    case GL_BLEND_EQUATION_ALPHA:
    case GL_BLEND_COLOR:
    case GL_DEPTH_FUNC:
    case GL_DEPTH_RANGE:
    case GL_DEPTH_WRITEMASK:
    case GL_COLOR_WRITEMASK:
    case GL_CULL_FACE_MODE:
    case GL_FRONT_FACE:
    case GL_LINE_WIDTH:
    case GL_POLYGON_OFFSET_FACTOR:
    case GL_POLYGON_OFFSET_UNITS:
    case GL_SAMPLE_COVERAGE_VALUE:
    case GL_SAMPLE_COVERAGE_INVERT:
    case GL_STENCIL_FUNC:
    case GL_STENCIL_REF:
    case GL_STENCIL_FAIL:
    case GL_STENCIL_PASS_DEPTH_FAIL:
    case GL_STENCIL_PASS_DEPTH_PASS:
    case GL_STENCIL_BACK_FUNC:
    case GL_STENCIL_BACK_REF:
    case GL_STENCIL_BACK_FAIL:
    case GL_STENCIL_BACK_PASS_DEPTH_FAIL:
    case GL_STENCIL_BACK_PASS_DEPTH_PASS:
    case GL_GENERATE_MIPMAP_HINT:
    case GL_FRAGMENT_SHADER_DERIVATIVE_HINT:
    case GL_BLEND:
    case GL_CULL_FACE:
    case GL_DEPTH_TEST:
    case GL_DITHER:
    case GL_POLYGON_OFFSET_FILL:
    case GL_SAMPLE_ALPHA_TO_COVERAGE:
    case GL_SAMPLE_COVERAGE:
    case GL_SCISSOR_TEST:
    case GL_STENCIL_TEST:
    case GL_RASTERIZER_DISCARD:
    case GL_PRIMITIVE_RESTART_FIXED_INDEX:
    case GL_TRANSFORM_FEEDBACK_ACTIVE:
    case GL_TRANSFORM_FEEDBACK_PAUSED:
      return true;
    default:
      return false;
  }
}

// Limits and formats: the driver's own answers to glGet*v (GL_MAX_* and
// GL_MIN_* but for the app's GL_MIN_SAMPLE_SHADING_VALUE, and these).
bool IsDriverLimit(uint64_t pname) {
  switch (pname) {
    case GL_MIN_SAMPLE_SHADING_VALUE:
      return false;
    case GL_ALIASED_LINE_WIDTH_RANGE:
    case GL_ALIASED_POINT_SIZE_RANGE:
    case GL_MULTISAMPLE_LINE_WIDTH_RANGE:
    case GL_MULTISAMPLE_LINE_WIDTH_GRANULARITY:
    case GL_SUBPIXEL_BITS:
    case GL_MAJOR_VERSION:
    case GL_MINOR_VERSION:
    case GL_NUM_EXTENSIONS:
    case GL_NUM_COMPRESSED_TEXTURE_FORMATS:
    case GL_COMPRESSED_TEXTURE_FORMATS:
    case GL_NUM_SHADER_BINARY_FORMATS:
    case GL_SHADER_BINARY_FORMATS:
    case GL_NUM_PROGRAM_BINARY_FORMATS:
    case GL_PROGRAM_BINARY_FORMATS:
    case GL_SHADER_COMPILER:
    case GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT:
    case GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT:
    case GL_TEXTURE_BUFFER_OFFSET_ALIGNMENT:
    case GL_FRAGMENT_INTERPOLATION_OFFSET_BITS:
    case GL_LAYER_PROVOKING_VERTEX:
    case GL_PRIMITIVE_RESTART_FOR_PATCHES_SUPPORTED:
      return true;
    default: {
      const char* name = api::GlEnumName(static_cast<uint32_t>(pname));
      return name != nullptr && (std::strncmp(name, "GL_MAX_", 7) == 0 || std::strncmp(name, "GL_MIN_", 7) == 0);
    }
  }
}

// Object parameters the app set; the rest (sizes of components, samples a
// driver rounds up, info log lengths, active resources a compiler may drop)
// are the driver's.
bool IsAppSetObjectParameter(int slot, uint64_t pname) {
  switch (api::CoreOf(slot)) {
    case api::glGetShaderiv:
      return pname == GL_COMPILE_STATUS || pname == GL_SHADER_TYPE || pname == GL_DELETE_STATUS;
    case api::glGetProgramiv:
      return pname == GL_LINK_STATUS || pname == GL_DELETE_STATUS || pname == GL_ATTACHED_SHADERS;
    case api::glGetBufferParameteriv:
    case api::glGetBufferParameteri64v:
      return true;  // size, usage, access, mapped, map range: all the app's
    case api::glGetTexParameteriv:
    case api::glGetTexParameterfv:
      return pname != GL_TEXTURE_IMMUTABLE_LEVELS;  // filters, wraps, LOD, swizzle, compare: the app's
    case api::glGetRenderbufferParameteriv:
      return pname == GL_RENDERBUFFER_WIDTH || pname == GL_RENDERBUFFER_HEIGHT;
    case api::glGetVertexAttribiv:
      return true;  // enabled, size, type, stride, divisor, buffer: as the app set them
    default:
      return false;
  }
}

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
    Agreement& agreement = table[slot].fixed.agreement;
    if (info.is_egl) {
      // Success agrees: a display, config, context or surface made, made
      // current or destroyed on both sides. Not the strings or config lists.
      if (info.return_kind == ArgKind::kBoolean || info.return_kind == ArgKind::kHandle) agreement = Agreement::kSuccess;
    } else if (api::kTraits[slot].query == api::QueryKind::kIsObject) {
      agreement = Agreement::kSameResult;
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
  // Strings, extension lists, precisions and sample counts: the driver's own.
  for (api::Slot driver_answer : {api::glGetString, api::glGetStringi, api::glGetShaderPrecisionFormat,
                                  api::glGetInternalformativ}) {
    set(driver_answer, Agreement::kDriverAnswer);
  }
  for (api::Slot made : {api::glCreateProgram, api::glCreateShader, api::glCreateShaderProgramv, api::glFenceSync,
                         api::glMapBufferRange, api::glMapBufferOES, api::glUnmapBuffer}) {
    set(made, Agreement::kSuccess);
  }
  return table;
}

// Filled before main (the registry's tables are constants): every replayed
// call asks, twice, so the common answer is one load.
const std::vector<SlotComparison> kComparisons = BuildTable();

Comparison DecidedByParameters(const stream::DecodedCall& call, ByParameter by) {
  switch (by) {
    case ByParameter::kState:
      if (IsAppSetState(call.args[0].u)) return {Agreement::kSameOutput, 1};
      return IsDriverLimit(call.args[0].u) ? Comparison{Agreement::kDriverAnswer, 1} : Comparison{};
    case ByParameter::kIndexedBinding:
      if (host::ObjectBoundAt(call.args[0].u) != api::ObjectClass::kNone) return {Agreement::kSameOutput, 2};
      return IsDriverLimit(call.args[0].u) ? Comparison{Agreement::kDriverAnswer, 2} : Comparison{};
    case ByParameter::kObjectParameter:
      return IsAppSetObjectParameter(call.slot, call.args[1].u) ? Comparison{Agreement::kSameOutput, 2} : Comparison{};
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
