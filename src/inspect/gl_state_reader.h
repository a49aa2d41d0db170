#pragma once
// What gl_state.cpp and gl_state_fixed_function.cpp share: the host
// driver's query functions, and writing the state glstate/context_state.h
// read by the registry's names, as the parameter table
// (strata/api/parameters.h) describes it.

#include <GLES/gl.h>
#include <GLES3/gl32.h>

#include <functional>
#include <span>
#include <string>
#include <vector>

#include "common/gl_queries.h"
#include "common/json_writer.h"
#include "glstate/context_state.h"
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

  GLint Integer(GLenum pname) const { return IntegerOf(GetIntegerv, pname); }
  // Drains the error flags: what a query raised must not read as the next one's.
  void ClearErrors() const { DrainGlErrors(GetError); }
};

// The host driver's functions as glstate reads them.
glstate::FunctionLookup Lookup(const host::HostDriver& driver);

// A GL token's registry name, or its number in hex.
std::string EnumText(GLenum value);
// A value of gl.xml's group `group` ("BlendingFactor"), by its name there.
std::string EnumTextInGroup(const char* group, GLenum value);
// A host object name as the trace names it.
using StreamNames = std::function<uint64_t(api::ObjectClass object, GLuint host)>;
// "name": value (or [values]) for each. Object names as the trace names
// them, enums by name (in their group where the table says one).
void WriteValues(std::span<const glstate::StateValue> values, JsonWriter& json, const StreamNames& names);
// "name": one value of `parameter` as its type says.
void WriteValue(const api::Parameter& parameter, GLint integer, GLfloat real, JsonWriter& json,
                const StreamNames& names);
// "name": enabled for each capability.
void WriteCapabilities(std::span<const std::pair<GLenum, bool>> capabilities, JsonWriter& json);

// GLES 1.1 contexts: capabilities, values, lights, material and texture
// units (gl_state_fixed_function.cpp).
void WriteFixedFunctionState(const glstate::ContextState& state, JsonWriter& json, const StreamNames& names);

}  // namespace strata::inspect
