#pragma once
// What gl_state.cpp and gl_state_fixed_function.cpp share: the host
// driver's query functions, and writing state values by their registry
// names, as the parameter table (strata/api/parameters.h) describes them.

#include <GLES/gl.h>
#include <GLES3/gl32.h>

#include <functional>
#include <span>
#include <string>
#include <vector>

#include "common/gl_queries.h"
#include "common/json_writer.h"
#include "host/host_driver.h"
#include "strata/api/parameters.h"
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

// The rows of the parameter table (api/parameters.txt) a reader writes:
// those marked state, taken by glGet*v, that `wanted` keeps, in the table's order.
std::vector<const api::Parameter*> StateValues(const std::function<bool(const api::Parameter&)>& wanted);

// A GL token's registry name, or its number in hex.
std::string EnumText(GLenum value);
// A value of gl.xml's group `group` ("BlendingFactor"), by its name there.
std::string EnumTextInGroup(const char* group, GLenum value);
// A host object name as the trace names it.
using StreamNames = std::function<uint64_t(api::ObjectClass object, GLuint host)>;
// "name": value (or [values]) for each, read with glGet*v; one that raises
// an error is left out. Object names as the trace names them, enums by
// name (in their group where the table says one).
void WriteValues(const GlFunctions& gl, std::span<const api::Parameter* const> values, JsonWriter& json,
                 const StreamNames& names);
// "name": one value of `parameter` as its type says.
void WriteValue(const api::Parameter& parameter, GLint integer, GLfloat real, JsonWriter& json,
                const StreamNames& names);
// "name": enabled for each capability.
void WriteCapabilities(const GlFunctions& gl, std::span<const uint32_t> capabilities, JsonWriter& json);

// GLES 1.1 contexts: matrices, lights, material, texture environments, fog,
// client arrays (gl_state_fixed_function.cpp).
void WriteFixedFunctionState(const host::HostDriver& driver, const GlFunctions& gl, JsonWriter& json,
                             const StreamNames& names);

}  // namespace strata::inspect
