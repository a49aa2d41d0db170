#include "trim/replayed_context.h"

#include <EGL/egl.h>
#include <GLES2/gl2ext.h>

#include <algorithm>
#include <cstring>

#include "snapshot/context_snapshot.h"
#include "glstate/shader_state.h"
#include "strata/api/parameters.h"
#include "strata/api/traits.h"

namespace strata::trim {
namespace {

using api::ObjectClass;

std::vector<uint32_t> Names(const stream::DecodedValue& count, const stream::DecodedValue& names) {
  std::vector<uint32_t> out;
  if (!names.has_in) return out;
  const size_t n = std::min<size_t>(static_cast<size_t>(std::max<int64_t>(count.i, 0)), names.in.size() / 4);
  for (size_t i = 0; i < n; ++i) {
    uint32_t name;
    std::memcpy(&name, names.in.data() + i * 4, 4);
    out.push_back(name);
  }
  return out;
}

// What a call that changes the bound texture's images (its
// changes-texture-images trait) says of them: whether it defines a level's
// format (and which parameter holds it), whether that format is always one
// the driver cannot give back, whether the images come from the framebuffer.
struct UploadCall {
  int format_param = -1;  // -1: it changes contents, not the format
  bool never_read_back = false;
  bool from_framebuffer = false;
};

UploadCall UploadCallOf(int slot) {
  UploadCall upload;
  const api::FunctionInfo& info = api::kFunctions[slot];
  for (int i = 0; i < info.param_count; ++i) {
    if (std::strcmp(info.params[i].name, "internalformat") == 0) upload.format_param = i;
  }
  upload.never_read_back = api::kTraits[slot].upload == api::Upload::kCompressedImage;
  upload.from_framebuffer = api::HasTrait(slot, api::kReadsPixels);
  return upload;
}

}  // namespace

void StreamFacts::BeforeCall(host::Executor& executor, const stream::DecodedCall& call) {
  const auto& a = call.args;
  // Asked only by the calls below that name objects.
  auto group = [&] { return executor.CurrentShareGroup(static_cast<uint32_t>(call.thread)); };
  switch (api::CoreOf(call.slot)) {  // an alias is its core (glProgramBinaryOES is glProgramBinary)
    case api::eglMakeCurrent:
      if (a.size() == 4) current_[call.thread] = {a[0].u, a[1].u, a[2].u, a[3].u};
      return;
    case api::eglReleaseThread:
      current_.erase(call.thread);
      return;
    case api::eglCreateContext:
      if (call.has_reply && call.result.u != 0) live_contexts_.insert(call.result.u);
      return;
    case api::eglDestroyContext:
      if (a.size() == 2) live_contexts_.erase(a[1].u);
      return;
    case api::glBindTexture:
      if (a.size() == 2 && a[1].u != 0) texture_targets_.emplace(ObjectKey(group(), a[1].u), static_cast<GLenum>(a[0].u));
      return;
    case api::glDeleteTextures:
      if (a.size() == 2) {
        const uint64_t of = group();
        for (uint32_t name : Names(a[0], a[1])) {
          texture_targets_.erase(ObjectKey(of, name));
          kept_.erase(ObjectKey(of, name));
        }
      }
      return;
    case api::glDeleteBuffers:
      if (a.size() == 2) {
        const uint64_t of = group();
        for (uint32_t name : Names(a[0], a[1])) kept_buffers_.erase(ObjectKey(of, name));
      }
      return;
    case api::glBufferData:
    case api::glBufferSubData:
      if (executor.CurrentVersion(static_cast<uint32_t>(call.thread)) == 1) BufferUpload(executor, call);
      return;
    case api::glDeleteProgram:
      if (a.size() == 1) linked_.erase(ObjectKey(group(), a[0].u));
      return;
    case api::glProgramBinary:
      if (!a.empty()) linked_.erase(ObjectKey(group(), a[0].u));
      return;
    case api::glLinkProgram: {
      if (a.size() != 1) return;
      // Read now: the app may detach and delete the shaders once linked.
      const host::HostDriver& gl = executor.driver();
      const GLuint program = static_cast<GLuint>(executor.HostName(static_cast<uint32_t>(call.thread),
                                                                  ObjectClass::kProgram, a[0].u));
      linked_[ObjectKey(group(), a[0].u)] = glstate::ReadAttachedShaders(
          {gl.Get<PFNGLGETSHADERIVPROC>(api::glGetShaderiv), gl.Get<PFNGLGETSHADERSOURCEPROC>(api::glGetShaderSource),
           gl.Get<PFNGLGETATTACHEDSHADERSPROC>(api::glGetAttachedShaders)},
          program);
      return;
    }
    default:
      if (api::HasTrait(call.slot, api::kChangesTextureImages)) TextureUpload(executor, call);
      return;
  }
}

void StreamFacts::TextureUpload(host::Executor& executor, const stream::DecodedCall& call) {
  const UploadCall upload = UploadCallOf(call.slot);
  if (call.args.empty()) return;
  const host::HostDriver& gl = executor.driver();
  auto get = gl.Get<PFNGLGETINTEGERVPROC>(api::glGetIntegerv);
  const GLenum binding = api::TextureBindingOf(static_cast<GLenum>(call.args[0].u));
  if (binding == 0) return;
  GLint host = 0;
  get(binding, &host);
  if (host == 0) return;
  const ObjectKey texture(executor.CurrentShareGroup(static_cast<uint32_t>(call.thread)),
                          executor.StreamName(static_cast<uint32_t>(call.thread), ObjectClass::kTexture,
                                              static_cast<uint64_t>(host)));
  auto kept = kept_.find(texture);
  if (kept == kept_.end()) {
    if (upload.format_param < 0 || static_cast<size_t>(upload.format_param) >= call.args.size()) return;
    const stream::DecodedValue& value = call.args[upload.format_param];  // a GLint or a GLenum
    const GLenum format = static_cast<GLenum>(value.kind == api::ArgKind::kInt ? static_cast<uint64_t>(value.i) : value.u);
    const bool gles1 = executor.CurrentVersion(static_cast<uint32_t>(call.thread)) == 1;  // reads nothing back
    if (!upload.never_read_back && snapshot::ImagesReadBack(format) && !gles1) return;
    kept = kept_.emplace(texture, std::make_unique<KeptTexture>()).first;
  }
  KeptTexture& texture_uploads = *kept->second;
  GLint unpack_buffer = 0;
  if (executor.CurrentVersion(static_cast<uint32_t>(call.thread)) >= 3) get(GL_PIXEL_UNPACK_BUFFER_BINDING, &unpack_buffer);
  if (upload.from_framebuffer || unpack_buffer != 0) {
    texture_uploads.uploads.from_buffer = true;
    return;
  }
  snapshot::RecordedUpload recorded;
  recorded.call = &texture_uploads.calls.Copy(call);
  GLint value = 0;
  get(GL_UNPACK_ALIGNMENT, &value);
  recorded.unpack.emplace_back(GL_UNPACK_ALIGNMENT, value);
  if (executor.CurrentVersion(static_cast<uint32_t>(call.thread)) >= 3) {
    for (GLenum pname : {GL_UNPACK_ROW_LENGTH, GL_UNPACK_IMAGE_HEIGHT, GL_UNPACK_SKIP_ROWS, GL_UNPACK_SKIP_PIXELS,
                         GL_UNPACK_SKIP_IMAGES}) {
      get(pname, &value);
      recorded.unpack.emplace_back(pname, value);
    }
  }
  texture_uploads.uploads.uploads.push_back(std::move(recorded));
}

void StreamFacts::BufferUpload(host::Executor& executor, const stream::DecodedCall& call) {
  if (call.args.empty()) return;
  const GLenum target = static_cast<GLenum>(call.args[0].u);
  if (target != GL_ARRAY_BUFFER && target != GL_ELEMENT_ARRAY_BUFFER) return;
  GLint host = 0;
  executor.driver().Get<PFNGLGETINTEGERVPROC>(api::glGetIntegerv)(
      target == GL_ARRAY_BUFFER ? GL_ARRAY_BUFFER_BINDING : GL_ELEMENT_ARRAY_BUFFER_BINDING, &host);
  if (host == 0) return;
  const ObjectKey buffer(executor.CurrentShareGroup(static_cast<uint32_t>(call.thread)),
                         executor.StreamName(static_cast<uint32_t>(call.thread), ObjectClass::kBuffer,
                                             static_cast<uint64_t>(host)));
  std::unique_ptr<KeptBuffer>& kept = kept_buffers_[buffer];
  // New storage makes every earlier upload moot.
  if (kept == nullptr || call.slot == api::glBufferData) kept = std::make_unique<KeptBuffer>();
  kept->uploads.push_back(&kept->calls.Copy(call));
}

const std::vector<const stream::DecodedCall*>* StreamFacts::BufferUploadsOf(uint64_t group, uint64_t buffer) const {
  auto it = kept_buffers_.find(ObjectKey(group, buffer));
  return it == kept_buffers_.end() ? nullptr : &it->second->uploads;
}

GLenum StreamFacts::TextureTarget(uint64_t group, uint64_t texture) const {
  auto it = texture_targets_.find(ObjectKey(group, texture));
  return it == texture_targets_.end() ? 0 : it->second;
}

const std::vector<snapshot::LinkedShader>* StreamFacts::LinkedShaders(uint64_t group, uint64_t program) const {
  auto it = linked_.find(ObjectKey(group, program));
  return it == linked_.end() ? nullptr : &it->second;
}

const snapshot::TextureUploads* StreamFacts::UploadsOf(uint64_t group, uint64_t texture) const {
  auto it = kept_.find(ObjectKey(group, texture));
  return it == kept_.end() ? nullptr : &it->second->uploads;
}

bool ReplayedContext::SurfacePixels(int* width, int* height, std::vector<uint8_t>* rgba) const {
  if (!carry_surface_) return false;
  // At a frame's start only a surface whose contents survive the swap
  // (EGL_BUFFER_PRESERVED) has any.
  const host::HostDriver& egl = executor_.driver();
  EGLDisplay display = egl.Get<PFNEGLGETCURRENTDISPLAYPROC>(api::eglGetCurrentDisplay)();
  EGLSurface surface = egl.Get<PFNEGLGETCURRENTSURFACEPROC>(api::eglGetCurrentSurface)(EGL_DRAW);
  EGLint behavior = EGL_BUFFER_DESTROYED;
  if (surface == EGL_NO_SURFACE) return false;
  if (!mid_frame_ &&
      (!egl.Get<PFNEGLQUERYSURFACEPROC>(api::eglQuerySurface)(display, surface, EGL_SWAP_BEHAVIOR, &behavior) ||
       behavior != EGL_BUFFER_PRESERVED)) {
    return false;
  }
  host::RgbaImage image;
  std::string error;
  if (!executor_.ReadSurface(thread_, &image, &error)) return false;
  *width = image.width;
  *height = image.height;
  *rgba = std::move(image.pixels);
  return true;
}

int ReplayedContext::Version() const { return snapshot::SnapshotVersion(executor_.CurrentVersion(thread_)); }

}  // namespace strata::trim
