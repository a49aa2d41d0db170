// Hand-written parts of tracing that a per-function rule cannot say: context
// tracking, client-side vertex arrays captured at draw time, mapped buffer
// ranges captured at flush/unmap, and frame boundaries. Declared (from the
// registry's signatures) in the generated trace_hook_declarations.inc.
#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "common/vertex_formats.h"
#include "layers/trace/app_errors.h"
#include "layers/trace/attach_snapshot.h"
#include "layers/trace/context_state.h"
#include "layers/trace/final_frame.h"
#include "layers/trace/frame_range.h"
#include "layers/trace/framebuffer_capture.h"
#include "layers/trace/surface_sizes.h"
#include "layers/trace/trace_session.h"
#include "layers/trace/trace_wrappers.h"

namespace strata::trace {
namespace {

bool OnVertexArrayZero() { return CurrentContextVersion() < 3 || QueryInteger(GL_VERTEX_ARRAY_BINDING) == 0; }

// The bounds of a draw's indices: read from app memory, or from the bound
// element buffer (GLES 3 can map it for reading).
class TracedIndices final : public capture::IndexReader {
 public:
  bool Bounds(const void* indices, GLsizei count, GLenum type, uint32_t* lowest, uint32_t* highest) override {
    if (count <= 0) return false;
    if (element_buffer_ < 0) element_buffer_ = QueryInteger(GL_ELEMENT_ARRAY_BUFFER_BINDING);
    if (element_buffer_ == 0) return capture::IndexBounds(indices, static_cast<size_t>(count), type, lowest, highest);
    if (CurrentContextVersion() < 3) return false;  // GLES 2 cannot read buffer contents back
    const size_t size = capture::CaptureSizes::index_bytes(count, type);
    if (size == 0) return false;
    void* mapped = Next<PFNGLMAPBUFFERRANGEPROC>(api::glMapBufferRange)(
        GL_ELEMENT_ARRAY_BUFFER, reinterpret_cast<GLintptr>(indices), static_cast<GLsizeiptr>(size), GL_MAP_READ_BIT);
    if (mapped == nullptr) return false;
    const bool found = capture::IndexBounds(mapped, static_cast<size_t>(count), type, lowest, highest);
    Next<PFNGLUNMAPBUFFERPROC>(api::glUnmapBuffer)(GL_ELEMENT_ARRAY_BUFFER);
    return found;
  }
  bool InBuffer() {
    if (element_buffer_ < 0) element_buffer_ = QueryInteger(GL_ELEMENT_ARRAY_BUFFER_BINDING);
    return element_buffer_ != 0;
  }

 private:
  GLint element_buffer_ = -1;  // asked once a draw
};

constexpr GLbitfield kMapPersistentBit = 0x0040;  // GL_MAP_PERSISTENT_BIT_EXT (EXT_buffer_storage)

void RememberMapping(void* pointer, GLenum target, GLsizeiptr length, GLbitfield access) {
  ContextState* state = CurrentContextState();
  if (state == nullptr || pointer == nullptr || !(access & GL_MAP_WRITE_BIT) || length <= 0) return;
  MappedRange& range = state->mapped[BoundBuffer(target)];
  if (range.access & kMapPersistentBit) --state->persistent_mappings;
  range = {static_cast<uint8_t*>(pointer), length, access, {}};
  if (access & kMapPersistentBit) ++state->persistent_mappings;
}


void CaptureMapped(GLenum target, GLintptr offset, GLsizeiptr length, bool flush) {
  ContextState* state = CurrentContextState();
  if (state == nullptr) return;
  auto it = state->mapped.find(BoundBuffer(target));
  if (it == state->mapped.end()) return;
  const MappedRange& range = it->second;
  bool explicit_flush = range.access & GL_MAP_FLUSH_EXPLICIT_BIT;
  if (flush) {
    if (offset >= 0 && length >= 0 && offset + length <= range.length) EmitMemory(range.pointer + offset, length);
  } else if (!explicit_flush) {
    EmitMemory(range.pointer, static_cast<size_t>(range.length));
  }
}

void ForgetMapping(GLenum target) {
  ContextState* state = CurrentContextState();
  if (state == nullptr) return;
  auto it = state->mapped.find(BoundBuffer(target));
  if (it == state->mapped.end()) return;
  if (it->second.access & kMapPersistentBit) --state->persistent_mappings;
  state->mapped.erase(it);
}

}  // namespace

// The draws' hooks are inline in their recorders (draw_hooks.h); what they
// call only when a context has client-side arrays or persistent mappings:

// Records the client-side arrays a draw over vertices [first, end) and
// `instances` instances will read.
void RecordClientArrays(ContextState& state, int64_t first, int64_t end, int64_t instances) {
  if (!OnVertexArrayZero()) return;
  for (auto [begin, size] : state.arrays.Ranges(first, end, instances)) EmitMemory(begin, size);
}
void RecordIndexedClientArrays(ContextState& state, GLsizei count, GLenum type, const void* indices,
                               int64_t instances, GLint base_vertex) {
  const capture::DrawCall draw{1, nullptr, &count, type, &indices, &base_vertex, instances};
  TracedIndices reader;
  int64_t first = 0, end = 0;
  if (capture::VertexSpan(draw, reader, &first, &end)) RecordClientArrays(state, first, end, instances);
}
// A multi-draw's index arrays in app memory (with no element buffer bound),
// then the client-side arrays its draws read.
void RecordMultiDraw(ContextState& state, const capture::DrawCall& draw) {
  TracedIndices reader;
  if (draw.indices != nullptr && !reader.InBuffer()) {
    for (auto [begin, size] : capture::IndexArrays(draw)) EmitMemory(begin, size);
  }
  int64_t first = 0, end = 0;
  if (state.arrays.AnyInClientMemory() && capture::VertexSpan(draw, reader, &first, &end)) {
    RecordClientArrays(state, first, end, draw.instances);
  }
}
// Before a draw: what the app wrote into persistent mappings since the last
// draw (the whole range the first time), as memory records.
void RecordPersistentMappings(ContextState& state) {
  for (auto& [buffer, range] : state.mapped) {
    if (!(range.access & kMapPersistentBit)) continue;
    const size_t length = static_cast<size_t>(range.length);
    if (range.recorded.size() != length) {
      EmitMemory(range.pointer, length);
      range.recorded.assign(range.pointer, range.pointer + length);
      continue;
    }
    // Whole blocks compared with memcmp first: mappings can be megabytes, and most draws change little.
    constexpr size_t kBlock = 4096;
    const uint8_t* now = range.pointer;
    const uint8_t* then = range.recorded.data();
    size_t first = 0;
    while (first + kBlock <= length && std::memcmp(now + first, then + first, kBlock) == 0) first += kBlock;
    while (first < length && now[first] == then[first]) ++first;
    if (first == length) continue;
    size_t end = length;
    while (end - first >= kBlock && std::memcmp(now + end - kBlock, then + end - kBlock, kBlock) == 0) end -= kBlock;
    while (now[end - 1] == then[end - 1]) --end;
    EmitMemory(range.pointer + first, end - first);
    std::memcpy(range.recorded.data() + first, range.pointer + first, end - first);
  }
}

// Mapped buffers: what the app wrote is captured when it is flushed or unmapped
// (persistent mappings also before each draw, above).
void After_glMapBufferRange(void* result, GLenum target, GLintptr, GLsizeiptr length, GLbitfield access) {
  RememberMapping(result, target, length, access);
}
void After_glMapBufferOES(void* result, GLenum target, GLenum) {
  GLint size = 0;
  Next<PFNGLGETBUFFERPARAMETERIVPROC>(api::glGetBufferParameteriv)(target, GL_BUFFER_SIZE, &size);
  RememberMapping(result, target, size, GL_MAP_WRITE_BIT);
}
void Before_glFlushMappedBufferRange(GLenum target, GLintptr offset, GLsizeiptr length) {
  CaptureMapped(target, offset, length, true);
}
void Before_glUnmapBuffer(GLenum target) { CaptureMapped(target, 0, 0, false); }
void After_glUnmapBuffer(GLboolean, GLenum target) { ForgetMapping(target); }

// Client-side vertex array state (vertex array object 0 only: others cannot
// use app memory), from every call whose client-array trait says it changes it.
void NoteClientArrays(const capture::ArrayCall& call) {
  ContextState* state = CurrentContextState();
  if (state == nullptr) return;
  if (call.op != api::ClientArrayOp::kClientTexture && !OnVertexArrayZero()) return;
  const bool pointer = call.op == api::ClientArrayOp::kPointer || call.op == api::ClientArrayOp::kGles1Pointer;
  state->arrays.Apply(call, pointer && BufferBound(GL_ARRAY_BUFFER));
}

// Contexts and frames. A context the trace has not seen created gets a
// made-up eglCreateContext first, so a replayer can create it.
namespace {

void DescribeConfig(EGLDisplay dpy, EGLConfig config);

void SynthesizeCreateContext(EGLDisplay dpy, EGLContext ctx) {
  // Threads joining a trace at once may make up the same context (one's own,
  // another's share root): the one that finds it made up goes on to record
  // calls in it, which must come after its creation.
  static std::recursive_mutex mutex;
  std::lock_guard<std::recursive_mutex> lock(mutex);
  ContextState& state = StateOf(reinterpret_cast<uintptr_t>(ctx));
  if (state.session == TraceSession::Get().session_number()) return;
  state.session = TraceSession::Get().session_number();
  state.synthesized = state.session;
  // The context it shares objects with is made first, so that the replay's share groups are the app's.
  uint64_t share = state.shares_with;
  if (share != 0 && !StateOf(share).made) share = 0;  // destroyed since
  if (share != 0) SynthesizeCreateContext(dpy, reinterpret_cast<EGLContext>(share));
  EGLint config_id = 0, version = 2;
  Next<PFNEGLQUERYCONTEXTPROC>(api::eglQueryContext)(dpy, ctx, EGL_CONFIG_ID, &config_id);
  Next<PFNEGLQUERYCONTEXTPROC>(api::eglQueryContext)(dpy, ctx, EGL_CONTEXT_CLIENT_VERSION, &version);
  const EGLint by_id[] = {EGL_CONFIG_ID, config_id, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint count = 0;
  Next<PFNEGLCHOOSECONFIGPROC>(api::eglChooseConfig)(dpy, by_id, &config, 1, &count);
  if (count > 0) DescribeConfig(dpy, config);
  const EGLint attribs[] = {EGL_CONTEXT_CLIENT_VERSION, version, EGL_NONE};
  // Laid out as the generated recorder of eglCreateContext lays it out.
  CallWriter w(api::eglCreateContext, true, true, stream::kCallSynthesized);
  w.Pointer(reinterpret_cast<uintptr_t>(dpy));
  w.Pointer(reinterpret_cast<uintptr_t>(config));
  w.Pointer(share);
  w.Pointer(reinterpret_cast<uintptr_t>(attribs));
  w.InBlob(attribs, [] { return sizeof attribs; });
  w.StartCall();
  w.EndCall();
  w.Pointer(reinterpret_cast<uintptr_t>(ctx));
  w.NoBlob();
  w.Commit();
}

}  // namespace

void DescribeContext();

namespace {

// The format of a config, once per config and trace. Written under the lock:
// a thread that finds the config described goes on to record a surface or
// context of it, which must come after the description (threads joining a
// trace at once describe the same config).
void DescribeConfig(EGLDisplay dpy, EGLConfig config) {
  static std::mutex mu;
  static std::map<EGLConfig, uint64_t> described;  // config -> session
  std::lock_guard<std::mutex> lock(mu);
  uint64_t& session = described[config];
  if (session == TraceSession::Get().session_number()) return;
  session = TraceSession::Get().session_number();
  std::vector<std::pair<int32_t, int32_t>> attributes;
  for (EGLint name : {EGL_CONFIG_ID, EGL_BUFFER_SIZE, EGL_RED_SIZE, EGL_GREEN_SIZE, EGL_BLUE_SIZE, EGL_ALPHA_SIZE,
                      EGL_DEPTH_SIZE, EGL_STENCIL_SIZE, EGL_SAMPLE_BUFFERS, EGL_SAMPLES, EGL_RENDERABLE_TYPE,
                      EGL_SURFACE_TYPE, EGL_COLOR_BUFFER_TYPE}) {
    EGLint value = 0;
    if (Next<PFNEGLGETCONFIGATTRIBPROC>(api::eglGetConfigAttrib)(dpy, config, name, &value)) {
      attributes.emplace_back(name, value);
    }
  }
  EmitConfigInfo(reinterpret_cast<uintptr_t>(config), attributes);
}

}  // namespace

void SynthesizeCurrentContext(bool at_frame_start) {
  EGLContext ctx = Next<PFNEGLGETCURRENTCONTEXTPROC>(api::eglGetCurrentContext)();
  if (ctx == EGL_NO_CONTEXT) return;
  EGLDisplay dpy = Next<PFNEGLGETCURRENTDISPLAYPROC>(api::eglGetCurrentDisplay)();
  EGLSurface draw = Next<PFNEGLGETCURRENTSURFACEPROC>(api::eglGetCurrentSurface)(EGL_DRAW);
  EGLSurface read = Next<PFNEGLGETCURRENTSURFACEPROC>(api::eglGetCurrentSurface)(EGL_READ);
  SynthesizeCreateContext(dpy, ctx);
  EGLint version = 0;
  Next<PFNEGLQUERYCONTEXTPROC>(api::eglQueryContext)(dpy, ctx, EGL_CONTEXT_CLIENT_VERSION, &version);
  SetStreamContext(MakeContextCurrent(reinterpret_cast<uintptr_t>(ctx), version));
  DescribeSurface(dpy, draw);
  if (read != draw) DescribeSurface(dpy, read);
  {
    CallWriter w(api::eglMakeCurrent, true, true, stream::kCallSynthesized);
    for (void* handle : {static_cast<void*>(dpy), static_cast<void*>(draw), static_cast<void*>(read),
                         static_cast<void*>(ctx)}) {
      w.Pointer(reinterpret_cast<uintptr_t>(handle));
    }
    w.StartCall();
    w.EndCall();
    w.Unsigned(EGL_TRUE);
    w.Commit();
  }
  DescribeContext();
  NoteContextCurrent();
  SynthesizeContextSnapshot(at_frame_start);
  ArmFinalFrameAtExit();
}

// Every swap ends a frame (its swap trait): framebuffer capture and the
// app's GL error before it, the frame record after it.
void BeforeSwap() {
  RecordErrorAtFrameEnd(true);
  if (CaptureAtSwap()) {
    CaptureSurface();
  } else if (CaptureFinalFrame() && InLastFrameOfRange(TraceSession::frame())) {
    CaptureSurface(true);  // a frame range's trace ends here: what the app shows last
  }
}
void AfterSwap() {
  NoteSwapped();
  NoteSurfaceSwapped();
  const uint32_t ended = EmitFrameEnd();
  AfterTracedFrameEnd(ended);
}

// The final frame, before the thread gives its context up.
void Before_eglReleaseThread() { CaptureFinalFrameIfDue(); }
void Before_eglDestroyContext(EGLDisplay, EGLContext ctx) {
  if (ctx != EGL_NO_CONTEXT && ctx == Next<PFNEGLGETCURRENTCONTEXTPROC>(api::eglGetCurrentContext)()) {
    CaptureFinalFrameIfDue();
  }
}
void Before_eglTerminate(EGLDisplay dpy) {
  if (dpy != EGL_NO_DISPLAY && dpy == Next<PFNEGLGETCURRENTDISPLAYPROC>(api::eglGetCurrentDisplay)()) {
    CaptureFinalFrameIfDue();
  }
}

void Before_eglMakeCurrent(EGLDisplay dpy, EGLSurface, EGLSurface, EGLContext ctx) {
  if (ctx != EGL_NO_CONTEXT) SynthesizeCreateContext(dpy, ctx);
  else CaptureFinalFrameIfDue();
}
void NoteContextMade(EGLContext result, EGLContext share_context) {
  ContextState& state = StateOf(reinterpret_cast<uintptr_t>(result));
  state.made = true;
  state.shares_with = reinterpret_cast<uintptr_t>(share_context);
}
void After_eglCreateContext(EGLContext result, EGLDisplay, EGLConfig, EGLContext share_context, const EGLint*) {
  if (result == EGL_NO_CONTEXT) return;
  NoteContextMade(result, share_context);
  StateOf(reinterpret_cast<uintptr_t>(result)).session = TraceSession::Get().session_number();
}
void ShadowResult_eglCreateContext(EGLContext result, EGLDisplay, EGLConfig, EGLContext share_context,
                                   const EGLint*) {
  if (result != EGL_NO_CONTEXT) NoteContextMade(result, share_context);
}
// The driver's strings for a context, once per trace.
void DescribeContext() {
  ContextState* state = CurrentContextState();
  if (state == nullptr || state->described == TraceSession::Get().session_number()) return;
  state->described = TraceSession::Get().session_number();
  auto get_string = Next<PFNGLGETSTRINGPROC>(api::glGetString);
  std::vector<std::pair<std::string, std::string>> info;
  for (auto [name, key] : {std::pair{GL_VENDOR, "GL_VENDOR"}, std::pair{GL_RENDERER, "GL_RENDERER"},
                           std::pair{GL_VERSION, "GL_VERSION"}}) {
    const GLubyte* value = get_string(name);
    if (value) info.emplace_back(key, reinterpret_cast<const char*>(value));
  }
  info.emplace_back("client_version", std::to_string(state->client_version));
  EmitContextInfo(info);
}

void After_eglMakeCurrent(EGLBoolean result, EGLDisplay dpy, EGLSurface draw, EGLSurface read, EGLContext ctx) {
  if (!result) return;
  EGLint version = 0;
  if (ctx != EGL_NO_CONTEXT) {
    Next<PFNEGLQUERYCONTEXTPROC>(api::eglQueryContext)(dpy, ctx, EGL_CONTEXT_CLIENT_VERSION, &version);
  }
  SetStreamContext(MakeContextCurrent(reinterpret_cast<uintptr_t>(ctx), version));
  if (ctx != EGL_NO_CONTEXT) {
    DescribeContext();
    NoteContextCurrent();
    NoteSurfacesCurrent(dpy, draw, read);
    SynthesizeContextSnapshot();  // a context made before tracing began: what it holds
    ArmFinalFrameAtExit();
  }
}
void After_eglDestroySurface(EGLBoolean result, EGLDisplay, EGLSurface surface) {
  if (result) ForgetSurface(surface);
}
void After_eglReleaseThread(EGLBoolean result) {
  if (!result) return;
  SetStreamContext(0);
  MakeContextCurrent(0, 0);
}
void After_eglDestroyContext(EGLBoolean result, EGLDisplay, EGLContext ctx) {
  if (result) ForgetContext(reinterpret_cast<uintptr_t>(ctx));
}
// Configs: a replayer on another display picks one of the same format.
void Before_eglCreateContext(EGLDisplay dpy, EGLConfig config, EGLContext, const EGLint*) {
  if (config != nullptr) DescribeConfig(dpy, config);
}
// Surfaces: the config's format before the call; after it, for windows and
// pixmaps, their size (a replayer makes surfaces of its own of that size).
// Every creating function takes (display, config, ...).
#define STRATA_SURFACE_CONFIG(name, rest)                               \
  void Before_##name(EGLDisplay dpy, EGLConfig config, STRATA_UNPACK rest) { DescribeConfig(dpy, config); }
#define STRATA_SURFACE_SIZE(name, rest)                                                   \
  void After_##name(EGLSurface result, EGLDisplay dpy, EGLConfig, STRATA_UNPACK rest) { \
    DescribeSurface(dpy, result);                                                       \
  }
#define STRATA_UNPACK(...) __VA_ARGS__
#define STRATA_SURFACE(name, rest) STRATA_SURFACE_CONFIG(name, rest) STRATA_SURFACE_SIZE(name, rest)
STRATA_SURFACE(eglCreateWindowSurface, (EGLNativeWindowType, const EGLint*))
STRATA_SURFACE(eglCreatePlatformWindowSurface, (void*, const EGLAttrib*))
STRATA_SURFACE(eglCreatePlatformWindowSurfaceEXT, (void*, const EGLint*))
STRATA_SURFACE(eglCreatePixmapSurface, (EGLNativePixmapType, const EGLint*))
STRATA_SURFACE(eglCreatePlatformPixmapSurface, (void*, const EGLAttrib*))
STRATA_SURFACE(eglCreatePlatformPixmapSurfaceEXT, (void*, const EGLint*))
STRATA_SURFACE_CONFIG(eglCreatePbufferSurface, (const EGLint*))
#undef STRATA_SURFACE
#undef STRATA_SURFACE_SIZE
#undef STRATA_SURFACE_CONFIG
#undef STRATA_UNPACK

}  // namespace strata::trace
