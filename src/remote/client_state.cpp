#include "remote/client_state.h"

#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

#include <cstring>

#include "common/env.h"
#include "remote/connection.h"
#include "strata/api/functions.h"
#include "strata/api/parameters.h"

namespace strata::remote {

extern void* const kRemoteFunctions[api::kFunctionCount];

namespace {

// A renderer query made by the client for itself, never seen by the app's layers.
GLint AskRenderer(GLenum pname, GLint fallback) {
  auto get = reinterpret_cast<void (*)(GLenum, GLint*)>(kRemoteFunctions[api::glGetIntegerv]);
  GLint value = fallback;
  get(pname, &value);
  return value;
}

}  // namespace

bool ClientShadowWanted() {
  static const bool wanted = [] {
    const char* value = GetEnv("STRATA_REMOTE_SHADOW");
    return value == nullptr || std::strcmp(value, "off") != 0;
  }();
  return wanted;
}

ContextShadow::ContextShadow(int client_version, ContextShadow* share)
    : client_version_(client_version), queries_(client_version) {
  if (!ClientShadowWanted()) return;
  names_ = std::make_unique<ClientNames>(share != nullptr ? share->names_.get() : nullptr);
}

GLint ContextShadow::Integer(GLenum pname, GLint fallback) {
  if (api::IsPixelStoreParameter(pname)) {
    auto it = pixel_store_.find(pname);
    if (it != pixel_store_.end()) return it->second;
    return pname == GL_UNPACK_ALIGNMENT || pname == GL_PACK_ALIGNMENT ? 4 : 0;
  }
  // Limits and format counts do not change within a context: asked once.
  auto it = asked_.find(pname);
  if (it != asked_.end()) return it->second;
  const GLint value = AskRenderer(pname, fallback);
  asked_[pname] = value;
  return value;
}

bool ContextShadow::Known(GLenum pname, GLint* value) const {
  auto it = asked_.find(pname);
  if (it == asked_.end()) return false;
  *value = it->second;
  return true;
}

bool ContextShadow::KnownString(GLenum name, uint64_t index, const GLubyte** value) const {
  auto it = strings_.find({name, index});
  if (it == strings_.end()) return false;
  *value = it->second;
  return true;
}

capture::PixelStoreCaps ContextShadow::PixelStore() {
  if (!caps_known_) {
    // By the version the client asked for; GLES 1/2 have what the renderer's extensions add.
    auto get_string = reinterpret_cast<const GLubyte* (*)(GLenum)>(kRemoteFunctions[api::glGetString]);
    const char* extensions = client_version_ >= 3 ? nullptr : reinterpret_cast<const char*>(get_string(GL_EXTENSIONS));
    caps_ = capture::PixelStoreCapsOf(client_version_ >= 3 ? "OpenGL ES 3" : "OpenGL ES 2", extensions);
    caps_known_ = true;
  }
  return caps_;
}

// Output sizes are bounded by the reply itself; these only give the room,
// so the largest a uniform can be is enough.
size_t ContextShadow::UniformComponents(GLuint, GLint) { return 16; }
size_t ContextShadow::UniformBlockActiveUniforms(GLuint program, GLuint block) {
  auto get = reinterpret_cast<void (*)(GLuint, GLuint, GLenum, GLint*)>(
      kRemoteFunctions[api::glGetActiveUniformBlockiv]);
  GLint count = 0;
  get(program, block, GL_UNIFORM_BLOCK_ACTIVE_UNIFORMS, &count);
  return count > 0 ? static_cast<size_t>(count) : 0;
}

// A path's counts change with every call that edits it: asked each time.
GLint ContextShadow::PathParameter(GLuint path, GLenum pname) {
  auto get = reinterpret_cast<void (*)(GLuint, GLenum, GLint*)>(kRemoteFunctions[api::glGetPathParameterivNV]);
  GLint value = 0;
  get(path, pname, &value);
  return value;
}

GLenum ContextShadow::PerfMonitorCounterType(GLuint group, GLuint counter) {
  auto get = reinterpret_cast<void (*)(GLuint, GLuint, GLenum, void*)>(
      kRemoteFunctions[api::glGetPerfMonitorCounterInfoAMD]);
  GLenum type = 0;
  get(group, counter, GL_COUNTER_TYPE_AMD, &type);
  return type;
}

bool ContextShadow::BufferBound(GLenum target) const {
  switch (target) {
    case GL_ARRAY_BUFFER:
    case GL_PIXEL_PACK_BUFFER:
    case GL_PIXEL_UNPACK_BUFFER:
    case GL_DRAW_INDIRECT_BUFFER:
    case GL_ELEMENT_ARRAY_BUFFER: return BoundBuffer(target) != 0;
    default: return false;  // the capture rules ask about these only
  }
}

GLuint ContextShadow::BoundBuffer(GLenum target) const {
  switch (target) {
    case GL_ARRAY_BUFFER: return array_buffer_;
    case GL_PIXEL_PACK_BUFFER: return pixel_pack_;
    case GL_PIXEL_UNPACK_BUFFER: return pixel_unpack_;
    case GL_DRAW_INDIRECT_BUFFER: return draw_indirect_;
    case GL_ELEMENT_ARRAY_BUFFER: {
      auto it = element_buffers_.find(vertex_array_);
      return it != element_buffers_.end() ? it->second : 0;
    }
    default: {
      auto it = other_buffers_.find(target);
      return it != other_buffers_.end() ? it->second : 0;
    }
  }
}

void ContextShadow::PixelStorei(GLenum pname, GLint value) {
  if (api::IsPixelStoreParameter(pname)) pixel_store_[pname] = value;
}

void ContextShadow::BindBuffer(GLenum target, GLuint buffer) {
  switch (target) {
    case GL_ARRAY_BUFFER: array_buffer_ = buffer; break;
    case GL_PIXEL_PACK_BUFFER: pixel_pack_ = buffer; break;
    case GL_PIXEL_UNPACK_BUFFER: pixel_unpack_ = buffer; break;
    case GL_DRAW_INDIRECT_BUFFER: draw_indirect_ = buffer; break;
    case GL_ELEMENT_ARRAY_BUFFER: element_buffers_[vertex_array_] = buffer; break;
    default: other_buffers_[target] = buffer; break;
  }
}

void ContextShadow::BuffersMade(GLsizei n, const GLuint* buffers) {
  for (GLsizei i = 0; buffers != nullptr && i < n; ++i) {
    if (buffers[i] != 0) buffers_made_.insert(buffers[i]);
  }
}

void ContextShadow::DeleteBuffer(GLuint buffer) {
  if (buffer == 0) return;
  buffers_made_.erase(buffer);
  // Deleting the bound buffer binds 0 on the renderer.
  if (sent_.array_buffer_known && sent_.array_buffer == buffer) sent_.array_buffer = 0;
  for (GLuint* bound : {&array_buffer_, &pixel_pack_, &pixel_unpack_, &draw_indirect_}) {
    if (*bound == buffer) *bound = 0;
  }
  for (auto& [array, element] : element_buffers_) {
    if (element == buffer) element = 0;
  }
  for (auto& [target, bound] : other_buffers_) {
    if (bound == buffer) bound = 0;
  }
}

void ContextShadow::DeleteVertexArray(GLuint array) {
  if (array == 0) return;
  element_buffers_.erase(array);
  if (vertex_array_ == array) vertex_array_ = 0;
}

}  // namespace strata::remote
