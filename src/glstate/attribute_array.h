#pragma once
// One vertex attribute's array as the driver holds it (of the bound vertex
// array object), and one GLES 1.1 client array (glVertexPointer, ...): what
// `strata state` prints, what a snapshot writes as glVertexAttrib*Pointer or
// glVertexPointer, and what a tracer joining mid-run must learn of
// client-side arrays. Read in one place for all three.

#include <GLES3/gl32.h>

#include <cstdint>

#include "common/gl_queries.h"
#include "strata/api/parameters.h"

namespace strata::glstate {

struct AttributeArray {
  GLint enabled = 0, buffer = 0, size = 4, type = GL_FLOAT, stride = 0, normalized = 0, integer = 0, divisor = 0;
  const void* pointer = nullptr;
  // Set by the app at all (a fresh context's attribute is none of these).
  bool specified() const {
    return buffer != 0 || pointer != nullptr || size != 4 || type != GL_FLOAT || stride != 0 || normalized != 0 ||
           integer != 0;
  }
};

// `gles3`: the context has GLES 3's integer and divisor state.
inline AttributeArray ReadAttributeArray(PFNGLGETVERTEXATTRIBIVPROC get, PFNGLGETVERTEXATTRIBPOINTERVPROC get_pointer,
                                         GLuint index, bool gles3) {
  auto value = [&](GLenum pname) {
    GLint v = 0;
    get(index, pname, &v);
    return v;
  };
  AttributeArray a;
  a.enabled = value(GL_VERTEX_ATTRIB_ARRAY_ENABLED);
  a.buffer = value(GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING);
  a.size = value(GL_VERTEX_ATTRIB_ARRAY_SIZE);
  a.type = value(GL_VERTEX_ATTRIB_ARRAY_TYPE);
  a.stride = value(GL_VERTEX_ATTRIB_ARRAY_STRIDE);
  a.normalized = value(GL_VERTEX_ATTRIB_ARRAY_NORMALIZED);
  if (gles3) {
    a.integer = value(GL_VERTEX_ATTRIB_ARRAY_INTEGER);
    a.divisor = value(GL_VERTEX_ATTRIB_ARRAY_DIVISOR);
  }
  void* pointer = nullptr;
  get_pointer(index, GL_VERTEX_ATTRIB_ARRAY_POINTER, &pointer);
  a.pointer = pointer;
  return a;
}

// A GLES 1.1 client array of the active client texture unit (for
// GL_TEXTURE_COORD_ARRAY): `known` is false where the context lacks it
// (GL_POINT_SIZE_ARRAY_OES without its extension).
struct ClientArray {
  bool known = false, enabled = false;
  GLint size = 0, type = 0, stride = 0, buffer = 0;
  const void* pointer = nullptr;
};

inline ClientArray ReadClientArray(PFNGLGETINTEGERVPROC get_integer, PFNGLISENABLEDPROC is_enabled,
                                   void (*get_pointer)(GLenum, void**), PFNGLGETERRORPROC get_error,
                                   const api::ClientArrayQueries& q) {
  auto value = [&](GLenum pname) {
    GLint v = 0;
    get_integer(pname, &v);
    return v;
  };
  ClientArray a;
  DrainGlErrors(get_error);
  a.enabled = is_enabled(q.array) != GL_FALSE;
  a.known = get_error() == GL_NO_ERROR;
  if (!a.known) return a;
  a.size = q.size != 0 ? value(q.size) : q.fixed_size;
  a.type = value(q.type);
  a.stride = value(q.stride);
  a.buffer = value(q.buffer);
  void* pointer = nullptr;
  get_pointer(q.pointer, &pointer);
  a.pointer = pointer;
  return a;
}

}  // namespace strata::glstate
