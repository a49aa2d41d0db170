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
      GetString(driver.Get<PFNGLGETSTRINGPROC>(api::glGetString)) {}

glstate::FunctionLookup Lookup(const host::HostDriver& driver) {
  return [&driver](api::Slot slot) { return driver.Function(slot); };
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
    case api::ValueType::kUByte:
      if (parameter.names != api::ObjectClass::kNone) {
        json.UInt(names(parameter.names, static_cast<GLuint>(integer)));
      } else {
        json.Int(integer);
      }
      return;
  }
}

void WriteValues(std::span<const glstate::StateValue> values, JsonWriter& json, const StreamNames& names) {
  for (const glstate::StateValue& value : values) {
    const api::Parameter& parameter = *value.parameter;
    const bool floats = parameter.type == api::ValueType::kFloat;
    const size_t count = floats ? value.floats.size() : value.ints.size();
    json.Key(parameter.name);
    if (count > 1) json.BeginArray();
    for (size_t i = 0; i < count; ++i) {
      WriteValue(parameter, floats ? 0 : value.ints[i], floats ? value.floats[i] : 0, json, names);
    }
    if (count > 1) json.EndArray();
  }
}

void WriteCapabilities(std::span<const std::pair<GLenum, bool>> capabilities, JsonWriter& json) {
  for (const auto& [capability, enabled] : capabilities) json.Key(EnumText(capability)).Bool(enabled);
}

}  // namespace strata::inspect
