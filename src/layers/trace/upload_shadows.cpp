#include "layers/trace/upload_shadows.h"

#include <EGL/egl.h>
#include <GLES3/gl32.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>

#include "layers/trace/app_errors.h"
#include "layers/trace/next_functions.h"
#include "layers/trace/trace_wrappers.h"
#include "snapshot/call_list.h"
#include "strata/api/parameters.h"
#include "stream/capture_sizes.h"

namespace strata::trace {
namespace {

struct Upload {
  GLenum target;  // the face, for a cube map
  GLint level;
  bool defines;  // glCompressedTexImage*, or glTexImage2D: the image's format and size
  std::vector<std::pair<GLenum, GLint>> unpack;  // what its bytes were laid out by (uncompressed ones)
  snapshot::CallList call;  // one call
};
struct ShadowedTexture {
  std::vector<std::unique_ptr<Upload>> uploads;
  std::map<std::pair<GLenum, GLint>, std::tuple<GLsizei, GLsizei, GLsizei>> sizes;  // per image, from its definition
  snapshot::TextureUploads view;  // for the snapshot, made when asked
};

// A GLES 1.1 buffer's contents, as the calls that gave them (GLES 1.1 cannot map a buffer for reading).
struct ShadowedBuffer {
  snapshot::CallList calls;
  std::vector<const stream::DecodedCall*> uploads;
};

struct Shadows {
  std::mutex mu;
  // Per context (the namespace of its textures), per texture name.
  std::map<EGLContext, std::map<GLuint, ShadowedTexture>> textures;
  std::map<EGLContext, std::map<GLuint, ShadowedBuffer>> buffers;
  uint64_t bytes = 0;
  // Set once anything is kept: until then glDeleteTextures takes no lock.
  std::atomic<bool> kept_any{false};
  const bool enabled = [] {
    const char* value = std::getenv("STRATA_TRACE_SHADOWS");
    return value == nullptr || std::strcmp(value, "0") != 0;
  }();
};
Shadows& Get() {
  static Shadows* shadows = new Shadows;  // never destroyed: hooks may run during exit
  return *shadows;
}

// The texture an upload to `target` goes to, and whether its bytes are the
// app's (not an offset into a pixel unpack buffer). The queries run on the
// tracer's side of the error state: one the context does not have (the
// unpack buffer of GLES 1 or 2, a target the call's own error is about)
// raises nothing the app sees, and the app's pending error stays its own.
bool Destination(GLenum target, GLuint* texture, bool* from_buffer) {
  const GLenum binding = api::TextureBindingOf(target);
  if (binding == 0) return false;
  TracerGlCalls tracer_calls;
  auto get_error = Next<PFNGLGETERRORPROC>(api::glGetError);
  *texture = static_cast<GLuint>(QueryInteger(binding));
  if (get_error() != GL_NO_ERROR) return false;
  const GLint unpack_buffer = QueryInteger(GL_PIXEL_UNPACK_BUFFER_BINDING);
  *from_buffer = get_error() == GL_NO_ERROR && unpack_buffer != 0;
  return *texture != 0;
}

// Keeps one upload; a whole image replaces what was kept for that image.
void Keep(GLenum target, GLint level, bool defines, GLsizei width, GLsizei height, GLsizei depth, bool covers_from_origin,
          const std::function<void(snapshot::CallList&)>& make, std::vector<std::pair<GLenum, GLint>> unpack = {}) {
  Shadows& shadows = Get();
  if (!shadows.enabled) return;
  EGLContext context = Next<PFNEGLGETCURRENTCONTEXTPROC>(api::eglGetCurrentContext)();
  GLuint name = 0;
  bool from_buffer = false;
  if (context == EGL_NO_CONTEXT || !Destination(target, &name, &from_buffer)) return;
  std::lock_guard<std::mutex> lock(shadows.mu);
  ShadowedTexture& texture = shadows.textures[context][name];
  if (from_buffer) {
    texture.view.from_buffer = true;
    return;
  }
  const auto image = std::make_pair(target, level);
  bool whole = defines;
  if (defines) {
    texture.sizes[image] = {width, height, depth};
  } else if (auto size = texture.sizes.find(image); size != texture.sizes.end() && covers_from_origin) {
    whole = std::get<0>(size->second) == width && std::get<1>(size->second) == height &&
            std::get<2>(size->second) == depth;
  }
  // A definition replaces everything kept for its image; a sub-image that
  // covers it all replaces the earlier sub-images, not the definition.
  if (whole) {
    for (auto it = texture.uploads.begin(); it != texture.uploads.end();) {
      const bool same_image = (*it)->target == target && (*it)->level == level;
      if (same_image && (defines || !(*it)->defines)) {
        shadows.bytes -= (*it)->call.data_bytes();
        it = texture.uploads.erase(it);
      } else {
        ++it;
      }
    }
  }
  auto upload = std::make_unique<Upload>();
  upload->target = target;
  upload->level = level;
  upload->defines = defines;
  upload->unpack = std::move(unpack);
  make(upload->call);
  shadows.kept_any.store(true, std::memory_order_relaxed);
  shadows.bytes += upload->call.data_bytes();
  texture.uploads.push_back(std::move(upload));
}

}  // namespace

void Shadow_glCompressedTexImage2D(GLenum target, GLint level, GLenum internalformat, GLsizei width, GLsizei height,
                                   GLint border, GLsizei imageSize, const void* data) {
  if (data == nullptr || imageSize <= 0) return;
  Keep(target, level, true, width, height, 1, true, [&](snapshot::CallList& calls) {
    calls.Add(api::glCompressedTexImage2D).Arg(target).Arg(level).Arg(internalformat).Arg(width).Arg(height)
        .Arg(border).Arg(imageSize).In(data, static_cast<size_t>(imageSize));
  });
}

void Shadow_glCompressedTexImage3D(GLenum target, GLint level, GLenum internalformat, GLsizei width, GLsizei height,
                                   GLsizei depth, GLint border, GLsizei imageSize, const void* data) {
  if (data == nullptr || imageSize <= 0) return;
  Keep(target, level, true, width, height, depth, true, [&](snapshot::CallList& calls) {
    calls.Add(api::glCompressedTexImage3D).Arg(target).Arg(level).Arg(internalformat).Arg(width).Arg(height)
        .Arg(depth).Arg(border).Arg(imageSize).In(data, static_cast<size_t>(imageSize));
  });
}

void Shadow_glCompressedTexSubImage2D(GLenum target, GLint level, GLint xoffset, GLint yoffset, GLsizei width,
                                      GLsizei height, GLenum format, GLsizei imageSize, const void* data) {
  if (data == nullptr || imageSize <= 0) return;
  Keep(target, level, false, width, height, 1, xoffset == 0 && yoffset == 0, [&](snapshot::CallList& calls) {
    calls.Add(api::glCompressedTexSubImage2D).Arg(target).Arg(level).Arg(xoffset).Arg(yoffset).Arg(width)
        .Arg(height).Arg(format).Arg(imageSize).In(data, static_cast<size_t>(imageSize));
  });
}

void Shadow_glCompressedTexSubImage3D(GLenum target, GLint level, GLint xoffset, GLint yoffset, GLint zoffset,
                                      GLsizei width, GLsizei height, GLsizei depth, GLenum format, GLsizei imageSize,
                                      const void* data) {
  if (data == nullptr || imageSize <= 0) return;
  Keep(target, level, false, width, height, depth, xoffset == 0 && yoffset == 0 && zoffset == 0,
       [&](snapshot::CallList& calls) {
         calls.Add(api::glCompressedTexSubImage3D).Arg(target).Arg(level).Arg(xoffset).Arg(yoffset).Arg(zoffset)
             .Arg(width).Arg(height).Arg(depth).Arg(format).Arg(imageSize).In(data, static_cast<size_t>(imageSize));
       });
}

// GLES 1.1 reads back neither texture images nor buffer contents: in its
// contexts every upload is kept (docs/inspect.md, "Mid-run captures").
// Asked of EGL (remembered per thread and context): the tracer's own note of
// the current context is kept only while it traces.
bool Gles1Context() {
  thread_local EGLContext known = EGL_NO_CONTEXT;
  thread_local bool gles1 = false;
  auto current_context = Next<PFNEGLGETCURRENTCONTEXTPROC>(api::eglGetCurrentContext);
  auto query_context = Next<PFNEGLQUERYCONTEXTPROC>(api::eglQueryContext);
  auto current_display = Next<PFNEGLGETCURRENTDISPLAYPROC>(api::eglGetCurrentDisplay);
  if (!Get().enabled || current_context == nullptr || query_context == nullptr || current_display == nullptr) {
    return false;  // copies switched off, or no EGL below (the tracer's own tests)
  }
  EGLContext context = current_context();
  if (context != known) {
    EGLint version = 0;
    if (context != EGL_NO_CONTEXT) query_context(current_display(), context, EGL_CONTEXT_CLIENT_VERSION, &version);
    known = context;
    gles1 = version == 1;
  }
  return gles1;
}

void Shadow_glTexImage2D(GLenum target, GLint level, GLint internalformat, GLsizei width, GLsizei height, GLint border,
                         GLenum format, GLenum type, const void* pixels) {
  if (!Gles1Context() || width < 0 || height < 0) return;
  const size_t bytes = pixels != nullptr ? capture::CaptureSizes(TraceCaptureState()).unpack_image_2d_bytes(
                                               width, height, format, type)
                                         : 0;
  const GLint alignment = QueryInteger(GL_UNPACK_ALIGNMENT);
  Keep(target, level, true, width, height, 1, true, [&](snapshot::CallList& calls) {
    auto call = calls.Add(api::glTexImage2D);
    call.Arg(target).Arg(level).Arg(internalformat).Arg(width).Arg(height).Arg(border).Arg(format).Arg(type);
    if (pixels != nullptr) call.In(pixels, bytes); else call.Arg(0);
  }, {{GL_UNPACK_ALIGNMENT, alignment}});
}

void Shadow_glTexSubImage2D(GLenum target, GLint level, GLint xoffset, GLint yoffset, GLsizei width, GLsizei height,
                            GLenum format, GLenum type, const void* pixels) {
  if (!Gles1Context() || pixels == nullptr || width < 0 || height < 0) return;
  const size_t bytes = capture::CaptureSizes(TraceCaptureState()).unpack_image_2d_bytes(width, height, format, type);
  const GLint alignment = QueryInteger(GL_UNPACK_ALIGNMENT);
  Keep(target, level, false, width, height, 1, xoffset == 0 && yoffset == 0, [&](snapshot::CallList& calls) {
    calls.Add(api::glTexSubImage2D).Arg(target).Arg(level).Arg(xoffset).Arg(yoffset).Arg(width).Arg(height)
        .Arg(format).Arg(type).In(pixels, bytes);
  }, {{GL_UNPACK_ALIGNMENT, alignment}});
}

namespace {

// Keeps a GLES 1.1 buffer upload of the buffer bound to `target`; new storage replaces what was kept.
void KeepBufferUpload(GLenum target, bool storage, const std::function<void(snapshot::CallList&)>& make) {
  if ((target != GL_ARRAY_BUFFER && target != GL_ELEMENT_ARRAY_BUFFER) || !Gles1Context()) return;
  Shadows& shadows = Get();
  EGLContext context = Next<PFNEGLGETCURRENTCONTEXTPROC>(api::eglGetCurrentContext)();
  GLuint name = 0;
  {
    TracerGlCalls tracer_calls;
    name = static_cast<GLuint>(
        QueryInteger(target == GL_ARRAY_BUFFER ? GL_ARRAY_BUFFER_BINDING : GL_ELEMENT_ARRAY_BUFFER_BINDING));
  }
  if (context == EGL_NO_CONTEXT || name == 0) return;
  std::lock_guard<std::mutex> lock(shadows.mu);
  ShadowedBuffer& buffer = shadows.buffers[context][name];
  if (storage) {
    shadows.bytes -= buffer.calls.data_bytes();
    buffer = ShadowedBuffer();
  }
  const uint64_t before = buffer.calls.data_bytes();
  make(buffer.calls);
  buffer.uploads.push_back(&buffer.calls.calls().back());
  shadows.bytes += buffer.calls.data_bytes() - before;
  shadows.kept_any.store(true, std::memory_order_relaxed);
}

}  // namespace

void Shadow_glBufferData(GLenum target, GLsizeiptr size, const void* data, GLenum usage) {
  if (size < 0) return;
  KeepBufferUpload(target, true, [&](snapshot::CallList& calls) {
    auto call = calls.Add(api::glBufferData);
    call.Arg(target).Arg(size);
    if (data != nullptr) call.In(data, static_cast<size_t>(size)); else call.Arg(0);
    call.Arg(usage);
  });
}

void Shadow_glBufferSubData(GLenum target, GLintptr offset, GLsizeiptr size, const void* data) {
  if (data == nullptr || size < 0) return;
  KeepBufferUpload(target, false, [&](snapshot::CallList& calls) {
    calls.Add(api::glBufferSubData).Arg(target).Arg(offset).Arg(size).In(data, static_cast<size_t>(size));
  });
}

namespace {

// Drops what is kept for objects the current context deletes (`kept`: its
// textures' or buffers' copies by context; `bytes_of`: what one of them holds).
// Nothing kept, nothing to drop: no lock, and no EGL call, which at a
// program's end (after eglReleaseThread) would make EGL set up the thread again.
template <typename Kept, typename BytesOf>
void DropDeleted(std::map<EGLContext, std::map<GLuint, Kept>> Shadows::*kept, GLsizei n, const GLuint* names,
                 BytesOf bytes_of) {
  Shadows& shadows = Get();
  if (!shadows.kept_any.load(std::memory_order_relaxed) || n <= 0 || names == nullptr) return;
  std::lock_guard<std::mutex> lock(shadows.mu);
  EGLContext context = Next<PFNEGLGETCURRENTCONTEXTPROC>(api::eglGetCurrentContext)();
  auto of_context = (shadows.*kept).find(context);
  if (of_context == (shadows.*kept).end()) return;
  for (GLsizei i = 0; i < n; ++i) {
    auto object = of_context->second.find(names[i]);
    if (object == of_context->second.end()) continue;
    shadows.bytes -= bytes_of(object->second);
    of_context->second.erase(object);
  }
}

}  // namespace

void Shadow_glDeleteBuffers(GLsizei n, const GLuint* buffers) {
  DropDeleted(&Shadows::buffers, n, buffers, [](const ShadowedBuffer& b) { return b.calls.data_bytes(); });
}

const std::vector<const stream::DecodedCall*>* ShadowedBufferUploads(uint64_t buffer) {
  Shadows& shadows = Get();
  EGLContext context = Next<PFNEGLGETCURRENTCONTEXTPROC>(api::eglGetCurrentContext)();
  std::lock_guard<std::mutex> lock(shadows.mu);
  auto of_context = shadows.buffers.find(context);
  if (of_context == shadows.buffers.end()) return nullptr;
  auto it = of_context->second.find(static_cast<GLuint>(buffer));
  return it == of_context->second.end() ? nullptr : &it->second.uploads;
}

void Shadow_glDeleteTextures(GLsizei n, const GLuint* textures) {
  DropDeleted(&Shadows::textures, n, textures, [](const ShadowedTexture& t) {
    uint64_t bytes = 0;
    for (const auto& upload : t.uploads) bytes += upload->call.data_bytes();
    return bytes;
  });
}

const snapshot::TextureUploads* ShadowedUploads(uint64_t texture) {
  Shadows& shadows = Get();
  EGLContext context = Next<PFNEGLGETCURRENTCONTEXTPROC>(api::eglGetCurrentContext)();
  std::lock_guard<std::mutex> lock(shadows.mu);
  auto of_context = shadows.textures.find(context);
  if (of_context == shadows.textures.end()) return nullptr;
  auto it = of_context->second.find(static_cast<GLuint>(texture));
  if (it == of_context->second.end() || (it->second.uploads.empty() && !it->second.view.from_buffer)) return nullptr;
  ShadowedTexture& shadowed = it->second;
  shadowed.view.uploads.clear();
  for (const auto& upload : shadowed.uploads) {
    shadowed.view.uploads.push_back({upload->unpack, &upload->call.calls().front()});
  }
  return &shadowed.view;
}

uint64_t ShadowedBytes() {
  Shadows& shadows = Get();
  std::lock_guard<std::mutex> lock(shadows.mu);
  return shadows.bytes;
}

}  // namespace strata::trace
