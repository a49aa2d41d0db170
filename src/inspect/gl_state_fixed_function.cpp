// GLES 1.1's fixed-function state: what a GLES 1 context has instead of
// programs and generic vertex attributes.
#include "common/fixed_function_lists.h"
#include "inspect/gl_state_reader.h"
#include "strata/api/functions.h"

namespace strata::inspect {
namespace {

constexpr StateValue kValues[] = {
    STRATA_STATE_VALUE(GL_BLEND_SRC, 1, kBlendFactor),
    STRATA_STATE_VALUE(GL_BLEND_DST, 1, kBlendFactor),
    STRATA_STATE_VALUE(GL_ALPHA_TEST_FUNC, 1, kEnum),
    STRATA_STATE_VALUE(GL_ALPHA_TEST_REF, 1, kFloat),
    STRATA_STATE_VALUE(GL_LOGIC_OP_MODE, 1, kEnum),
    STRATA_STATE_VALUE(GL_SHADE_MODEL, 1, kEnum),
    STRATA_STATE_VALUE(GL_POINT_SIZE, 1, kFloat),
    STRATA_STATE_VALUE(GL_MATRIX_MODE, 1, kEnum),
    STRATA_STATE_VALUE(GL_MODELVIEW_MATRIX, 16, kFloat),
    STRATA_STATE_VALUE(GL_PROJECTION_MATRIX, 16, kFloat),
    STRATA_STATE_VALUE(GL_CURRENT_COLOR, 4, kFloat),
    STRATA_STATE_VALUE(GL_CURRENT_NORMAL, 3, kFloat),
    STRATA_STATE_VALUE(GL_LIGHT_MODEL_AMBIENT, 4, kFloat),
    STRATA_STATE_VALUE(GL_LIGHT_MODEL_TWO_SIDE, 1, kBool),
    STRATA_STATE_VALUE(GL_FOG_MODE, 1, kEnum),
    STRATA_STATE_VALUE(GL_FOG_DENSITY, 1, kFloat),
    STRATA_STATE_VALUE(GL_FOG_START, 1, kFloat),
    STRATA_STATE_VALUE(GL_FOG_END, 1, kFloat),
    STRATA_STATE_VALUE(GL_FOG_COLOR, 4, kFloat),
    STRATA_STATE_VALUE(GL_CLIENT_ACTIVE_TEXTURE, 1, kEnum),
    STRATA_STATE_VALUE(GL_ARRAY_BUFFER_BINDING, 1, kBuffer),
    STRATA_STATE_VALUE(GL_ELEMENT_ARRAY_BUFFER_BINDING, 1, kBuffer),
    STRATA_STATE_VALUE(GL_VERTEX_ARRAY_SIZE, 1, kInt),
    STRATA_STATE_VALUE(GL_VERTEX_ARRAY_TYPE, 1, kEnum),
    STRATA_STATE_VALUE(GL_VERTEX_ARRAY_STRIDE, 1, kInt),
    STRATA_STATE_VALUE(GL_VERTEX_ARRAY_BUFFER_BINDING, 1, kBuffer),
    STRATA_STATE_VALUE(GL_NORMAL_ARRAY_TYPE, 1, kEnum),
    STRATA_STATE_VALUE(GL_NORMAL_ARRAY_STRIDE, 1, kInt),
    STRATA_STATE_VALUE(GL_NORMAL_ARRAY_BUFFER_BINDING, 1, kBuffer),
    STRATA_STATE_VALUE(GL_COLOR_ARRAY_SIZE, 1, kInt),
    STRATA_STATE_VALUE(GL_COLOR_ARRAY_TYPE, 1, kEnum),
    STRATA_STATE_VALUE(GL_COLOR_ARRAY_STRIDE, 1, kInt),
    STRATA_STATE_VALUE(GL_COLOR_ARRAY_BUFFER_BINDING, 1, kBuffer),
};

// Per texture unit (glActiveTexture and glClientActiveTexture both set to it).
constexpr StateValue kUnitValues[] = {
    STRATA_STATE_VALUE(GL_TEXTURE_BINDING_2D, 1, kTexture),
    STRATA_STATE_VALUE(GL_TEXTURE_MATRIX, 16, kFloat),
    STRATA_STATE_VALUE(GL_CURRENT_TEXTURE_COORDS, 4, kFloat),
    STRATA_STATE_VALUE(GL_TEXTURE_COORD_ARRAY_SIZE, 1, kInt),
    STRATA_STATE_VALUE(GL_TEXTURE_COORD_ARRAY_TYPE, 1, kEnum),
    STRATA_STATE_VALUE(GL_TEXTURE_COORD_ARRAY_STRIDE, 1, kInt),
    STRATA_STATE_VALUE(GL_TEXTURE_COORD_ARRAY_BUFFER_BINDING, 1, kBuffer),
};
constexpr GLenum kUnitCapabilities[] = {GL_TEXTURE_2D, GL_TEXTURE_COORD_ARRAY};

void Floats(JsonWriter& json, const GLfloat* values, int count) {
  if (count > 1) json.BeginArray();
  for (int i = 0; i < count; ++i) json.Float(values[i]);
  if (count > 1) json.EndArray();
}

}  // namespace

void WriteFixedFunctionState(const host::HostDriver& driver, const GlFunctions& gl, JsonWriter& json,
                             const StreamNames& names) {
  auto light = driver.Get<decltype(&glGetLightfv)>(api::glGetLightfv);
  auto material = driver.Get<decltype(&glGetMaterialfv)>(api::glGetMaterialfv);
  auto env_i = driver.Get<decltype(&glGetTexEnviv)>(api::glGetTexEnviv);
  auto env_f = driver.Get<decltype(&glGetTexEnvfv)>(api::glGetTexEnvfv);
  auto client_active = driver.Get<decltype(&glClientActiveTexture)>(api::glClientActiveTexture);
  json.Key("capabilities").BeginObject();
  WriteCapabilities(gl, kFixedFunctionCapabilities, json);
  WriteCapabilities(gl, kClientArrays, json);
  json.EndObject();
  json.Key("values").BeginObject();
  WriteValues(gl, kSharedValues, json, names);
  WriteValues(gl, kValues, json, names);
  json.EndObject();

  json.Key("lights").BeginArray();
  const GLint lights = std::min(gl.Integer(GL_MAX_LIGHTS), 32);
  for (GLint i = 0; i < lights; ++i) {
    const GLenum name = GL_LIGHT0 + static_cast<GLenum>(i);
    json.BeginObject().Key("light").String(EnumText(name)).Key("enabled").Bool(gl.IsEnabled(name) != GL_FALSE);
    for (const FixedFunctionParameter& parameter : kLightParameters) {
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
    for (const FixedFunctionParameter& parameter : kMaterialParameters) {
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
  for (GLint unit = 0; unit < units; ++unit) {
    gl.ActiveTexture(GL_TEXTURE0 + static_cast<GLenum>(unit));
    client_active(GL_TEXTURE0 + static_cast<GLenum>(unit));
    // Units past the first that hold nothing are left out.
    if (unit > 0 && !gl.Integer(GL_TEXTURE_BINDING_2D) && !gl.IsEnabled(GL_TEXTURE_2D) &&
        !gl.IsEnabled(GL_TEXTURE_COORD_ARRAY)) {
      continue;
    }
    json.BeginObject().Key("unit").Int(unit);
    WriteCapabilities(gl, kUnitCapabilities, json);
    WriteValues(gl, kUnitValues, json, names);
    json.Key("environment").BeginObject();
    for (GLenum pname : kTextureEnvironmentEnums) {
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
