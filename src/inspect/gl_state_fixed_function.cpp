// GLES 1.1's fixed-function state: what a GLES 1 context has instead of
// programs and generic vertex attributes.
#include "inspect/gl_state_reader.h"
#include "strata/api/functions.h"

namespace strata::inspect {
namespace {

// GLES 1.1's state values per texture unit (glActiveTexture and
// glClientActiveTexture both set to it).
bool UnitValue(const api::Parameter& p) {
  return p.gles1 && !(p.getters & api::kGetEnabled) && (p.flags & api::kUnit) != 0;
}

void Floats(JsonWriter& json, const GLfloat* values, int count) {
  if (count > 1) json.BeginArray();
  for (int i = 0; i < count; ++i) json.Float(values[i]);
  if (count > 1) json.EndArray();
}

}  // namespace

void WriteFixedFunctionState(const host::HostDriver& driver, const GlFunctions& gl,
                             const glstate::ContextState& state, JsonWriter& json, const StreamNames& names) {
  auto light = driver.Get<decltype(&glGetLightfv)>(api::glGetLightfv);
  auto material = driver.Get<decltype(&glGetMaterialfv)>(api::glGetMaterialfv);
  auto env_i = driver.Get<decltype(&glGetTexEnviv)>(api::glGetTexEnviv);
  auto env_f = driver.Get<decltype(&glGetTexEnvfv)>(api::glGetTexEnvfv);
  auto client_active = driver.Get<decltype(&glClientActiveTexture)>(api::glClientActiveTexture);
  json.Key("capabilities").BeginObject();
  WriteCapabilities(state.capabilities, json);
  json.EndObject();
  json.Key("values").BeginObject();
  WriteValues(state.values, json, names);
  json.EndObject();

  json.Key("lights").BeginArray();
  const GLint lights = std::min(gl.Integer(GL_MAX_LIGHTS), 32);
  for (GLint i = 0; i < lights; ++i) {
    const GLenum name = GL_LIGHT0 + static_cast<GLenum>(i);
    json.BeginObject().Key("light").String(EnumText(name)).Key("enabled").Bool(gl.IsEnabled(name) != GL_FALSE);
    for (const api::CountedParameter& parameter : api::kLightParameters) {
      GLfloat values[4] = {};
      light(name, parameter.pname, values);
      json.Key(EnumText(parameter.pname));
      Floats(json, values, parameter.count);
    }
    json.EndObject();
  }
  json.EndArray();

  json.Key("material").BeginObject();
  for (GLenum face : {GL_FRONT, GL_BACK}) {
    json.Key(EnumText(face)).BeginObject();
    for (const api::CountedParameter& parameter : api::kMaterialParameters) {
      GLfloat values[4] = {};
      material(face, parameter.pname, values);
      json.Key(EnumText(parameter.pname));
      Floats(json, values, parameter.count);
    }
    json.EndObject();
  }
  json.EndObject();

  // Per texture unit: its texture, matrix, coordinates array and environment.
  const GLint active = gl.Integer(GL_ACTIVE_TEXTURE), client = gl.Integer(GL_CLIENT_ACTIVE_TEXTURE);
  const GLint units = std::min(gl.Integer(GL_MAX_TEXTURE_UNITS), 32);
  json.Key("texture_units").BeginArray();
  const glstate::FunctionLookup functions = Lookup(driver);
  for (GLint unit = 0; unit < units; ++unit) {
    gl.ActiveTexture(GL_TEXTURE0 + static_cast<GLenum>(unit));
    client_active(GL_TEXTURE0 + static_cast<GLenum>(unit));
    // Units past the first that hold nothing are left out.
    if (unit > 0 && !gl.Integer(GL_TEXTURE_BINDING_2D) && !gl.IsEnabled(GL_TEXTURE_2D) &&
        !gl.IsEnabled(GL_TEXTURE_COORD_ARRAY)) {
      continue;
    }
    json.BeginObject().Key("unit").Int(unit);
    WriteCapabilities(glstate::ReadCapabilities(functions, api::kUnitCapabilities), json);
    WriteValues(glstate::ReadValues(functions, UnitValue), json, names);
    json.Key("environment").BeginObject();
    for (GLenum pname : api::kTextureEnvironmentEnums) {
      GLint value = 0;
      gl.ClearErrors();
      env_i(GL_TEXTURE_ENV, pname, &value);
      if (gl.GetError() == GL_NO_ERROR) json.Key(EnumText(pname)).String(EnumText(static_cast<GLenum>(value)));
    }
    GLfloat color[4] = {};
    env_f(GL_TEXTURE_ENV, GL_TEXTURE_ENV_COLOR, color);
    json.Key("GL_TEXTURE_ENV_COLOR");
    Floats(json, color, 4);
    json.EndObject().EndObject();
  }
  json.EndArray();
  gl.ActiveTexture(static_cast<GLenum>(active));
  client_active(static_cast<GLenum>(client));
}

}  // namespace strata::inspect
