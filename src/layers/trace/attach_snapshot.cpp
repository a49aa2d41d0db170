#include "layers/trace/attach_snapshot.h"

#include <EGL/egl.h>
#include <GLES/gl.h>
#include <GLES3/gl32.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "common/log.h"
#include "layers/trace/app_errors.h"
#include "layers/trace/call_writer.h"
#include "layers/trace/context_state.h"
#include "layers/trace/framebuffer_capture.h"
#include "layers/trace/next_functions.h"
#include "layers/trace/trace_session.h"
#include "layers/trace/upload_shadows.h"
#include "glstate/attribute_array.h"
#include "snapshot/context_snapshot.h"
#include "strata/api/parameters.h"
#include "stream/call_encoder.h"

namespace strata::trace {
namespace {

using api::ObjectClass;

// Names are looked for by asking the driver (glIs*) from 1 up, until this
// many in a row are not in use past the last one that is: drivers hand out
// small names in order, and the tracer keeps no list while it is off.
constexpr GLuint kNameGap = 4096;

// The app's own context, as the snapshot reads it: the stream names objects
// as the app does, so every name stands for itself.
class LiveContext final : public snapshot::SnapshotSource {
 public:
  LiveContext(int version, bool at_frame_start) : version_(version), at_frame_start_(at_frame_start) {}

  void* Function(api::Slot slot) const override { return NextFunction(slot); }
  int Version() const override { return version_; }

  std::vector<std::pair<uint64_t, uint64_t>> LiveObjects(ObjectClass object) const override {
    std::vector<std::pair<uint64_t, uint64_t>> names;
    using IsFn = GLboolean (*)(GLuint);
    IsFn is = nullptr;
    switch (object) {
      case ObjectClass::kBuffer: is = Next<IsFn>(api::glIsBuffer); break;
      case ObjectClass::kTexture: is = Next<IsFn>(api::glIsTexture); break;
      case ObjectClass::kRenderbuffer: is = Next<IsFn>(api::glIsRenderbuffer); break;
      case ObjectClass::kFramebuffer: is = Next<IsFn>(api::glIsFramebuffer); break;
      case ObjectClass::kShader: is = Next<IsFn>(api::glIsShader); break;
      case ObjectClass::kProgram: is = Next<IsFn>(api::glIsProgram); break;
      case ObjectClass::kSampler: is = version_ >= 30 ? Next<IsFn>(api::glIsSampler) : nullptr; break;
      case ObjectClass::kQuery: is = version_ >= 30 ? Next<IsFn>(api::glIsQuery) : nullptr; break;
      case ObjectClass::kVertexArray: is = version_ >= 30 ? Next<IsFn>(api::glIsVertexArray) : nullptr; break;
      case ObjectClass::kTransformFeedback:
        is = version_ >= 30 ? Next<IsFn>(api::glIsTransformFeedback) : nullptr;
        break;
      case ObjectClass::kProgramPipeline:
        is = version_ >= 31 ? Next<IsFn>(api::glIsProgramPipeline) : nullptr;
        break;
      default: break;  // syncs are pointers: nothing to count through
    }
    if (is == nullptr) return names;
    for (GLuint name = 1, last = 0; name - last <= kNameGap && name != 0; ++name) {
      if (!is(name)) continue;
      names.emplace_back(name, name);
      last = name;
    }
    return names;
  }
  uint64_t StreamName(ObjectClass, uint64_t driver) const override { return driver; }
  int64_t StreamLocation(uint64_t, int64_t driver_location) const override { return driver_location; }

  // GLES cannot say a texture's target: binding it to the wrong one is an
  // error, to its own is not (glIsTexture said it was bound before).
  GLenum TextureTarget(uint64_t texture) const override {
    if (auto known = targets_.find(texture); known != targets_.end()) return known->second;
    return targets_[texture] = ProbeTarget(texture);
  }
  GLenum ProbeTarget(uint64_t texture) const {
    auto bind = Next<PFNGLBINDTEXTUREPROC>(api::glBindTexture);
    auto get_error = Next<PFNGLGETERRORPROC>(api::glGetError);
    for (const api::TargetBinding& target : api::kTextureTargets) {
      // GLES 1.1 has 2D textures only (the others are its extensions').
      if (version_ < 20 ? target.target != GL_TEXTURE_2D : target.min_version > version_) continue;
      DrainGlErrors(get_error);
      const GLint previous = QueryInteger(target.binding);
      if (get_error() != GL_NO_ERROR) continue;  // a target this driver does not have
      bind(target.target, static_cast<GLuint>(texture));
      const bool fits = get_error() == GL_NO_ERROR;
      bind(target.target, static_cast<GLuint>(previous));
      if (fits) return target.target;
    }
    return 0;
  }
  const std::vector<snapshot::LinkedShader>* LinkedShaders(uint64_t) const override { return nullptr; }
  uint64_t ClientArrayAddress(GLuint attribute) const override {
    void* pointer = nullptr;
    Next<PFNGLGETVERTEXATTRIBPOINTERVPROC>(api::glGetVertexAttribPointerv)(attribute, GL_VERTEX_ATTRIB_ARRAY_POINTER,
                                                                          &pointer);
    return reinterpret_cast<uintptr_t>(pointer);
  }
  // The compressed images kept for it (upload_shadows.h), unless the texture
  // has had an image GLES can read back since (then it is read back).
  const snapshot::TextureUploads* UploadsOf(uint64_t texture) const override {
    const snapshot::TextureUploads* kept = ShadowedUploads(texture);
    if (kept == nullptr || version_ < 31) return kept;
    const GLenum target = TextureTarget(texture);
    GLint compressed = 1;
    Next<PFNGLGETTEXLEVELPARAMETERIVPROC>(api::glGetTexLevelParameteriv)(
        target == GL_TEXTURE_CUBE_MAP ? GL_TEXTURE_CUBE_MAP_POSITIVE_X : target, 0, GL_TEXTURE_COMPRESSED, &compressed);
    return compressed ? kept : nullptr;
  }

  // GLES 1.1's buffers, from the copies kept of their uploads.
  const std::vector<const stream::DecodedCall*>* BufferUploadsOf(uint64_t buffer) const override {
    return version_ < 20 ? ShadowedBufferUploads(buffer) : nullptr;
  }

  // The frame being drawn: the swap that switches tracing on shows it. Right
  // after a swap, only a surface that keeps its buffer holds anything.
  bool SurfacePixels(int* width, int* height, std::vector<uint8_t>* rgba) const override {
    if (at_frame_start_ && !SurfaceKeepsItsBuffer()) return false;
    if (!CurrentSurfaceSize(width, height)) return false;
    if (version_ >= 20) return ReadFramebufferPixels(0, 0, 0, *width, *height, rgba);
    // GLES 1.1 has no framebuffer binding to save and put back: its surface is what it reads.
    const GLint alignment = QueryInteger(GL_PACK_ALIGNMENT);
    auto pixel_store = Next<PFNGLPIXELSTOREIPROC>(api::glPixelStorei);
    pixel_store(GL_PACK_ALIGNMENT, 1);
    rgba->resize(static_cast<size_t>(*width) * static_cast<size_t>(*height) * 4);
    Next<PFNGLREADPIXELSPROC>(api::glReadPixels)(0, 0, *width, *height, GL_RGBA, GL_UNSIGNED_BYTE, rgba->data());
    pixel_store(GL_PACK_ALIGNMENT, alignment);
    return Next<PFNGLGETERRORPROC>(api::glGetError)() == GL_NO_ERROR;
  }

 private:
  static bool SurfaceKeepsItsBuffer() {
    EGLDisplay dpy = Next<PFNEGLGETCURRENTDISPLAYPROC>(api::eglGetCurrentDisplay)();
    EGLSurface surface = Next<PFNEGLGETCURRENTSURFACEPROC>(api::eglGetCurrentSurface)(EGL_DRAW);
    EGLint behavior = EGL_BUFFER_DESTROYED;
    return surface != EGL_NO_SURFACE &&
           Next<PFNEGLQUERYSURFACEPROC>(api::eglQuerySurface)(dpy, surface, EGL_SWAP_BEHAVIOR, &behavior) &&
           behavior == EGL_BUFFER_PRESERVED;
  }

  const int version_;
  const bool at_frame_start_;
  mutable std::map<uint64_t, GLenum> targets_;
};

// A made-up call into the trace, laid out as the generated recorders lay
// out every call (call_writer.h): per parameter its word, and for a data
// pointer its bytes; the times; the reply's result and output bytes.
void WriteMadeUpCall(const stream::DecodedCall& call) {
  const api::FunctionInfo& info = api::kFunctions[call.slot];
  CallWriter w(call.slot, call.has_reply, true, stream::kCallSynthesized);
  auto scalar = [&w](api::ArgKind kind, const stream::DecodedValue& v) {
    switch (kind) {
      case api::ArgKind::kInt: w.Signed(v.i); break;
      case api::ArgKind::kFloat: w.Float(static_cast<float>(v.f)); break;
      case api::ArgKind::kDouble: w.Double(v.f); break;
      default: w.Unsigned(v.u); break;
    }
  };
  for (int i = 0; i < info.param_count; ++i) {
    const stream::DecodedValue& v = call.args[static_cast<size_t>(i)];
    scalar(info.params[i].kind, v);
    if (!stream::IsDataPointer(info.params[i].kind)) continue;
    if (v.has_in) {
      w.Bytes(v.in.data(), v.in.size());
    } else {
      w.NoBlob();
    }
  }
  w.StartCall();
  w.EndCall();
  if (call.has_reply) {
    if (info.return_kind != api::ArgKind::kVoid) scalar(info.return_kind, call.result);
    for (int i = 0; i < info.param_count; ++i) {
      if (!stream::IsDataPointer(info.params[i].kind)) continue;
      const stream::DecodedValue& v = call.args[static_cast<size_t>(i)];
      if (v.has_out) {
        w.Bytes(v.out.data(), v.out.size());
      } else {
        w.NoBlob();
      }
    }
  }
  w.Commit();
}

// GLES 1.1's: each named array and each unit's texture coordinates.
void LearnGles1ClientArrays(ContextState& state) {
  auto is_enabled = Next<PFNGLISENABLEDPROC>(api::glIsEnabled);
  auto get_pointer = Next<void (*)(GLenum, void**)>(api::glGetPointerv);
  auto client_active = Next<void (*)(GLenum)>(api::glClientActiveTexture);
  auto get_integer = Next<PFNGLGETINTEGERVPROC>(api::glGetIntegerv);
  auto get_error = Next<PFNGLGETERRORPROC>(api::glGetError);
  auto learn = [&](const api::ClientArrayQueries& q) {
    const glstate::ClientArray a = glstate::ReadClientArray(get_integer, is_enabled, get_pointer, get_error, q);
    if (!a.known) return;  // GL_POINT_SIZE_ARRAY_OES without its extension
    state.arrays.SetGles1Pointer(q.array, a.size, static_cast<GLenum>(a.type), a.stride, a.pointer, a.buffer == 0);
    state.arrays.Enable(state.arrays.Gles1Slot(q.array), a.enabled);
  };
  for (const api::ClientArrayQueries& q : api::kClientArrayQueries) learn(q);
  const GLint saved_unit = QueryInteger(GL_CLIENT_ACTIVE_TEXTURE);
  const GLint units = std::min(QueryInteger(GL_MAX_TEXTURE_UNITS), 8);
  for (GLint unit = 0; unit < units; ++unit) {
    client_active(GL_TEXTURE0 + static_cast<GLenum>(unit));
    state.arrays.SetClientActiveTexture(GL_TEXTURE0 + static_cast<GLenum>(unit));
    learn(api::kTexCoordArrayQueries);
  }
  client_active(static_cast<GLenum>(saved_unit));
  state.arrays.SetClientActiveTexture(static_cast<GLenum>(saved_unit));
}

// The client-side vertex arrays of vertex array object 0 the app set while
// the tracer was off: the tracer must know them to record what draws read.
void LearnClientArrays(ContextState& state, int version) {
  if (version < 20) return LearnGles1ClientArrays(state);
  GLint vertex_array = 0;
  auto bind_vertex_array = Next<PFNGLBINDVERTEXARRAYPROC>(api::glBindVertexArray);
  if (version >= 30) {
    vertex_array = QueryInteger(GL_VERTEX_ARRAY_BINDING);
    bind_vertex_array(0);
  }
  auto get = Next<PFNGLGETVERTEXATTRIBIVPROC>(api::glGetVertexAttribiv);
  auto get_pointer = Next<PFNGLGETVERTEXATTRIBPOINTERVPROC>(api::glGetVertexAttribPointerv);
  const GLint attributes = std::min<GLint>(QueryInteger(GL_MAX_VERTEX_ATTRIBS), capture::ClientArrays::kSlots);
  for (GLint i = 0; i < attributes; ++i) {
    const glstate::AttributeArray a =
        glstate::ReadAttributeArray(get, get_pointer, static_cast<GLuint>(i), version >= 30);
    state.arrays.SetPointer(i, a.size, static_cast<GLenum>(a.type), a.stride, a.pointer, a.buffer == 0);
    state.arrays.Enable(i, a.enabled != 0);
    state.arrays.SetDivisor(i, static_cast<GLuint>(a.divisor));
  }
  if (version >= 30) bind_vertex_array(static_cast<GLuint>(vertex_array));
}

}  // namespace

void SynthesizeContextSnapshot(bool at_frame_start) {
  ContextState* state = CurrentContextState();
  const uint32_t session = TraceSession::Get().session_number();
  // Only a context made before this trace began holds what the trace lacks.
  if (state == nullptr || state->synthesized != session || state->snapshot_session == session) return;
  state->snapshot_session = session;
  TracerGlCalls tracer_calls;  // the app's pending error waits for its next glGetError
  const int version = snapshot::SnapshotVersion(state->client_version);
  LiveContext live(version, at_frame_start);
  snapshot::SnapshotResult result;
  std::string error;
  // A share group's objects go with the first of its contexts to join the
  // trace, and one snapshot is written at a time: threads joining at once
  // (a frame range begins, an attach) would otherwise interleave their
  // made-up calls, and a context of the group could bind an object before
  // the first has written its creation.
  static std::mutex mutex;
  static std::map<uint64_t, uint32_t> groups_written;  // share group root -> session
  std::lock_guard<std::mutex> lock(mutex);
  snapshot::SnapshotScope scope = snapshot::SnapshotScope::kObjectsAndContext;
  uint32_t& written = groups_written[ShareGroupRoot(state->handle)];
  if (written == session) scope = snapshot::SnapshotScope::kContextOnly;
  written = session;
  if (!snapshot::TakeSnapshot(live, &result, &error, scope)) {
    Log(LogLevel::kWarning,
        "trace: no snapshot of the context current when tracing began (%s); objects it made before are missing "
        "from the trace",
        error.c_str());
    return;
  }
  for (const stream::DecodedCall& call : result.calls.calls()) WriteMadeUpCall(call);
  LearnClientArrays(*state, version);
  for (const std::string& line : result.not_carried) Log(LogLevel::kInfo, "trace: snapshot: not carried: %s", line.c_str());
  Log(LogLevel::kInfo,
      "trace: snapshot of the context current when tracing began: %zu made-up calls, %llu bytes (the process keeps "
      "%llu bytes of uploads GLES cannot give back for snapshots)",
      result.calls.size(), static_cast<unsigned long long>(result.calls.data_bytes()),
      static_cast<unsigned long long>(ShadowedBytes()));
}

}  // namespace strata::trace
