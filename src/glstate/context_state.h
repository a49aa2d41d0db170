#pragma once
// A GLES context's own state, read from a live driver into plain data:
// capabilities, every value of the parameter table (strata/api/parameters.h)
// a context of its kind has (fixed-function values, pixel store, hints,
// blend/depth/stencil, bindings outside texture units), indexed buffer
// bindings, each texture unit's textures and sampler, the queries in
// progress, and the bound vertex array object's attribute arrays with the
// attributes' current values. Object names are the driver's; a reader maps
// them to the stream's. `strata state` prints it (inspect/gl_state.cpp), a
// snapshot turns it into calls (snapshot/context_snapshot.cpp). The contents
// of objects (a texture's images, a program's uniforms) are not in it.

#include <GLES3/gl32.h>

#include <array>
#include <functional>
#include <span>
#include <vector>

#include "glstate/attribute_array.h"
#include "strata/api/parameters.h"

namespace strata::glstate {

// The driver's function for a registry slot (null when it has none), with
// the context to read current on the calling thread.
using FunctionLookup = std::function<void*(api::Slot slot)>;

// One row of the parameter table as read: its values, as many as the row
// says; bool, enum, int and object names in `ints`, float in `floats`.
struct StateValue {
  const api::Parameter* parameter = nullptr;
  std::vector<GLint> ints;
  std::vector<GLfloat> floats;
};

// What is bound at one index of an indexed buffer target.
struct IndexedBinding {
  GLuint index = 0, buffer = 0;
  GLint64 start = 0, size = 0;
};
struct IndexedTargetBindings {
  const api::IndexedBufferTarget* target = nullptr;
  std::vector<IndexedBinding> bound;  // indices with a buffer only
};

struct TextureUnit {
  // Each texture target the context has (its binding raised no error), in
  // api::kTextureTargets' order, unbound ones (0) included.
  std::vector<std::pair<const api::TargetBinding*, GLuint>> textures;
  GLuint sampler = 0;
};

// GLES 1.1: one light, and what a texture unit holds besides its array.
struct Light {
  GLenum light = 0;
  bool enabled = false;
  std::vector<std::vector<GLfloat>> values;  // by api::kLightParameters
};
struct FixedFunctionUnit {
  std::vector<std::pair<GLenum, bool>> capabilities;           // api::kUnitCapabilities'
  std::vector<StateValue> values;                              // the table's per-unit rows
  std::vector<std::pair<GLenum, GLint>> environment;           // api::kTextureEnvironmentEnums'
  std::vector<std::pair<GLenum, GLfloat>> environment_floats;  // api::kTextureEnvironmentFloats'
  std::array<GLfloat, 4> environment_color{};
  bool has_coord_replace = false;  // GL_POINT_SPRITE_OES's GL_COORD_REPLACE_OES (an extension's)
  GLint coord_replace = 0;
  bool Enabled(GLenum capability) const;
};

struct VertexAttribute {
  AttributeArray array;
  GLfloat current[4] = {0, 0, 0, 1};
};

struct ContextState {
  // The driver context's GLES version (10 for GLES 1.1; 20, 30, 31, 32).
  int version = 20;
  // Each capability the context has (glIsEnabled raised no error).
  std::vector<std::pair<GLenum, bool>> capabilities;
  // The parameter table's state rows taken by glGet*v that the context has,
  // in the table's order: for GLES 1.1 those outside texture units.
  std::vector<StateValue> values;
  // GLES 1.1 only: lights, material (GL_FRONT's, GL_BACK's; by
  // api::kMaterialParameters), user clip planes, texture units. Its matrix
  // stacks below the top are the snapshot's to read; its client arrays,
  // ReadClientArray's (attribute_array.h).
  std::vector<Light> lights;
  std::array<std::vector<std::vector<GLfloat>>, 2> material;
  std::vector<std::array<GLfloat, 4>> clip_planes;
  std::vector<FixedFunctionUnit> fixed_function_units;
  // GLES 2+ only from here on.
  std::vector<IndexedTargetBindings> indexed;
  std::vector<TextureUnit> units;
  std::vector<std::pair<GLenum, GLuint>> active_queries;  // target, query
  bool transform_feedback_active = false;
  std::vector<VertexAttribute> attributes;  // of the bound vertex array object

  const StateValue* Find(GLenum pname) const;
  // The first value of `pname` (0 when the context has none).
  GLint Integer(GLenum pname) const;
  GLfloat Float(GLenum pname) const;
  // All its values (zeros when the context has none).
  std::vector<GLint> Integers(GLenum pname) const;
  std::vector<GLfloat> Floats(GLenum pname) const;
};

// The value of `pname` among `values`, or null.
const StateValue* FindValue(std::span<const StateValue> values, GLenum pname);

// Reads the context current on the calling thread; `version` as above (10,
// or HostVersion's). Leaves the driver's state as it found it.
ContextState ReadContextState(const FunctionLookup& functions, int version);

// A GLES 2+ driver context's version from its GL_VERSION ("OpenGL ES 3.2
// ..." is 32; 20 when it says none).
int HostVersion(const FunctionLookup& functions);

// Whether each of `capabilities` is enabled; those the context lacks
// (raising an error) left out.
std::vector<std::pair<GLenum, bool>> ReadCapabilities(const FunctionLookup& functions,
                                                      std::span<const uint32_t> capabilities);

// The rows of the parameter table `wanted` keeps that are state taken by
// glGet*v, each read; those the context lacks (raising an error) left out.
std::vector<StateValue> ReadValues(const FunctionLookup& functions,
                                   const std::function<bool(const api::Parameter&)>& wanted);

// What is bound at each index of `target` (of the bound transform feedback
// object, for GL_TRANSFORM_FEEDBACK_BUFFER).
IndexedTargetBindings ReadIndexedBindings(const FunctionLookup& functions, const api::IndexedBufferTarget& target);

}  // namespace strata::glstate
