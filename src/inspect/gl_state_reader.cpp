#include "inspect/gl_state_reader.h"

#include <cstdio>
#include <cstring>
#include <vector>

#include "stream/call_printer.h"
#include "strata/api/functions.h"

namespace strata::inspect {

GlFunctions::GlFunctions(const host::HostDriver& driver)
    : GetIntegerv(driver.Get<PFNGLGETINTEGERVPROC>(api::glGetIntegerv)),
      GetFloatv(driver.Get<PFNGLGETFLOATVPROC>(api::glGetFloatv)),
      GetBooleanv(driver.Get<PFNGLGETBOOLEANVPROC>(api::glGetBooleanv)),
      IsEnabled(driver.Get<PFNGLISENABLEDPROC>(api::glIsEnabled)),
      GetError(driver.Get<PFNGLGETERRORPROC>(api::glGetError)),
      ActiveTexture(driver.Get<PFNGLACTIVETEXTUREPROC>(api::glActiveTexture)),
      GetString(driver.Get<PFNGLGETSTRINGPROC>(api::glGetString)),
      GetIntegeri_v(driver.Get<PFNGLGETINTEGERI_VPROC>(api::glGetIntegeri_v)) {}

std::vector<const api::Parameter*> StateValues(const std::function<bool(const api::Parameter&)>& wanted) {
  std::vector<const api::Parameter*> values;
  for (const api::Parameter& parameter : api::kParameters) {
    if ((parameter.flags & api::kState) && (parameter.getters & api::kGetGet) && wanted(parameter)) {
      values.push_back(&parameter);
    }
  }
  return values;
}

std::string EnumText(GLenum value) {
  // As state, 0 is "none" (GL_TEXTURE_COMPARE_MODE, GL_READ_BUFFER of no buffer).
  return value == 0 ? "GL_NONE" : stream::GlEnumText(value);
}

std::string EnumTextInGroup(const char* group, GLenum value) {
  for (uint16_t g = 0; g < api::kEnumGroupCount; ++g) {
    if (std::strcmp(api::kEnumGroups[g].name, group) != 0) continue;
    if (const char* name = api::EnumNameInGroup(g, value)) return name;
  }
  return EnumText(value);
}

void WriteValue(const api::Parameter& parameter, GLint integer, GLfloat real, JsonWriter& json,
                const StreamNames& names) {
  switch (parameter.type) {
    case api::ValueType::kFloat: json.Float(real); return;
    case api::ValueType::kBool: json.Bool(integer != GL_FALSE); return;
    case api::ValueType::kEnum:
      json.String(parameter.group != nullptr ? EnumTextInGroup(parameter.group, static_cast<GLenum>(integer))
                                             : EnumText(static_cast<GLenum>(integer)));
      return;
    case api::ValueType::kInt:
    case api::ValueType::kInt64:
      if (parameter.names != api::ObjectClass::kNone) {
        json.UInt(names(parameter.names, static_cast<GLuint>(integer)));
      } else {
        json.Int(integer);
      }
      return;
  }
}

void WriteValues(const GlFunctions& gl, std::span<const api::Parameter* const> values, JsonWriter& json,
                 const StreamNames& names) {
  for (const api::Parameter* value : values) {
    const int count = value->count != 0 ? value->count : 1;
    gl.ClearErrors();
    std::vector<GLint> ints(static_cast<size_t>(count) + 4, 0);
    std::vector<GLfloat> floats(static_cast<size_t>(count) + 4, 0);
    std::vector<GLboolean> bools(static_cast<size_t>(count) + 4, 0);
    switch (value->type) {
      case api::ValueType::kFloat: gl.GetFloatv(value->pname, floats.data()); break;
      case api::ValueType::kBool: gl.GetBooleanv(value->pname, bools.data()); break;
      default: gl.GetIntegerv(value->pname, ints.data()); break;
    }
    if (gl.GetError() != GL_NO_ERROR) continue;  // not a state of this context (an extension's)
    json.Key(value->name);
    if (count > 1) json.BeginArray();
    for (int i = 0; i < count; ++i) {
      WriteValue(*value, value->type == api::ValueType::kBool ? bools[i] : ints[i], floats[i], json, names);
    }
    if (count > 1) json.EndArray();
  }
}

void WriteCapabilities(const GlFunctions& gl, std::span<const uint32_t> capabilities, JsonWriter& json) {
  for (GLenum capability : capabilities) {
    gl.ClearErrors();
    const bool enabled = gl.IsEnabled(capability) != GL_FALSE;
    if (gl.GetError() != GL_NO_ERROR) continue;
    json.Key(EnumText(capability)).Bool(enabled);
  }
}

}  // namespace strata::inspect
