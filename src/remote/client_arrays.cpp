// The state the generated functions cannot keep for themselves: the shadow
// the capture rules read (pixel store, buffer bindings) and the client-side
// vertex arrays (capture::ClientArrays, as the tracer keeps them), whose
// bytes go out as memory records before each draw (the executor points the
// host's arrays at them, as in replay). Which calls change the arrays and
// what each draw reads come from their traits (api/function_traits.txt).
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
capture::ClientArrays* ArraysOf(ContextShadow& s) { return s.vertex_array() == 0 ? &s.arrays() : nullptr; }
capture::ClientArrays* Arrays() {
  ContextShadow* s = Shadow();
  return s != nullptr ? ArraysOf(*s) : nullptr;
}

// The bounds of a draw's indices in app memory; with an element buffer bound
// the client cannot see the indices and sends nothing (docs/remote.md).
class ClientIndices final : public capture::IndexReader {
 public:
  explicit ClientIndices(const ContextShadow& shadow) : in_buffer_(shadow.BufferBound(GL_ELEMENT_ARRAY_BUFFER)) {}
  bool Bounds(const void* indices, GLsizei count, GLenum type, uint32_t* lowest, uint32_t* highest) override {
    return !in_buffer_ && count > 0 && capture::IndexBounds(indices, static_cast<size_t>(count), type, lowest, highest);
  }
  bool InBuffer() const { return in_buffer_; }

 private:
  bool in_buffer_;
};

// Sends the bytes of every enabled client-side array a draw over vertices
// [first, end) and `instances` instances reads.
void SendClientArrays(Connection& c, capture::ClientArrays& arrays, int64_t first, int64_t end, int64_t instances) {
  for (auto [begin, size] : arrays.Ranges(first, end, instances)) c.PutMemory(begin, size);
}

// What a draw needs first: a resized window's size, then what it reads of
// client memory: persistent mappings, then a multi-draw's index arrays, then
// client-side arrays.
void SendDrawReads(Connection& c, const capture::DrawCall& draw) {
  BeforeSurfaceWrite();
  SendPersistentWrites();
  ClientIndices indices(c.shadow());
  if (draw.draws != 1 && draw.indices != nullptr && !indices.InBuffer()) {
    for (auto [begin, size] : capture::IndexArrays(draw)) c.PutMemory(begin, size);
  }
  capture::ClientArrays* arrays = ArraysOf(c.shadow());
  if (arrays == nullptr || !arrays->AnyInClientMemory()) return;
  int64_t first = 0, end = 0;
  if (capture::VertexSpan(draw, indices, &first, &end)) SendClientArrays(c, *arrays, first, end, draw.instances);
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

// Every call whose client-array trait says it changes the client-side arrays.
void NoteClientArrays(const capture::ArrayCall& call) {
  if (capture::ClientArrays* arrays = Arrays()) {
    const bool pointer = call.op == api::ClientArrayOp::kPointer || call.op == api::ClientArrayOp::kGles1Pointer;
    arrays->Apply(call, pointer && Shadow()->array_buffer() != 0);
  }
}

// Before each draw, by its draw trait, with the draw's connection.
void BeforeArraysDraw(Connection& c, GLint first, GLsizei count, int64_t instances) {
  BeforeSurfaceWrite();
  SendPersistentWrites();
  capture::ClientArrays* arrays = ArraysOf(c.shadow());
  if (arrays != nullptr && arrays->AnyInClientMemory()) {
    SendClientArrays(c, *arrays, first, int64_t{first} + count, instances);
  }
}
void BeforeIndexedDraw(Connection& c, GLsizei count, GLenum type, const void* indices, int64_t instances,
                       GLint base_vertex) {
  SendDrawReads(c, capture::DrawCall{1, nullptr, &count, type, &indices, &base_vertex, instances});
}
void BeforeMultiDraw(Connection& c, const capture::DrawCall& draw) { SendDrawReads(c, draw); }
void BeforeDrawFromBuffers(Connection&) {
  BeforeSurfaceWrite();
  SendPersistentWrites();
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
