// The state the generated functions cannot keep for themselves: the shadow
// the capture rules read (pixel store, buffer bindings) and the client-side
// vertex arrays (capture::ClientArrays, as the tracer keeps them), whose
// bytes go out as memory records before each draw (the executor points the
// host's arrays at them, as in replay).
#include "remote/generated_support.h"
#include "remote/mapped_buffers.h"
#include "remote/window_sizes.h"

namespace strata::remote {
namespace {

// Only reads and updates the shadow: what the thread holds back stays held.
ContextShadow* Shadow() {
  Connection* c = ThreadConnectionHolding();
  return c != nullptr ? &c->shadow() : nullptr;
}

// Arrays of vertex array 0 only: others cannot use app memory.
capture::ClientArrays* Arrays() {
  ContextShadow* s = Shadow();
  return s != nullptr && s->vertex_array() == 0 ? &s->arrays() : nullptr;
}

void SetPointer(int slot, GLint size, GLenum type, GLsizei stride, const void* pointer) {
  if (capture::ClientArrays* arrays = Arrays()) {
    arrays->SetPointer(slot, size, type, stride, pointer, Shadow()->array_buffer() == 0);
  }
}

void SetGles1Pointer(GLenum array, GLint size, GLenum type, GLsizei stride, const void* pointer) {
  if (capture::ClientArrays* arrays = Arrays()) {
    arrays->SetGles1Pointer(array, size, type, stride, pointer, Shadow()->array_buffer() == 0);
  }
}

void Enable(int slot, bool enabled) {
  if (capture::ClientArrays* arrays = Arrays()) arrays->Enable(slot, enabled);
}

int Gles1Slot(GLenum array) {
  capture::ClientArrays* arrays = Arrays();
  return arrays != nullptr ? arrays->Gles1Slot(array) : -1;
}

// Sends the bytes of every enabled client-side array a draw over vertices
// [first, end) and `instances` instances reads.
void SendClientArrays(int64_t first, int64_t end, int64_t instances) {
  capture::ClientArrays* arrays = Arrays();
  if (arrays == nullptr || !arrays->AnyInClientMemory()) return;
  Connection* c = ThreadConnection();
  for (auto [begin, size] : arrays->Ranges(first, end, instances)) c->PutMemory(begin, size);
}

// The vertex range indices in client memory use; with an element buffer bound
// the client cannot see the indices and sends nothing (docs/remote.md).
void SendClientArraysForIndices(GLsizei count, GLenum type, const void* indices, GLint base_vertex,
                                GLsizei instances) {
  capture::ClientArrays* arrays = Arrays();
  if (arrays == nullptr || !arrays->AnyInClientMemory() || count <= 0) return;
  if (Shadow()->BufferBound(GL_ELEMENT_ARRAY_BUFFER)) return;
  uint32_t lowest = 0, highest = 0;
  if (!capture::IndexBounds(indices, static_cast<size_t>(count), type, &lowest, &highest)) return;
  SendClientArrays(int64_t{lowest} + base_vertex, int64_t{highest} + base_vertex + 1, instances);
}

// What a draw needs first: a resized window's size, then what it reads of
// client memory: persistent mappings, then client-side arrays.
void SendArrays(int64_t first, int64_t end, int64_t instances) {
  BeforeSurfaceWrite();
  SendPersistentWrites();
  SendClientArrays(first, end, instances);
}

void SendArraysForIndices(GLsizei count, GLenum type, const void* indices, GLint base_vertex, GLsizei instances) {
  BeforeSurfaceWrite();
  SendPersistentWrites();
  SendClientArraysForIndices(count, type, indices, base_vertex, instances);
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
void After_glBindFramebuffer(GLenum target, GLuint framebuffer) {
  if (ContextShadow* s = Shadow()) s->BindFramebuffer(target, framebuffer);
}
void After_glDeleteFramebuffers(GLsizei n, const GLuint* framebuffers) {
  ContextShadow* s = Shadow();
  for (GLsizei i = 0; s != nullptr && framebuffers != nullptr && i < n; ++i) s->DeleteFramebuffer(framebuffers[i]);
}
void After_glGenBuffers(GLsizei n, GLuint* buffers) {
  if (ContextShadow* s = Shadow()) s->BuffersMade(n, buffers);
}
void After_glDeleteBuffers(GLsizei n, const GLuint* buffers) {
  ContextShadow* s = Shadow();
  for (GLsizei i = 0; s != nullptr && buffers != nullptr && i < n; ++i) {
    s->DeleteBuffer(buffers[i]);
    ForgetMapping(buffers[i]);  // deleting a mapped buffer unmaps it
  }
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
  if (capture::ClientArrays* arrays = Arrays()) arrays->SetDivisor(static_cast<int>(index), divisor);
}

void After_glVertexPointer(GLint size, GLenum type, GLsizei stride, const void* pointer) {
  SetGles1Pointer(capture::ClientArrays::kVertexArray, size, type, stride, pointer);
}
void After_glColorPointer(GLint size, GLenum type, GLsizei stride, const void* pointer) {
  SetGles1Pointer(capture::ClientArrays::kColorArray, size, type, stride, pointer);
}
void After_glNormalPointer(GLenum type, GLsizei stride, const void* pointer) {
  SetGles1Pointer(capture::ClientArrays::kNormalArray, 3, type, stride, pointer);
}
void After_glTexCoordPointer(GLint size, GLenum type, GLsizei stride, const void* pointer) {
  SetGles1Pointer(capture::ClientArrays::kTexCoordArray, size, type, stride, pointer);
}
void After_glPointSizePointerOES(GLenum type, GLsizei stride, const void* pointer) {
  SetGles1Pointer(capture::ClientArrays::kPointSizeArrayOes, 1, type, stride, pointer);
}
void After_glEnableClientState(GLenum array) { Enable(Gles1Slot(array), true); }
void After_glDisableClientState(GLenum array) { Enable(Gles1Slot(array), false); }
void After_glClientActiveTexture(GLenum texture) {
  if (capture::ClientArrays* arrays = Arrays()) arrays->SetClientActiveTexture(texture);
}

void Before_glDrawArrays(GLenum, GLint first, GLsizei count) { SendArrays(first, int64_t{first} + count, 1); }
void Before_glDrawArraysInstanced(GLenum, GLint first, GLsizei count, GLsizei instances) {
  SendArrays(first, int64_t{first} + count, instances);
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
