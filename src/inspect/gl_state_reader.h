#pragma once
// What gl_state.cpp and gl_state_fixed_function.cpp share: the host
// driver's query functions, and writing lists of state values by their
// registry names (table-driven: a value is its pname, count and kind).

#include <GLES/gl.h>
#include <GLES3/gl32.h>

#include <functional>
#include <span>
#include <string>

#include "common/gl_queries.h"
#include "common/json_writer.h"
#include "host/host_driver.h"
#include "strata/api/replay.h"

namespace strata::inspect {

struct GlFunctions {
  explicit GlFunctions(const host::HostDriver& driver);
  PFNGLGETINTEGERVPROC GetIntegerv;
  PFNGLGETFLOATVPROC GetFloatv;
  PFNGLGETBOOLEANVPROC GetBooleanv;
  PFNGLISENABLEDPROC IsEnabled;
  PFNGLGETERRORPROC GetError;
  PFNGLACTIVETEXTUREPROC ActiveTexture;
  PFNGLGETSTRINGPROC GetString;
  // Missing from a GLES 1 driver; null there.
  PFNGLGETINTEGERI_VPROC GetIntegeri_v;

  GLint Integer(GLenum pname) const { return IntegerOf(GetIntegerv, pname); }
  // Drains the error flags: what a query raised must not read as the next one's.
  void ClearErrors() const { DrainGlErrors(GetError); }
};

// kBlendFactor: an enum whose GL_ZERO and GL_ONE (0 and 1) are names too.
// kBuffer, kTexture: an object name, written as the trace names it.
enum class ValueKind { kInt, kFloat, kBool, kEnum, kBlendFactor, kBuffer, kTexture };
struct StateValue {
  GLenum pname;
  const char* name;  // as the registry spells it: aliases share a value
  int count;
  ValueKind kind;
};
// A table row: the pname and its name spelled once.
#define STRATA_STATE_VALUE(pname, count, kind) \
  { pname, #pname, count, ValueKind::kind }

// The values GLES 1.1 and 2+ share: viewport, scissor, depth, stencil (front),
// cull, masks, clear values, line width, polygon offset, pack/unpack alignment.
extern const std::span<const StateValue> kSharedValues;

// A GL token's registry name, or its number in hex.
std::string EnumText(GLenum value);
// A value of gl.xml's group `group` ("BlendingFactor"), by its name there.
std::string EnumTextInGroup(const char* group, GLenum value);
// A host object name as the trace names it.
using StreamNames = std::function<uint64_t(api::ObjectClass object, GLuint host)>;
// "name": value (or [values]) for each, read with glGet*v; one that raises an error is left out.
void WriteValues(const GlFunctions& gl, std::span<const StateValue> values, JsonWriter& json,
                 const StreamNames& names);
// "name": enabled for each capability.
void WriteCapabilities(const GlFunctions& gl, std::span<const GLenum> capabilities, JsonWriter& json);

// GLES 1.1 contexts: matrices, lights, material, texture environments, fog,
// client arrays (gl_state_fixed_function.cpp).
void WriteFixedFunctionState(const host::HostDriver& driver, const GlFunctions& gl, JsonWriter& json,
                             const StreamNames& names);

}  // namespace strata::inspect
