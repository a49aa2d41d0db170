#pragma once
// The client's shadow of the state it sent, per context: what the capture
// rules need to size data (pixel store, bound buffers) and what the
// client-array capture needs at draw time (capture::ClientArrays).
// There is no driver below the client to ask; what the shadow does not hold
// it asks the renderer once per context and keeps (limits, format counts).

#include <cstdint>
#include <map>
#include <memory>
#include <unordered_map>
#include <unordered_set>

#include "remote/client_names.h"
#include "remote/deferred_state.h"
#include "remote/query_cache.h"
#include "stream/capture_sizes.h"
#include "stream/client_arrays.h"

namespace strata::remote {

class Connection;

// STRATA_REMOTE_SHADOW=off: the client answers and holds back nothing on its
// own (no held calls, no names of its own); every call goes as it comes.
bool ClientShadowWanted();

class ContextShadow final : public capture::CaptureState {
 public:
  ContextShadow() = default;  // no context current: nothing to name objects in
  // `share`: the shadow of the context this one shares objects with, or null.
  ContextShadow(int client_version, ContextShadow* share);

  int client_version() const { return client_version_; }
  // Made with EGL_LOSE_CONTEXT_ON_RESET: told of a lost renderer as of a
  // GPU reset (glGetGraphicsResetStatus), rather than the program ended.
  bool reset_notified() const { return reset_notified_; }
  void set_reset_notified() { reset_notified_ = true; }
  void set_connection(Connection* connection) { connection_ = connection; }

  // capture::CaptureState
  GLint Integer(GLenum pname, GLint fallback) override;
  capture::PixelStoreCaps PixelStore() override;
  size_t UniformComponents(GLuint program, GLint location) override;
  size_t UniformBlockActiveUniforms(GLuint program, GLuint block) override;
  GLint PathParameter(GLuint path, GLenum pname) override;
  GLenum PerfMonitorCounterType(GLuint group, GLuint counter) override;

  bool BufferBound(GLenum target) const;
  // The buffer bound at any buffer target (mapped buffers are the buffers'),
  // as the app bound it; 0 for none.
  GLuint BoundBuffer(GLenum target) const;

  // Values and strings fixed for the context's life, once the renderer gave
  // them (remote/client_answers.cpp decides which).
  bool Known(GLenum pname, GLint* value) const;
  void Keep(GLenum pname, GLint value) { asked_[pname] = value; }
  // `index`: 0 for glGetString, i + 1 for glGetStringi(name, i).
  bool KnownString(GLenum name, uint64_t index, const GLubyte** value) const;
  void KeepString(GLenum name, uint64_t index, const GLubyte* value) { strings_[{name, index}] = value; }

  // Shadow updates (remote/client_arrays.cpp's hooks call them).
  void PixelStorei(GLenum pname, GLint value);
  void BindBuffer(GLenum target, GLuint buffer);
  void BindVertexArray(GLuint array) { vertex_array_ = array; }
  // The framebuffer draws go to (0: the surface), for a resized window's size (window_sizes.h).
  void BindFramebuffer(GLenum target, GLuint framebuffer) {
    if (target == GL_FRAMEBUFFER || target == GL_DRAW_FRAMEBUFFER) draw_framebuffer_ = framebuffer;
  }
  void DeleteFramebuffer(GLuint framebuffer) {
    if (framebuffer != 0 && framebuffer == draw_framebuffer_) draw_framebuffer_ = 0;
  }
  GLuint draw_framebuffer() const { return draw_framebuffer_; }
  void DeleteBuffer(GLuint buffer);
  void DeleteVertexArray(GLuint array);
  GLuint vertex_array() const { return vertex_array_; }
  GLuint array_buffer() const { return array_buffer_; }
  // The client-side arrays of vertex array 0.
  capture::ClientArrays& arrays() { return arrays_; }

  // Buffer names glGenBuffers gave in this context and not deleted since.
  void BuffersMade(GLsizei n, const GLuint* buffers);
  bool BufferMade(GLuint buffer) const { return buffers_made_.count(buffer) != 0; }
  // What the renderer's context holds of the state the client holds back
  // (deferred_state.h); ForgetSent after a call that changed it some other way.
  SentState& sent() { return sent_; }
  void ForgetSent() { sent_ = SentState(); }

  // Its textures, as far as the client follows them (deferred_textures.h).
  TextureKnowledge& textures() { return textures_; }

  // Answers to state queries the client keeps (query_cache.h).
  QueryCache& queries() { return queries_; }

  // Where the client makes names of its own for the context's objects; null
  // when it does not (STRATA_REMOTE_SHADOW=off, no context current).
  ClientNames* names() { return names_.get(); }
  // A name an app bound (glBindTexture and the like create what they bind).
  void SawName(api::ObjectClass object, GLuint name) {
    if (names_ != nullptr && name != 0) names_->For(object)->Saw(name);
  }

 private:
  bool reset_notified_ = false;
  int client_version_ = 2;
  Connection* connection_ = nullptr;
  std::unordered_map<GLenum, GLint> pixel_store_;
  std::unordered_map<GLenum, GLint> asked_;  // values asked of the renderer, per context
  std::map<std::pair<GLenum, uint64_t>, const GLubyte*> strings_;  // interned for the process's life
  GLuint array_buffer_ = 0, pixel_pack_ = 0, pixel_unpack_ = 0, draw_indirect_ = 0;
  GLuint vertex_array_ = 0;
  GLuint draw_framebuffer_ = 0;
  std::unordered_map<GLuint, GLuint> element_buffers_;  // per vertex array (0: the default)
  std::unordered_map<GLenum, GLuint> other_buffers_;   // the other targets' bindings
  capture::ClientArrays arrays_;
  std::unordered_set<GLuint> buffers_made_;
  SentState sent_;
  TextureKnowledge textures_;
  QueryCache queries_;
  std::unique_ptr<ClientNames> names_;
  bool caps_known_ = false;
  capture::PixelStoreCaps caps_;
};

}  // namespace strata::remote
