// GLES 1.1's fixed-function state: what a GLES 1 context has instead of
// programs and generic vertex attributes, as glstate/context_state.h read it.
#include "inspect/gl_state_reader.h"

namespace strata::inspect {
namespace {

void Floats(JsonWriter& json, const GLfloat* values, size_t count) {
  if (count > 1) json.BeginArray();
  for (size_t i = 0; i < count; ++i) json.Float(values[i]);
  if (count > 1) json.EndArray();
}

}  // namespace

void WriteFixedFunctionState(const glstate::ContextState& state, JsonWriter& json, const StreamNames& names) {
  json.Key("capabilities").BeginObject();
  WriteCapabilities(state.capabilities, json);
  json.EndObject();
  json.Key("values").BeginObject();
  WriteValues(state.values, json, names);
  json.EndObject();

  json.Key("lights").BeginArray();
  for (const glstate::Light& light : state.lights) {
    json.BeginObject().Key("light").String(EnumText(light.light)).Key("enabled").Bool(light.enabled);
    for (size_t i = 0; i < light.values.size(); ++i) {
      json.Key(EnumText(api::kLightParameters[i].pname));
      Floats(json, light.values[i].data(), light.values[i].size());
    }
    json.EndObject();
  }
  json.EndArray();

  json.Key("material").BeginObject();
  for (size_t face = 0; face < state.material.size(); ++face) {
    json.Key(EnumText(face == 0 ? GL_FRONT : GL_BACK)).BeginObject();
    for (size_t i = 0; i < state.material[face].size(); ++i) {
      json.Key(EnumText(api::kMaterialParameters[i].pname));
      Floats(json, state.material[face][i].data(), state.material[face][i].size());
    }
    json.EndObject();
  }
  json.EndObject();

  // Per texture unit: its texture, matrix, coordinates array and environment.
  json.Key("texture_units").BeginArray();
  for (size_t unit = 0; unit < state.fixed_function_units.size(); ++unit) {
    const glstate::FixedFunctionUnit& read = state.fixed_function_units[unit];
    // Units past the first that hold nothing are left out.
    const glstate::StateValue* texture = glstate::FindValue(read.values, GL_TEXTURE_BINDING_2D);
    if (unit > 0 && (texture == nullptr || texture->ints[0] == 0) && !read.Enabled(GL_TEXTURE_2D) &&
        !read.Enabled(GL_TEXTURE_COORD_ARRAY)) {
      continue;
    }
    json.BeginObject().Key("unit").Int(static_cast<int64_t>(unit));
    WriteCapabilities(read.capabilities, json);
    WriteValues(read.values, json, names);
    json.Key("environment").BeginObject();
    for (const auto& [pname, value] : read.environment) {
      json.Key(EnumText(pname)).String(EnumText(static_cast<GLenum>(value)));
    }
    for (const auto& [pname, value] : read.environment_floats) json.Key(EnumText(pname)).Float(value);
    if (read.has_coord_replace) json.Key("GL_COORD_REPLACE_OES").Bool(read.coord_replace != 0);
    json.Key("GL_TEXTURE_ENV_COLOR");
    Floats(json, read.environment_color.data(), 4);
    json.EndObject().EndObject();
  }
  json.EndArray();
}

}  // namespace strata::inspect
