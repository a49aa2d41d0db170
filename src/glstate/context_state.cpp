#include "glstate/context_state.h"

#include <GLES/gl.h>
#include <GLES/glext.h>

#include <algorithm>
#include <cstdio>

#include "common/gl_queries.h"
#include "common/state_read_limits.h"
#include "strata/api/functions.h"

namespace strata::glstate {
namespace {

template <typename Pfn>
Pfn Get(const FunctionLookup& functions, api::Slot slot) {
  return reinterpret_cast<Pfn>(functions(slot));
}

// The driver's queries every part of the reading makes.
struct Queries {
  explicit Queries(const FunctionLookup& functions)
      : GetIntegerv(Get<PFNGLGETINTEGERVPROC>(functions, api::glGetIntegerv)),
        GetFloatv(Get<PFNGLGETFLOATVPROC>(functions, api::glGetFloatv)),
        GetBooleanv(Get<PFNGLGETBOOLEANVPROC>(functions, api::glGetBooleanv)),
        IsEnabled(Get<PFNGLISENABLEDPROC>(functions, api::glIsEnabled)),
        GetError(Get<PFNGLGETERRORPROC>(functions, api::glGetError)) {}
  GLint Integer(GLenum pname) const { return IntegerOf(GetIntegerv, pname); }
  void ClearErrors() const { DrainGlErrors(GetError); }
  PFNGLGETINTEGERVPROC GetIntegerv;
  PFNGLGETFLOATVPROC GetFloatv;
  PFNGLGETBOOLEANVPROC GetBooleanv;
  PFNGLISENABLEDPROC IsEnabled;
  PFNGLGETERRORPROC GetError;
};

bool InVersion(const api::Parameter& p, int version) { return p.since != 0 && p.since <= version; }

// The table's rows a context's `values` hold: GLES 2+'s of its version
// outside texture units, or GLES 1.1's.
bool ContextValue(const api::Parameter& p, int version) {
  if (p.getters & api::kGetEnabled) return false;
  if (version < 20) return p.gles1 && !(p.flags & api::kUnit);
  return InVersion(p, version) && !(p.names != api::ObjectClass::kNone && (p.flags & api::kUnit));
}

void ReadUnits(const FunctionLookup& functions, const Queries& gl, ContextState& state) {
  auto active_texture = Get<PFNGLACTIVETEXTUREPROC>(functions, api::glActiveTexture);
  const GLint units = std::min(gl.Integer(GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS), kMaxTextureUnitsRead);
  const GLint active = gl.Integer(GL_ACTIVE_TEXTURE);
  state.units.resize(static_cast<size_t>(std::max(units, 0)));
  for (GLint unit = 0; unit < units; ++unit) {
    TextureUnit& read = state.units[static_cast<size_t>(unit)];
    active_texture(GL_TEXTURE0 + static_cast<GLenum>(unit));
    for (const api::TargetBinding& target : api::kTextureTargets) {
      if (target.min_version > state.version) continue;
      gl.ClearErrors();
      const GLint texture = gl.Integer(target.binding);
      if (gl.GetError() == GL_NO_ERROR) read.textures.emplace_back(&target, static_cast<GLuint>(texture));
    }
    if (state.version >= 30) read.sampler = static_cast<GLuint>(gl.Integer(GL_SAMPLER_BINDING));
  }
  active_texture(static_cast<GLenum>(active));
}

// GLES 1.1's lights, material, clip planes and texture units.
void ReadFixedFunction(const FunctionLookup& functions, const Queries& gl, ContextState& state) {
  auto light = Get<decltype(&glGetLightfv)>(functions, api::glGetLightfv);
  auto material = Get<decltype(&glGetMaterialfv)>(functions, api::glGetMaterialfv);
  auto clip_plane = Get<decltype(&glGetClipPlanef)>(functions, api::glGetClipPlanef);
  auto env_i = Get<decltype(&glGetTexEnviv)>(functions, api::glGetTexEnviv);
  auto env_f = Get<decltype(&glGetTexEnvfv)>(functions, api::glGetTexEnvfv);
  auto active_texture = Get<PFNGLACTIVETEXTUREPROC>(functions, api::glActiveTexture);
  auto client_active = Get<decltype(&glClientActiveTexture)>(functions, api::glClientActiveTexture);
  auto floats = [](auto get, GLenum which, GLenum pname, int count) {
    std::vector<GLfloat> values(4, 0);
    get(which, pname, values.data());
    values.resize(static_cast<size_t>(count));
    return values;
  };
  const GLint lights = std::min(gl.Integer(GL_MAX_LIGHTS), 32);
  for (GLint i = 0; i < lights; ++i) {
    Light read;
    read.light = GL_LIGHT0 + static_cast<GLenum>(i);
    read.enabled = gl.IsEnabled(read.light) != GL_FALSE;
    for (const api::CountedParameter& parameter : api::kLightParameters) {
      read.values.push_back(floats(light, read.light, parameter.pname, parameter.count));
    }
    state.lights.push_back(std::move(read));
  }
  for (size_t face = 0; face < 2; ++face) {
    for (const api::CountedParameter& parameter : api::kMaterialParameters) {
      const GLenum side = face == 0 ? GL_FRONT : GL_BACK;
      state.material[face].push_back(floats(material, side, parameter.pname, parameter.count));
    }
  }
  const GLint planes = std::min(gl.Integer(GL_MAX_CLIP_PLANES), 6);
  for (GLint i = 0; i < planes; ++i) {
    std::array<GLfloat, 4> equation{};
    clip_plane(GL_CLIP_PLANE0 + static_cast<GLenum>(i), equation.data());
    state.clip_planes.push_back(equation);
  }
  // Per texture unit (glActiveTexture and glClientActiveTexture both set to it).
  const GLint active = gl.Integer(GL_ACTIVE_TEXTURE), client = gl.Integer(GL_CLIENT_ACTIVE_TEXTURE);
  const GLint units = std::min(gl.Integer(GL_MAX_TEXTURE_UNITS), 32);
  for (GLint unit = 0; unit < units; ++unit) {
    active_texture(GL_TEXTURE0 + static_cast<GLenum>(unit));
    client_active(GL_TEXTURE0 + static_cast<GLenum>(unit));
    FixedFunctionUnit read;
    read.capabilities = ReadCapabilities(functions, api::kUnitCapabilities);
    read.values = ReadValues(functions, [](const api::Parameter& p) {
      return p.gles1 && !(p.getters & api::kGetEnabled) && (p.flags & api::kUnit) != 0;
    });
    for (GLenum pname : api::kTextureEnvironmentEnums) {
      GLint value = 0;
      gl.ClearErrors();
      env_i(GL_TEXTURE_ENV, pname, &value);
      if (gl.GetError() == GL_NO_ERROR) read.environment.emplace_back(pname, value);
    }
    for (GLenum pname : api::kTextureEnvironmentFloats) {
      GLfloat value = 1;
      gl.ClearErrors();
      env_f(GL_TEXTURE_ENV, pname, &value);
      if (gl.GetError() == GL_NO_ERROR) read.environment_floats.emplace_back(pname, value);
    }
    env_f(GL_TEXTURE_ENV, GL_TEXTURE_ENV_COLOR, read.environment_color.data());
    gl.ClearErrors();
    env_i(GL_POINT_SPRITE_OES, GL_COORD_REPLACE_OES, &read.coord_replace);
    read.has_coord_replace = gl.GetError() == GL_NO_ERROR;
    state.fixed_function_units.push_back(std::move(read));
  }
  active_texture(static_cast<GLenum>(active));
  client_active(static_cast<GLenum>(client));
}

void ReadAttributes(const FunctionLookup& functions, const Queries& gl, ContextState& state) {
  auto get_i = Get<PFNGLGETVERTEXATTRIBIVPROC>(functions, api::glGetVertexAttribiv);
  auto get_f = Get<PFNGLGETVERTEXATTRIBFVPROC>(functions, api::glGetVertexAttribfv);
  auto get_pointer = Get<PFNGLGETVERTEXATTRIBPOINTERVPROC>(functions, api::glGetVertexAttribPointerv);
  const GLint count = std::min(gl.Integer(GL_MAX_VERTEX_ATTRIBS), kMaxVertexAttributesRead);
  for (GLint i = 0; i < count; ++i) {
    VertexAttribute attribute;
    attribute.array = ReadAttributeArray(get_i, get_pointer, static_cast<GLuint>(i), state.version >= 30);
    get_f(static_cast<GLuint>(i), GL_CURRENT_VERTEX_ATTRIB, attribute.current);
    state.attributes.push_back(attribute);
  }
}

void ReadActiveQueries(const FunctionLookup& functions, const Queries& gl, ContextState& state) {
  auto get_query = Get<PFNGLGETQUERYIVPROC>(functions, api::glGetQueryiv);
  for (GLenum target :
       {GL_ANY_SAMPLES_PASSED, GL_ANY_SAMPLES_PASSED_CONSERVATIVE, GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN}) {
    GLint query = 0;
    get_query(target, GL_CURRENT_QUERY, &query);
    if (query != 0) state.active_queries.emplace_back(target, static_cast<GLuint>(query));
  }
  GLboolean active = GL_FALSE;
  gl.GetBooleanv(GL_TRANSFORM_FEEDBACK_ACTIVE, &active);
  state.transform_feedback_active = active != GL_FALSE;
}

}  // namespace

const StateValue* FindValue(std::span<const StateValue> values, GLenum pname) {
  for (const StateValue& value : values) {
    if (value.parameter->pname == pname) return &value;
  }
  return nullptr;
}

const StateValue* ContextState::Find(GLenum pname) const { return FindValue(values, pname); }

bool FixedFunctionUnit::Enabled(GLenum capability) const {
  for (const auto& [known, enabled] : capabilities) {
    if (known == capability) return enabled;
  }
  return false;
}

GLint ContextState::Integer(GLenum pname) const {
  const StateValue* value = Find(pname);
  return value != nullptr && !value->ints.empty() ? value->ints[0] : 0;
}

GLfloat ContextState::Float(GLenum pname) const {
  const StateValue* value = Find(pname);
  return value != nullptr && !value->floats.empty() ? value->floats[0] : 0;
}

std::vector<GLint> ContextState::Integers(GLenum pname) const {
  const StateValue* value = Find(pname);
  if (value != nullptr && !value->ints.empty()) return value->ints;
  return std::vector<GLint>(value != nullptr && value->parameter->count > 1 ? value->parameter->count : 4, 0);
}

std::vector<GLfloat> ContextState::Floats(GLenum pname) const {
  const StateValue* value = Find(pname);
  if (value != nullptr && !value->floats.empty()) return value->floats;
  return std::vector<GLfloat>(value != nullptr && value->parameter->count > 1 ? value->parameter->count : 4, 0);
}

std::vector<std::pair<GLenum, bool>> ReadCapabilities(const FunctionLookup& functions,
                                                      std::span<const uint32_t> capabilities) {
  const Queries gl(functions);
  std::vector<std::pair<GLenum, bool>> read;
  for (GLenum capability : capabilities) {
    gl.ClearErrors();
    const bool enabled = gl.IsEnabled(capability) != GL_FALSE;
    if (gl.GetError() == GL_NO_ERROR) read.emplace_back(capability, enabled);
  }
  return read;
}

std::vector<StateValue> ReadValues(const FunctionLookup& functions,
                                   const std::function<bool(const api::Parameter&)>& wanted) {
  const Queries gl(functions);
  std::vector<StateValue> values;
  for (const api::Parameter& parameter : api::kParameters) {
    if (!(parameter.flags & api::kState) || !(parameter.getters & api::kGetGet) || !wanted(parameter)) continue;
    const size_t count = parameter.count != 0 ? parameter.count : 1;
    // Room past the count: a driver that answers more values than the table says writes no further.
    StateValue value{&parameter, {}, {}};
    gl.ClearErrors();
    if (parameter.type == api::ValueType::kFloat) {
      value.floats.assign(count + 4, 0);
      gl.GetFloatv(parameter.pname, value.floats.data());
      value.floats.resize(count);
    } else if (parameter.type == api::ValueType::kBool) {
      std::vector<GLboolean> bools(count + 4, 0);
      gl.GetBooleanv(parameter.pname, bools.data());
      value.ints.assign(bools.begin(), bools.begin() + static_cast<std::ptrdiff_t>(count));
    } else {
      value.ints.assign(count + 4, 0);
      gl.GetIntegerv(parameter.pname, value.ints.data());
      value.ints.resize(count);
    }
    if (gl.GetError() != GL_NO_ERROR) continue;  // not a state of this context (an extension's)
    values.push_back(std::move(value));
  }
  return values;
}

IndexedTargetBindings ReadIndexedBindings(const FunctionLookup& functions, const api::IndexedBufferTarget& target) {
  const Queries gl(functions);
  auto get_i = Get<PFNGLGETINTEGERI_VPROC>(functions, api::glGetIntegeri_v);
  auto get_64 = Get<PFNGLGETINTEGER64I_VPROC>(functions, api::glGetInteger64i_v);
  IndexedTargetBindings bindings{&target, {}};
  if (get_i == nullptr || get_64 == nullptr) return bindings;
  const GLint count = std::min(gl.Integer(target.max_count), kMaxIndexedBindingsRead);
  for (GLint i = 0; i < count; ++i) {
    IndexedBinding bound;
    bound.index = static_cast<GLuint>(i);
    GLint buffer = 0;
    get_i(target.binding, bound.index, &buffer);
    if (buffer == 0) continue;
    bound.buffer = static_cast<GLuint>(buffer);
    // 64-bit: a range's start and size are GLintptr and GLsizeiptr.
    get_64(target.start, bound.index, &bound.start);
    get_64(target.size, bound.index, &bound.size);
    bindings.bound.push_back(bound);
  }
  return bindings;
}

int HostVersion(const FunctionLookup& functions) {
  auto get_string = Get<PFNGLGETSTRINGPROC>(functions, api::glGetString);
  const char* text = reinterpret_cast<const char*>(get_string(GL_VERSION));
  int major = 2, minor = 0;
  if (text != nullptr) std::sscanf(text, "OpenGL ES %d.%d", &major, &minor);
  return major * 10 + minor;
}

ContextState ReadContextState(const FunctionLookup& functions, int version) {
  const Queries gl(functions);
  ContextState state;
  state.version = version;
  gl.ClearErrors();
  if (version < 20) {
    state.capabilities = ReadCapabilities(functions, api::kFixedFunctionCapabilities);
    for (const auto& array : ReadCapabilities(functions, api::kClientArrays)) state.capabilities.push_back(array);
  } else {
    std::vector<uint32_t> capabilities;
    for (const api::VersionedEnum& capability : api::kCapabilities) {
      if (capability.min_version <= version) capabilities.push_back(capability.value);
    }
    state.capabilities = ReadCapabilities(functions, capabilities);
  }
  state.values = ReadValues(functions, [version](const api::Parameter& p) { return ContextValue(p, version); });
  if (version < 20) {
    ReadFixedFunction(functions, gl, state);
  } else {
    for (const api::IndexedBufferTarget& target : api::kIndexedBufferTargets) {
      if (target.min_version <= version) state.indexed.push_back(ReadIndexedBindings(functions, target));
    }
    ReadUnits(functions, gl, state);
    if (version >= 30) ReadActiveQueries(functions, gl, state);
    ReadAttributes(functions, gl, state);
  }
  gl.ClearErrors();
  return state;
}

}  // namespace strata::glstate
