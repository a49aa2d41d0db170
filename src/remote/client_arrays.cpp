// The state the generated functions cannot keep for themselves: the shadow
// the capture rules read (pixel store, buffer bindings) and the client-side
// vertex arrays, whose bytes go out as memory records before each draw (the
// executor points the host's arrays at them, as in replay).
#include <GLES/gl.h>

#include <vector>

#include "common/vertex_formats.h"
#include "remote/generated_support.h"

namespace strata::remote {
namespace {

ContextShadow* Shadow() {
  Connection* c = ThreadConnection();
  return c != nullptr ? &c->shadow() : nullptr;
}

// GLES 1 named arrays share the key space with attribute indices above 2^32.
uint64_t NamedArrayKey(GLenum array, uint32_t texture_unit) {
  return (uint64_t{1} << 32) + uint64_t{array} * 64 + (array == GL_TEXTURE_COORD_ARRAY ? texture_unit : 0);
}

void SetPointer(uint64_t key, GLint size, GLenum type, GLsizei stride, const void* pointer) {
  ContextShadow* s = Shadow();
  if (s == nullptr) return;
  ClientArray& a = s->Array(key);
  a.in_buffer = s->array_buffer() != 0 || s->vertex_array() != 0;
  a.pointer = pointer;
  a.size = size;
  a.type = type;
  a.stride = stride;
}

void Enable(uint64_t key, bool enabled) {
  if (ContextShadow* s = Shadow(); s != nullptr && s->vertex_array() == 0) s->Array(key).enabled = enabled;
}

// Sends the bytes of every enabled client-side array for vertices
// [first, first + count) and instances [0, instances).
void SendArrays(int64_t first, int64_t count, int64_t instances) {
  Connection* c = ThreadConnection();
  if (c == nullptr || count <= 0) return;
  ContextShadow& s = c->shadow();
  if (s.vertex_array() != 0) return;
  for (const auto& [key, a] : s.arrays()) {
    if (!a.enabled || a.in_buffer || a.pointer == nullptr) continue;
    const size_t element = VertexAttribBytes(a.type, a.size);
    const size_t stride = a.stride > 0 ? static_cast<size_t>(a.stride) : element;
    int64_t begin = first, vertices = count;
    if (a.divisor != 0) {
      begin = 0;
      vertices = (std::max<int64_t>(instances, 1) + a.divisor - 1) / a.divisor;
    }
    const auto* start = static_cast<const uint8_t*>(a.pointer) + static_cast<size_t>(begin) * stride;
    c->PutMemory(start, static_cast<size_t>(vertices - 1) * stride + element);
  }
}

bool HasClientArrays() {
  Connection* c = ThreadConnection();
  if (c == nullptr || c->shadow().vertex_array() != 0) return false;
  for (const auto& [key, a] : c->shadow().arrays()) {
    if (a.enabled && !a.in_buffer && a.pointer != nullptr) return true;
  }
  return false;
}

// The vertex range indices in client memory use; with an element buffer bound
// the client cannot see the indices and sends nothing (docs/remote.md).
void SendArraysForIndices(GLsizei count, GLenum type, const void* indices, GLint base_vertex, GLsizei instances) {
  if (!HasClientArrays() || count <= 0 || indices == nullptr) return;
  Connection* c = ThreadConnection();
  if (c->shadow().BufferBound(GL_ELEMENT_ARRAY_BUFFER)) return;
  uint32_t lowest = UINT32_MAX, highest = 0;
  for (GLsizei i = 0; i < count; ++i) {
    uint32_t index = type == GL_UNSIGNED_BYTE    ? static_cast<const uint8_t*>(indices)[i]
                     : type == GL_UNSIGNED_SHORT ? static_cast<const uint16_t*>(indices)[i]
                                                 : static_cast<const uint32_t*>(indices)[i];
    lowest = std::min(lowest, index);
    highest = std::max(highest, index);
  }
  SendArrays(int64_t{lowest} + base_vertex, int64_t{highest} - lowest + 1, instances);
}

}  // namespace

void After_glPixelStorei(GLenum pname, GLint param) {
  if (ContextShadow* s = Shadow()) s->PixelStorei(pname, param);
}
void After_glBindBuffer(GLenum target, GLuint buffer) {
  if (ContextShadow* s = Shadow()) s->BindBuffer(target, buffer);
}
void After_glBindBufferBase(GLenum target, GLuint, GLuint buffer) {
  if (ContextShadow* s = Shadow()) s->BindBuffer(target, buffer);
}
void After_glBindBufferRange(GLenum target, GLuint, GLuint buffer, GLintptr, GLsizeiptr) {
  if (ContextShadow* s = Shadow()) s->BindBuffer(target, buffer);
}
void After_glBindVertexArray(GLuint array) {
  if (ContextShadow* s = Shadow()) s->BindVertexArray(array);
}
void After_glBindVertexArrayOES(GLuint array) { After_glBindVertexArray(array); }
void After_glDeleteBuffers(GLsizei n, const GLuint* buffers) {
  ContextShadow* s = Shadow();
  for (GLsizei i = 0; s != nullptr && buffers != nullptr && i < n; ++i) s->DeleteBuffer(buffers[i]);
}
void After_glDeleteVertexArrays(GLsizei n, const GLuint* arrays) {
  ContextShadow* s = Shadow();
  for (GLsizei i = 0; s != nullptr && arrays != nullptr && i < n; ++i) s->DeleteVertexArray(arrays[i]);
}
void After_glDeleteVertexArraysOES(GLsizei n, const GLuint* arrays) { After_glDeleteVertexArrays(n, arrays); }

void After_glVertexAttribPointer(GLuint index, GLint size, GLenum type, GLboolean, GLsizei stride,
                                 const void* pointer) {
  SetPointer(index, size, type, stride, pointer);
}
void After_glVertexAttribIPointer(GLuint index, GLint size, GLenum type, GLsizei stride, const void* pointer) {
  SetPointer(index, size, type, stride, pointer);
}
void After_glEnableVertexAttribArray(GLuint index) { Enable(index, true); }
void After_glDisableVertexAttribArray(GLuint index) { Enable(index, false); }
void After_glVertexAttribDivisor(GLuint index, GLuint divisor) {
  if (ContextShadow* s = Shadow(); s != nullptr && s->vertex_array() == 0) s->Array(index).divisor = divisor;
}

void After_glVertexPointer(GLint size, GLenum type, GLsizei stride, const void* pointer) {
  SetPointer(NamedArrayKey(GL_VERTEX_ARRAY, 0), size, type, stride, pointer);
}
void After_glColorPointer(GLint size, GLenum type, GLsizei stride, const void* pointer) {
  SetPointer(NamedArrayKey(GL_COLOR_ARRAY, 0), size, type, stride, pointer);
}
void After_glNormalPointer(GLenum type, GLsizei stride, const void* pointer) {
  SetPointer(NamedArrayKey(GL_NORMAL_ARRAY, 0), 3, type, stride, pointer);
}
void After_glTexCoordPointer(GLint size, GLenum type, GLsizei stride, const void* pointer) {
  ContextShadow* s = Shadow();
  SetPointer(NamedArrayKey(GL_TEXTURE_COORD_ARRAY, s ? s->client_texture : 0), size, type, stride, pointer);
}
void After_glPointSizePointerOES(GLenum type, GLsizei stride, const void* pointer) {
  SetPointer(NamedArrayKey(GL_POINT_SIZE_ARRAY_OES, 0), 1, type, stride, pointer);
}
void After_glEnableClientState(GLenum array) {
  ContextShadow* s = Shadow();
  Enable(NamedArrayKey(array, s ? s->client_texture : 0), true);
}
void After_glDisableClientState(GLenum array) {
  ContextShadow* s = Shadow();
  Enable(NamedArrayKey(array, s ? s->client_texture : 0), false);
}
void After_glClientActiveTexture(GLenum texture) {
  if (ContextShadow* s = Shadow()) s->client_texture = texture - GL_TEXTURE0;
}

void Before_glDrawArrays(GLenum, GLint first, GLsizei count) {
  if (HasClientArrays()) SendArrays(first, count, 1);
}
void Before_glDrawArraysInstanced(GLenum, GLint first, GLsizei count, GLsizei instances) {
  if (HasClientArrays()) SendArrays(first, count, instances);
}
void Before_glDrawArraysInstancedEXT(GLenum mode, GLint first, GLsizei count, GLsizei instances) {
  Before_glDrawArraysInstanced(mode, first, count, instances);
}
void Before_glDrawElements(GLenum, GLsizei count, GLenum type, const void* indices) {
  SendArraysForIndices(count, type, indices, 0, 1);
}
void Before_glDrawElementsInstanced(GLenum, GLsizei count, GLenum type, const void* indices, GLsizei instances) {
  SendArraysForIndices(count, type, indices, 0, instances);
}
void Before_glDrawElementsInstancedEXT(GLenum mode, GLsizei count, GLenum type, const void* indices,
                                       GLsizei instances) {
  Before_glDrawElementsInstanced(mode, count, type, indices, instances);
}
void Before_glDrawRangeElements(GLenum, GLuint, GLuint, GLsizei count, GLenum type, const void* indices) {
  SendArraysForIndices(count, type, indices, 0, 1);
}
void Before_glDrawElementsBaseVertex(GLenum, GLsizei count, GLenum type, const void* indices, GLint base) {
  SendArraysForIndices(count, type, indices, base, 1);
}
void Before_glDrawElementsBaseVertexOES(GLenum m, GLsizei count, GLenum type, const void* indices, GLint base) {
  Before_glDrawElementsBaseVertex(m, count, type, indices, base);
}
void Before_glDrawElementsBaseVertexEXT(GLenum m, GLsizei count, GLenum type, const void* indices, GLint base) {
  Before_glDrawElementsBaseVertex(m, count, type, indices, base);
}
void Before_glDrawElementsInstancedBaseVertex(GLenum, GLsizei count, GLenum type, const void* indices,
                                              GLsizei instances, GLint base) {
  SendArraysForIndices(count, type, indices, base, instances);
}
void Before_glDrawRangeElementsBaseVertex(GLenum, GLuint, GLuint, GLsizei count, GLenum type, const void* indices,
                                          GLint base) {
  SendArraysForIndices(count, type, indices, base, 1);
}
void Before_glDrawRangeElementsBaseVertexOES(GLenum m, GLuint s, GLuint e, GLsizei count, GLenum type,
                                             const void* indices, GLint base) {
  Before_glDrawRangeElementsBaseVertex(m, s, e, count, type, indices, base);
}
void Before_glDrawRangeElementsBaseVertexEXT(GLenum m, GLuint s, GLuint e, GLsizei count, GLenum type,
                                             const void* indices, GLint base) {
  Before_glDrawRangeElementsBaseVertex(m, s, e, count, type, indices, base);
}

void PutStrings(stream::CallEncoder& w, const GLchar* const* strings, GLsizei count, const GLint* lengths) {
  if (strings == nullptr) return w.Absent();
  stream::ByteBuffer buffer;
  stream::ByteWriter out(&buffer);
  out.Varint(count > 0 ? static_cast<uint64_t>(count) : 0);
  for (GLsizei i = 0; i < count; ++i) {
    const char* s = strings[i] != nullptr ? strings[i] : "";
    const size_t n = lengths != nullptr && lengths[i] >= 0 ? static_cast<size_t>(lengths[i]) : std::strlen(s);
    out.Varint(n);
    out.Raw(s, n);
  }
  w.Blob(buffer.storage.data(), buffer.size);
}

}  // namespace strata::remote
