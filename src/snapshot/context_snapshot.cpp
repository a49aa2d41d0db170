#include "snapshot/context_snapshot.h"

#include <GLES2/gl2ext.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <set>

#include "common/state_read_limits.h"
#include "common/uniform_types.h"
#include "glstate/attribute_array.h"
#include "glstate/context_state.h"
#include "glstate/object_state.h"
#include "glstate/program_state.h"
#include "snapshot/gles1_snapshot.h"
#include "snapshot/snapshot_writer.h"
#include "strata/api/parameters.h"
#include "strata/api/traits.h"
#include "stream/call_printer.h"

namespace strata::snapshot {
namespace {

using api::ObjectClass;


// How a texture level of an internal format is read back (glReadPixels as
// RGBA of unsigned bytes or of floats) and given to glTexImage again.
struct ImageLayout {
  GLenum format, type;
  int components;  // taken from the RGBA read, in order (BGRA: swapped)
  bool floats;
};
bool LayoutOf(GLenum internal, ImageLayout* layout) {
  switch (internal) {
    case GL_RGBA: case GL_RGBA8: case GL_RGBA4: case GL_RGB5_A1: case GL_SRGB8_ALPHA8:
      *layout = {GL_RGBA, GL_UNSIGNED_BYTE, 4, false};
      return true;
    case GL_RGB: case GL_RGB8: case GL_RGB565:
      *layout = {GL_RGB, GL_UNSIGNED_BYTE, 3, false};
      return true;
    case GL_RG8:
      *layout = {GL_RG, GL_UNSIGNED_BYTE, 2, false};
      return true;
    case GL_R8:
      *layout = {GL_RED, GL_UNSIGNED_BYTE, 1, false};
      return true;
    case GL_BGRA_EXT: case GL_BGRA8_EXT:
      *layout = {GL_BGRA_EXT, GL_UNSIGNED_BYTE, 4, false};
      return true;
    case GL_RGBA16F: case GL_RGBA32F:
      *layout = {GL_RGBA, GL_FLOAT, 4, true};
      return true;
    case GL_RGB16F: case GL_RGB32F: case GL_R11F_G11F_B10F:
      *layout = {GL_RGB, GL_FLOAT, 3, true};
      return true;
    case GL_RG16F: case GL_RG32F:
      *layout = {GL_RG, GL_FLOAT, 2, true};
      return true;
    case GL_R16F: case GL_R32F:
      *layout = {GL_RED, GL_FLOAT, 1, true};
      return true;
    default:
      return false;  // integer, depth, stencil, luminance, alpha, compressed: not read back
  }
}

// A format and type glTexImage accepts for an internal format, for storage
// without contents (formats that are not read back).
bool StorageLayoutOf(GLenum internal, ImageLayout* layout) {
  if (LayoutOf(internal, layout)) return true;
  switch (internal) {
    case GL_DEPTH_COMPONENT: case GL_DEPTH_COMPONENT24:
      *layout = {GL_DEPTH_COMPONENT, GL_UNSIGNED_INT, 1, false};
      return true;
    case GL_DEPTH_COMPONENT16:
      *layout = {GL_DEPTH_COMPONENT, GL_UNSIGNED_SHORT, 1, false};
      return true;
    case GL_DEPTH_COMPONENT32F:
      *layout = {GL_DEPTH_COMPONENT, GL_FLOAT, 1, false};
      return true;
    case GL_DEPTH_STENCIL: case GL_DEPTH24_STENCIL8:
      *layout = {GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, 1, false};
      return true;
    case GL_DEPTH32F_STENCIL8:
      *layout = {GL_DEPTH_STENCIL, GL_FLOAT_32_UNSIGNED_INT_24_8_REV, 1, false};
      return true;
    case GL_LUMINANCE: case GL_ALPHA: case GL_LUMINANCE_ALPHA:
      *layout = {internal, GL_UNSIGNED_BYTE, 1, false};
      return true;
    case GL_RGBA8UI: *layout = {GL_RGBA_INTEGER, GL_UNSIGNED_BYTE, 4, false}; return true;
    case GL_RGBA8I: *layout = {GL_RGBA_INTEGER, GL_BYTE, 4, false}; return true;
    case GL_R32UI: *layout = {GL_RED_INTEGER, GL_UNSIGNED_INT, 1, false}; return true;
    case GL_R32I: *layout = {GL_RED_INTEGER, GL_INT, 1, false}; return true;
    case GL_RGBA32UI: *layout = {GL_RGBA_INTEGER, GL_UNSIGNED_INT, 4, false}; return true;
    case GL_RGBA32I: *layout = {GL_RGBA_INTEGER, GL_INT, 4, false}; return true;
    default:
      return false;
  }
}

// Which glUniform*v sets one element of a uniform of a type (the values it
// takes: common/uniform_types.h).
struct UniformSetter {
  api::Slot slot;
  bool matrix;
};
UniformSetter SetterOf(GLenum type) {
  switch (type) {
    case GL_FLOAT: return {api::glUniform1fv, false};
    case GL_FLOAT_VEC2: return {api::glUniform2fv, false};
    case GL_FLOAT_VEC3: return {api::glUniform3fv, false};
    case GL_FLOAT_VEC4: return {api::glUniform4fv, false};
    case GL_INT: case GL_BOOL: return {api::glUniform1iv, false};
    case GL_INT_VEC2: case GL_BOOL_VEC2: return {api::glUniform2iv, false};
    case GL_INT_VEC3: case GL_BOOL_VEC3: return {api::glUniform3iv, false};
    case GL_INT_VEC4: case GL_BOOL_VEC4: return {api::glUniform4iv, false};
    case GL_UNSIGNED_INT: return {api::glUniform1uiv, false};
    case GL_UNSIGNED_INT_VEC2: return {api::glUniform2uiv, false};
    case GL_UNSIGNED_INT_VEC3: return {api::glUniform3uiv, false};
    case GL_UNSIGNED_INT_VEC4: return {api::glUniform4uiv, false};
    case GL_FLOAT_MAT2: return {api::glUniformMatrix2fv, true};
    case GL_FLOAT_MAT3: return {api::glUniformMatrix3fv, true};
    case GL_FLOAT_MAT4: return {api::glUniformMatrix4fv, true};
    case GL_FLOAT_MAT2x3: return {api::glUniformMatrix2x3fv, true};
    case GL_FLOAT_MAT2x4: return {api::glUniformMatrix2x4fv, true};
    case GL_FLOAT_MAT3x2: return {api::glUniformMatrix3x2fv, true};
    case GL_FLOAT_MAT3x4: return {api::glUniformMatrix3x4fv, true};
    case GL_FLOAT_MAT4x2: return {api::glUniformMatrix4x2fv, true};
    case GL_FLOAT_MAT4x3: return {api::glUniformMatrix4x3fv, true};
    default:
      return {api::glUniform1iv, false};  // samplers and images hold a unit
  }
}

class Snapshot : SnapshotWriter {
 public:
  Snapshot(const SnapshotSource& source, SnapshotResult* result, SnapshotScope scope)
      : SnapshotWriter(source, result), version_(source.Version()), scope_(scope) {}

  bool Take(std::string* error) {
    host_version_ = glstate::HostVersion(functions_);
    // The context's own state as the app left it, before the reading below changes any.
    state_ = glstate::ReadContextState(functions_, host_version_);
    if (!CheckNothingInProgress(error)) return false;
    BeginReads();
    // Emitted with the defaults a fresh context has for unpacking, on unit 0.
    calls_.Add(api::glActiveTexture).Arg(GL_TEXTURE0);
    calls_.Add(api::glPixelStorei).Arg(GL_UNPACK_ALIGNMENT).Arg(1);
    const bool objects = scope_ == SnapshotScope::kObjectsAndContext;
    if (objects) {
      Buffers();
      Textures();
      Renderbuffers();
      Samplers();
      Shaders();
      Programs();
    }
    Surface();  // before any framebuffer object or vertex array is made and bound
    Framebuffers();
    VertexArrays();
    Queries();
    if (objects) Syncs();
    TransformFeedbacks();
    ProgramPipelines();
    EndReads();
    ContextState();
    ClearErrors();
    return true;
  }

 private:
  // A query or transform feedback running, or a buffer mapped, cannot be
  // recreated by calls without running the draws that fed it.
  bool CheckNothingInProgress(std::string* error) {
    if (!state_.active_queries.empty()) {
      const GLint query = static_cast<GLint>(state_.active_queries[0].second);
      *error = "query " + std::to_string(Stream(ObjectClass::kQuery, query)) +
               " is in progress; a snapshot cannot recreate what it counted so far";
      return false;
    }
    if (state_.transform_feedback_active) {
      *error = "transform feedback is active; a snapshot cannot recreate a capture in progress";
      return false;
    }
    return true;
  }

  // The driver state reading changes, put back by EndReads.
  void BeginReads() {
    saved_active_texture_ = Integer(GL_ACTIVE_TEXTURE);
    F<PFNGLACTIVETEXTUREPROC>(api::glActiveTexture)(GL_TEXTURE0);
    saved_pack_alignment_ = Integer(GL_PACK_ALIGNMENT);
    saved_array_buffer_ = Integer(GL_ARRAY_BUFFER_BINDING);
    saved_renderbuffer_ = Integer(GL_RENDERBUFFER_BINDING);
    auto pixel_store = F<PFNGLPIXELSTOREIPROC>(api::glPixelStorei);
    pixel_store(GL_PACK_ALIGNMENT, 1);
    if (host_version_ < 30) return;
    saved_read_framebuffer_ = Integer(GL_READ_FRAMEBUFFER_BINDING);
    saved_draw_framebuffer_ = Integer(GL_DRAW_FRAMEBUFFER_BINDING);
    saved_pack_[0] = Integer(GL_PACK_ROW_LENGTH);
    saved_pack_[1] = Integer(GL_PACK_SKIP_ROWS);
    saved_pack_[2] = Integer(GL_PACK_SKIP_PIXELS);
    saved_pack_buffer_ = Integer(GL_PIXEL_PACK_BUFFER_BINDING);
    saved_copy_read_ = Integer(GL_COPY_READ_BUFFER_BINDING);
    saved_vertex_array_ = Integer(GL_VERTEX_ARRAY_BINDING);
    pixel_store(GL_PACK_ROW_LENGTH, 0);
    pixel_store(GL_PACK_SKIP_ROWS, 0);
    pixel_store(GL_PACK_SKIP_PIXELS, 0);
    F<PFNGLBINDBUFFERPROC>(api::glBindBuffer)(GL_PIXEL_PACK_BUFFER, 0);
    F<PFNGLGENFRAMEBUFFERSPROC>(api::glGenFramebuffers)(1, &read_framebuffer_);
  }

  void EndReads() {
    auto pixel_store = F<PFNGLPIXELSTOREIPROC>(api::glPixelStorei);
    auto bind_buffer = F<PFNGLBINDBUFFERPROC>(api::glBindBuffer);
    pixel_store(GL_PACK_ALIGNMENT, saved_pack_alignment_);
    bind_buffer(GL_ARRAY_BUFFER, static_cast<GLuint>(saved_array_buffer_));
    F<PFNGLBINDRENDERBUFFERPROC>(api::glBindRenderbuffer)(GL_RENDERBUFFER, static_cast<GLuint>(saved_renderbuffer_));
    if (host_version_ >= 30) {
      auto bind_framebuffer = F<PFNGLBINDFRAMEBUFFERPROC>(api::glBindFramebuffer);
      bind_framebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(saved_read_framebuffer_));
      bind_framebuffer(GL_DRAW_FRAMEBUFFER, static_cast<GLuint>(saved_draw_framebuffer_));
      F<PFNGLDELETEFRAMEBUFFERSPROC>(api::glDeleteFramebuffers)(1, &read_framebuffer_);
      pixel_store(GL_PACK_ROW_LENGTH, saved_pack_[0]);
      pixel_store(GL_PACK_SKIP_ROWS, saved_pack_[1]);
      pixel_store(GL_PACK_SKIP_PIXELS, saved_pack_[2]);
      bind_buffer(GL_PIXEL_PACK_BUFFER, static_cast<GLuint>(saved_pack_buffer_));
      bind_buffer(GL_COPY_READ_BUFFER, static_cast<GLuint>(saved_copy_read_));
      F<PFNGLBINDVERTEXARRAYPROC>(api::glBindVertexArray)(static_cast<GLuint>(saved_vertex_array_));
    }
    F<PFNGLACTIVETEXTUREPROC>(api::glActiveTexture)(static_cast<GLenum>(saved_active_texture_));
  }

  void Buffers() {
    auto is_buffer = F<PFNGLISBUFFERPROC>(api::glIsBuffer);
    auto bind = F<PFNGLBINDBUFFERPROC>(api::glBindBuffer);
    // The stream's buffers are bound to GL_ARRAY_BUFFER to fill them: any
    // buffer may be bound there (GLES has no typed buffers).
    const GLenum read_target = host_version_ >= 30 ? GL_COPY_READ_BUFFER : GL_ARRAY_BUFFER;
    for (const auto& [name, host] : source_.LiveObjects(ObjectClass::kBuffer)) {
      Generate(api::glGenBuffers, name);
      if (!is_buffer(static_cast<GLuint>(host))) continue;  // named, never bound
      calls_.Add(api::glBindBuffer).Arg(GL_ARRAY_BUFFER).Arg(static_cast<int64_t>(name));
      bind(read_target, static_cast<GLuint>(host));
      const glstate::BufferInfo info = glstate::ReadBufferInfo(functions_, read_target, host_version_);
      const GLint size = info.size;
      if (size <= 0) continue;
      const bool read = !info.mapped && glstate::ReadBufferBytes(functions_, read_target, host_version_, size,
                                                                 [&](const void* bytes) {
        calls_.Add(api::glBufferData).Arg(GL_ARRAY_BUFFER).Arg(size).In(bytes, static_cast<size_t>(size))
            .Arg(info.usage);
      });
      if (info.mapped) {
        Note("buffer " + std::to_string(name) + ": mapped by the app at the snapshot, so its contents are not read");
      } else if (!read) {
        Note("buffer " + std::to_string(name) + ": the driver cannot map it for reading; its " +
             std::to_string(size) + " bytes are left undefined");
      }
      if (!read) calls_.Add(api::glBufferData).Arg(GL_ARRAY_BUFFER).Arg(size).Arg(0).Arg(info.usage);
      ClearErrors();
    }
  }

  // One image (a face or a layer) of a level, in `layout`; false when unreadable.
  bool ReadImage(GLenum target, GLuint host, GLint level, GLenum face, GLint layer, GLint width, GLint height,
                 const ImageLayout& layout, std::vector<uint8_t>* out) {
    F<PFNGLBINDFRAMEBUFFERPROC>(api::glBindFramebuffer)(GL_READ_FRAMEBUFFER, read_framebuffer_);
    const size_t texels = static_cast<size_t>(width) * static_cast<size_t>(height);
    const size_t component_bytes = layout.floats ? 4 : 1;
    std::vector<uint8_t> rgba(texels * 4 * component_bytes);
    if (!glstate::ReadTextureImage(functions_, target, host, level, face, layer, width, height,
                                   layout.floats ? GL_FLOAT : GL_UNSIGNED_BYTE, rgba.data()).read) {
      return false;
    }
    const size_t at = out->size();
    out->resize(at + texels * layout.components * component_bytes);
    uint8_t* o = out->data() + at;
    const bool bgra = layout.format == GL_BGRA_EXT;
    for (size_t t = 0; t < texels; ++t) {
      const uint8_t* texel = rgba.data() + t * 4 * component_bytes;
      for (int c = 0; c < layout.components; ++c) {
        const int from = bgra && c != 3 ? 2 - c : c;
        std::memcpy(o, texel + from * component_bytes, component_bytes);
        o += component_bytes;
      }
    }
    return true;
  }

  void Textures() {
    auto bind = F<PFNGLBINDTEXTUREPROC>(api::glBindTexture);
    auto level_parameter = F<PFNGLGETTEXLEVELPARAMETERIVPROC>(api::glGetTexLevelParameteriv);
    for (const auto& [name, host] : source_.LiveObjects(ObjectClass::kTexture)) {
      Generate(api::glGenTextures, name);
      const GLenum target = source_.TextureTarget(name);
      if (target == 0) continue;  // named, never bound
      calls_.Add(api::glBindTexture).Arg(target).Arg(static_cast<int64_t>(name));
      const std::string what = "texture " + std::to_string(name);
      if (target == GL_TEXTURE_EXTERNAL_OES || target == GL_TEXTURE_BUFFER) {
        Note(what + ": its images are an EGL image's or a buffer's; only its binding is carried");
        continue;
      }
      const GLenum binding = api::TextureBindingOf(target);
      const GLint previous = Integer(binding);
      bind(target, static_cast<GLuint>(host));
      const bool uploads_kept = source_.UploadsOf(name) != nullptr;
      if (uploads_kept) {
        TextureFromUploads(name, target);
      } else if (host_version_ < 31 || level_parameter == nullptr) {
        Note(what + ": reading a texture's levels needs GLES 3.1 on the replaying host");
      } else {
        TextureImages(name, target, static_cast<GLuint>(host));
      }
      // Parameters after the images: glTexStorage leaves them as they were.
      // Multisampled textures take no sampling parameters (setting one is an error).
      const bool multisampled = target == GL_TEXTURE_2D_MULTISAMPLE || target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY;
      for (const glstate::StateValue& value : glstate::ReadTextureParameters(functions_, target, host_version_)) {
        const api::Parameter& parameter = *value.parameter;
        if ((parameter.flags & api::kReadOnly) || parameter.since > version_) continue;
        if (multisampled && (parameter.getters & api::kGetSampler)) continue;
        if (parameter.type == api::ValueType::kFloat) {
          calls_.Add(api::glTexParameterf).Arg(target).Arg(parameter.pname).Float(value.floats[0]);
        } else {
          calls_.Add(api::glTexParameteri).Arg(target).Arg(parameter.pname).Arg(value.ints[0]);
        }
      }
      bind(target, static_cast<GLuint>(previous));
      ClearErrors();
    }
  }

  void TextureFromUploads(uint64_t name, GLenum target) {
    const TextureUploads& kept = *source_.UploadsOf(name);
    // Uploads into storage made by glTexStorage need that storage first,
    // unless the first kept call allocates it (a trace's own kept uploads
    // hold the glTexStorage call; shadows do not). A mutable texture has
    // no storage to make here.
    const bool defined =
        !kept.uploads.empty() && api::kTraits[kept.uploads.front().call->slot].storage == api::ObjectClass::kTexture;
    GLint levels = 0;
    if (!defined) ImmutableStorage(target, &levels);
    if (kept.from_buffer) {
      Note("texture " + std::to_string(name) +
           ": an upload of it read a pixel unpack buffer, which the snapshot does not replay; its images may differ");
    }
    for (const RecordedUpload& upload : kept.uploads) {
      for (const auto& [pname, value] : upload.unpack) calls_.Add(api::glPixelStorei).Arg(pname).Arg(value);
      calls_.Copy(*upload.call);
    }
    // Back to the unpack state the other uploads are written with.
    if (!kept.uploads.empty()) {
      calls_.Add(api::glPixelStorei).Arg(GL_UNPACK_ALIGNMENT).Arg(1);
      if (version_ >= 30) {
        for (GLenum pname : {GL_UNPACK_ROW_LENGTH, GL_UNPACK_IMAGE_HEIGHT, GL_UNPACK_SKIP_ROWS, GL_UNPACK_SKIP_PIXELS,
                             GL_UNPACK_SKIP_IMAGES}) {
          calls_.Add(api::glPixelStorei).Arg(pname).Arg(0);
        }
      }
    }
  }

  // For a texture made with glTexStorage: the same storage, bound where the
  // texture is. False for a mutable texture.
  bool ImmutableStorage(GLenum target, GLint* levels) {
    GLint immutable = 0;
    *levels = 0;
    if (host_version_ < 30) return false;
    auto tex_i = F<PFNGLGETTEXPARAMETERIVPROC>(api::glGetTexParameteriv);
    tex_i(target, GL_TEXTURE_IMMUTABLE_FORMAT, &immutable);
    tex_i(target, GL_TEXTURE_IMMUTABLE_LEVELS, levels);
    if (!immutable || *levels <= 0 || host_version_ < 31) return immutable != 0;
    const std::vector<glstate::TextureLevel> base = glstate::ReadTextureLevels(functions_, target, 1);
    const glstate::TextureLevel first = base.empty() ? glstate::TextureLevel{} : base[0];
    if (api::IsLayeredTarget(target)) {
      calls_.Add(api::glTexStorage3D).Arg(target).Arg(*levels).Arg(first.internal_format).Arg(first.width)
          .Arg(first.height).Arg(first.depth);
    } else {
      calls_.Add(api::glTexStorage2D).Arg(target).Arg(*levels).Arg(first.internal_format).Arg(first.width)
          .Arg(first.height);
    }
    return true;
  }

  void TextureImages(uint64_t name, GLenum target, GLuint host) {
    const std::string what = "texture " + std::to_string(name);
    const bool cube = target == GL_TEXTURE_CUBE_MAP;
    const bool layered = api::IsLayeredTarget(target);
    const bool multisampled = target == GL_TEXTURE_2D_MULTISAMPLE || target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY;
    if (multisampled) {
      // Its storage (a render target's, as a rule); samples cannot be read back one by one.
      const std::vector<glstate::TextureLevel> base = glstate::ReadTextureLevels(functions_, target, 1);
      if (!base.empty()) {
        const glstate::TextureLevel& l = base[0];
        auto storage = layered ? calls_.Add(api::glTexStorage3DMultisample) : calls_.Add(api::glTexStorage2DMultisample);
        storage.Arg(target).Arg(l.samples).Arg(l.internal_format).Arg(l.width).Arg(l.height);
        if (layered) storage.Arg(l.depth);
        storage.Arg(l.fixed_sample_locations ? 1 : 0);
        Note(what + ": multisampled; its storage is carried, not its samples");
      }
      return;
    }
    GLint immutable_levels = 0;
    const bool immutable = ImmutableStorage(target, &immutable_levels);
    const GLint max_levels = immutable ? immutable_levels : 16;
    for (const glstate::TextureLevel& l : glstate::ReadTextureLevels(functions_, target, max_levels)) {
      const GLint level = l.level, width = l.width, height = l.height, depth = layered ? l.depth : 1;
      const GLenum internal = l.internal_format;
      const std::string level_what = what + " level " + std::to_string(level);
      ImageLayout layout;
      const bool readable = LayoutOf(internal, &layout) && !l.compressed;
      if (!readable) {
        Note(level_what + ": its format (" + stream::GlEnumText(internal) +
             ") cannot be read back, and no upload of it was kept; its storage is carried, not its contents");
      }
      for (int face = 0; face < (cube ? 6 : 1); ++face) {
        const GLenum face_target = cube ? GL_TEXTURE_CUBE_MAP_POSITIVE_X + static_cast<GLenum>(face) : target;
        std::vector<uint8_t> pixels;
        bool read = readable;
        for (GLint layer = 0; read && layer < depth; ++layer) {
          read = ReadImage(target, host, level, face_target, layer, width, height, layout, &pixels);
        }
        if (readable && !read) {
          Note(level_what + ": the driver could not read its format (" + stream::GlEnumText(internal) + ") back; its contents are not carried");
        }
        if (!read && immutable) continue;  // storage without contents is there already
        if (!read) {
          // The storage alone, in a format/type glTexImage accepts for it.
          if (!StorageLayoutOf(internal, &layout)) {
            Note(level_what + ": not recreated (format " + stream::GlEnumText(internal) + ")");
            continue;
          }
          pixels.clear();
        }
        const void* data = pixels.empty() ? nullptr : pixels.data();
        if (immutable) {
          if (layered) {
            calls_.Add(api::glTexSubImage3D).Arg(target).Arg(level).Arg(0).Arg(0).Arg(0).Arg(width).Arg(height)
                .Arg(depth).Arg(layout.format).Arg(layout.type).In(data, pixels.size());
          } else {
            calls_.Add(api::glTexSubImage2D).Arg(face_target).Arg(level).Arg(0).Arg(0).Arg(width).Arg(height)
                .Arg(layout.format).Arg(layout.type).In(data, pixels.size());
          }
          continue;
        }
        auto image = layered ? calls_.Add(api::glTexImage3D) : calls_.Add(api::glTexImage2D);
        image.Arg(face_target).Arg(level).Arg(internal).Arg(width).Arg(height);
        if (layered) image.Arg(depth);
        image.Arg(0).Arg(layout.format).Arg(layout.type);
        if (data != nullptr) {
          image.In(data, pixels.size());
        } else {
          image.Arg(0);
        }
      }
    }
    F<PFNGLBINDFRAMEBUFFERPROC>(api::glBindFramebuffer)(GL_READ_FRAMEBUFFER, saved_read_framebuffer_);
    ClearErrors();
  }

  void Renderbuffers() {
    auto is_renderbuffer = F<PFNGLISRENDERBUFFERPROC>(api::glIsRenderbuffer);
    auto bind = F<PFNGLBINDRENDERBUFFERPROC>(api::glBindRenderbuffer);
    auto parameter = F<PFNGLGETRENDERBUFFERPARAMETERIVPROC>(api::glGetRenderbufferParameteriv);
    for (const auto& [name, host] : source_.LiveObjects(ObjectClass::kRenderbuffer)) {
      Generate(api::glGenRenderbuffers, name);
      if (!is_renderbuffer(static_cast<GLuint>(host))) continue;
      calls_.Add(api::glBindRenderbuffer).Arg(GL_RENDERBUFFER).Arg(static_cast<int64_t>(name));
      bind(GL_RENDERBUFFER, static_cast<GLuint>(host));
      GLint width = 0, height = 0, format = GL_RGBA4, samples = 0;
      parameter(GL_RENDERBUFFER, GL_RENDERBUFFER_WIDTH, &width);
      parameter(GL_RENDERBUFFER, GL_RENDERBUFFER_HEIGHT, &height);
      parameter(GL_RENDERBUFFER, GL_RENDERBUFFER_INTERNAL_FORMAT, &format);
      if (host_version_ >= 30) parameter(GL_RENDERBUFFER, GL_RENDERBUFFER_SAMPLES, &samples);
      if (width == 0 || height == 0) continue;
      if (samples > 0 && version_ >= 30) {
        calls_.Add(api::glRenderbufferStorageMultisample).Arg(GL_RENDERBUFFER).Arg(samples).Arg(format).Arg(width)
            .Arg(height);
      } else {
        calls_.Add(api::glRenderbufferStorage).Arg(GL_RENDERBUFFER).Arg(format).Arg(width).Arg(height);
      }
      Note("renderbuffer " + std::to_string(name) + ": its storage is carried, not its contents (a frame that " +
           "reads it before clearing or drawing into it differs)");
    }
    ClearErrors();
  }

  void Samplers() {
    if (version_ < 30) return;
    for (const auto& [name, host] : source_.LiveObjects(ObjectClass::kSampler)) {
      Generate(api::glGenSamplers, name);
      for (const glstate::SamplingValue& value :
           glstate::ReadSamplerParameters(functions_, static_cast<GLuint>(host))) {
        const GLenum pname = value.parameter->pname;
        if (value.parameter->is_float) {
          calls_.Add(api::glSamplerParameterf).Arg(static_cast<int64_t>(name)).Arg(pname).Float(value.real);
        } else {
          calls_.Add(api::glSamplerParameteri).Arg(static_cast<int64_t>(name)).Arg(pname).Arg(value.integer);
        }
      }
    }
    ClearErrors();
  }

  glstate::ShaderQueries ShaderFunctions() const {
    return {F<PFNGLGETSHADERIVPROC>(api::glGetShaderiv), F<PFNGLGETSHADERSOURCEPROC>(api::glGetShaderSource),
            F<PFNGLGETATTACHEDSHADERSPROC>(api::glGetAttachedShaders)};
  }

  void Shader(uint64_t name, GLenum type, const std::string& source, bool compile) {
    calls_.Add(api::glCreateShader).Arg(type).Returns(name);
    calls_.Add(api::glShaderSource).Arg(static_cast<int64_t>(name)).Arg(1).Strings({source}).Arg(0);
    if (compile) calls_.Add(api::glCompileShader).Arg(static_cast<int64_t>(name));
  }

  void Shaders() {
    auto get = F<PFNGLGETSHADERIVPROC>(api::glGetShaderiv);
    for (const auto& [name, host] : source_.LiveObjects(ObjectClass::kShader)) {
      live_shaders_[host] = name;
      GLint type = 0, compiled = 0;
      get(static_cast<GLuint>(host), GL_SHADER_TYPE, &type);
      get(static_cast<GLuint>(host), GL_COMPILE_STATUS, &compiled);
      Shader(name, static_cast<GLenum>(type), glstate::ReadShaderSource(ShaderFunctions(), static_cast<GLuint>(host)),
             compiled != 0);
    }
    ClearErrors();
  }

  void Programs() {
    auto get = F<PFNGLGETPROGRAMIVPROC>(api::glGetProgramiv);
    uint64_t relink_name = kScratchNames;
    for (const auto& [name, host_name] : source_.LiveObjects(ObjectClass::kProgram)) {
      const GLuint host = static_cast<GLuint>(host_name);
      calls_.Add(api::glCreateProgram).Returns(name);
      GLint linked = 0;
      get(host, GL_LINK_STATUS, &linked);
      const std::vector<LinkedShader>* linked_from = source_.LinkedShaders(name);
      std::vector<LinkedShader> attached_now;
      if (linked && linked_from == nullptr) {
        // Those it was linked from, unless changed since.
        attached_now = glstate::ReadAttachedShaders(ShaderFunctions(), host);
        if (!attached_now.empty()) linked_from = &attached_now;
      }
      if (linked && linked_from == nullptr) {
        Note("program " + std::to_string(name) + ": linked, but not from shaders the trace showed (a program " +
             "binary?); it is created unlinked");
      }
      if (linked && linked_from != nullptr) {
        std::vector<uint64_t> relink_shaders;
        for (const LinkedShader& shader : *linked_from) {
          const uint64_t shader_name = relink_name++;
          Shader(shader_name, shader.type, shader.source, true);
          calls_.Add(api::glAttachShader).Arg(static_cast<int64_t>(name)).Arg(static_cast<int64_t>(shader_name));
          relink_shaders.push_back(shader_name);
        }
        BindAttributes(name, host);
        if (version_ >= 30) TransformFeedbackVaryings(name, host);
        calls_.Add(api::glLinkProgram).Arg(static_cast<int64_t>(name));
        for (uint64_t shader_name : relink_shaders) {
          calls_.Add(api::glDetachShader).Arg(static_cast<int64_t>(name)).Arg(static_cast<int64_t>(shader_name));
          calls_.Add(api::glDeleteShader).Arg(static_cast<int64_t>(shader_name));
        }
        Uniforms(name, host);
      }
      // The shaders attached now (which may differ from those it was linked from).
      GLint attached = 0;
      get(host, GL_ATTACHED_SHADERS, &attached);
      if (attached > 0) {
        std::vector<GLuint> shaders(static_cast<size_t>(attached));
        GLsizei count = 0;
        F<PFNGLGETATTACHEDSHADERSPROC>(api::glGetAttachedShaders)(host, attached, &count, shaders.data());
        for (GLsizei i = 0; i < count; ++i) {
          // One deleted while attached is the driver's alone: the stream cannot name it.
          const auto live = live_shaders_.find(shaders[i]);
          if (live == live_shaders_.end()) continue;
          const uint64_t shader = live->second;
          calls_.Add(api::glAttachShader).Arg(static_cast<int64_t>(name)).Arg(static_cast<int64_t>(shader));
        }
      }
    }
    ClearErrors();
  }

  // The surface's pixels, put back by drawing them: a texture, a program
  // and a quad of the snapshot's own (GLSL ES 1.00, so GLES 2 contexts have
  // it too), made while the context still has its default state (no blend,
  // depth, stencil or scissor test; framebuffer 0), then deleted; the state
  // they leave is set again by the steps after.
  void Surface() {
    int width = 0, height = 0;
    std::vector<uint8_t> pixels;
    if (!source_.SurfacePixels(&width, &height, &pixels)) return;
    const uint64_t texture = kScratchNames - 1, buffer = kScratchNames - 2, program = kScratchNames - 3,
                   vertex = kScratchNames - 4, fragment = kScratchNames - 5;
    Generate(api::glGenTextures, texture);
    calls_.Add(api::glBindTexture).Arg(GL_TEXTURE_2D).Arg(static_cast<int64_t>(texture));
    calls_.Add(api::glTexImage2D).Arg(GL_TEXTURE_2D).Arg(0).Arg(GL_RGBA).Arg(width).Arg(height).Arg(0).Arg(GL_RGBA)
        .Arg(GL_UNSIGNED_BYTE).In(pixels.data(), pixels.size());
    for (GLenum pname : {GL_TEXTURE_MIN_FILTER, GL_TEXTURE_MAG_FILTER}) {
      calls_.Add(api::glTexParameteri).Arg(GL_TEXTURE_2D).Arg(pname).Arg(GL_NEAREST);
    }
    Shader(vertex, GL_VERTEX_SHADER,
           "attribute vec2 corner;\nvarying vec2 at;\n"
           "void main() { at = corner * 0.5 + 0.5; gl_Position = vec4(corner, 0.0, 1.0); }\n",
           true);
    Shader(fragment, GL_FRAGMENT_SHADER,
           "precision mediump float;\nuniform sampler2D surface;\nvarying vec2 at;\n"
           "void main() { gl_FragColor = texture2D(surface, at); }\n",
           true);
    calls_.Add(api::glCreateProgram).Returns(program);
    calls_.Add(api::glAttachShader).Arg(static_cast<int64_t>(program)).Arg(static_cast<int64_t>(vertex));
    calls_.Add(api::glAttachShader).Arg(static_cast<int64_t>(program)).Arg(static_cast<int64_t>(fragment));
    calls_.Add(api::glBindAttribLocation).Arg(static_cast<int64_t>(program)).Arg(0).String("corner");
    calls_.Add(api::glLinkProgram).Arg(static_cast<int64_t>(program));
    calls_.Add(api::glUseProgram).Arg(static_cast<int64_t>(program));
    const float corners[] = {-1, -1, 1, -1, -1, 1, 1, 1};
    Generate(api::glGenBuffers, buffer);
    calls_.Add(api::glBindBuffer).Arg(GL_ARRAY_BUFFER).Arg(static_cast<int64_t>(buffer));
    calls_.Add(api::glBufferData).Arg(GL_ARRAY_BUFFER).Arg(sizeof corners).In(corners, sizeof corners)
        .Arg(GL_STATIC_DRAW);
    calls_.Add(api::glVertexAttribPointer).Arg(0).Arg(2).Arg(GL_FLOAT).Arg(GL_FALSE).Arg(0).Arg(0);
    calls_.Add(api::glEnableVertexAttribArray).Arg(0);
    calls_.Add(api::glViewport).Arg(0).Arg(0).Arg(width).Arg(height);
    calls_.Add(api::glDrawArrays).Arg(GL_TRIANGLE_STRIP).Arg(0).Arg(4);
    // Attribute 0 back to a fresh context's; the rest is set again later.
    calls_.Add(api::glDisableVertexAttribArray).Arg(0);
    calls_.Add(api::glBindBuffer).Arg(GL_ARRAY_BUFFER).Arg(0);
    calls_.Add(api::glVertexAttribPointer).Arg(0).Arg(4).Arg(GL_FLOAT).Arg(GL_FALSE).Arg(0).Arg(0);
    calls_.Add(api::glUseProgram).Arg(0);
    calls_.Add(api::glDeleteProgram).Arg(static_cast<int64_t>(program));
    calls_.Add(api::glDeleteShader).Arg(static_cast<int64_t>(vertex));
    calls_.Add(api::glDeleteShader).Arg(static_cast<int64_t>(fragment));
    const GLuint buffer_name = static_cast<GLuint>(buffer), texture_name = static_cast<GLuint>(texture);
    calls_.Add(api::glDeleteBuffers).Arg(1).In(&buffer_name, sizeof buffer_name);
    calls_.Add(api::glDeleteTextures).Arg(1).In(&texture_name, sizeof texture_name);
  }

  // Pins every active attribute where the driver put it, so that the
  // relinked program matches the locations the recorded calls use.
  void BindAttributes(uint64_t name, GLuint host) {
    auto get = F<PFNGLGETPROGRAMIVPROC>(api::glGetProgramiv);
    GLint count = 0, longest = 0;
    get(host, GL_ACTIVE_ATTRIBUTES, &count);
    get(host, GL_ACTIVE_ATTRIBUTE_MAX_LENGTH, &longest);
    std::vector<char> text(static_cast<size_t>(std::max(longest, 1)) + 1);
    for (GLint i = 0; i < count; ++i) {
      GLsizei length = 0;
      GLint size = 0;
      GLenum type = 0;
      F<PFNGLGETACTIVEATTRIBPROC>(api::glGetActiveAttrib)(host, static_cast<GLuint>(i), static_cast<GLsizei>(text.size()),
                                                          &length, &size, &type, text.data());
      const std::string attribute(text.data(), static_cast<size_t>(std::max(length, 0)));
      if (attribute.rfind("gl_", 0) == 0) continue;
      const GLint location = F<PFNGLGETATTRIBLOCATIONPROC>(api::glGetAttribLocation)(host, attribute.c_str());
      if (location < 0) continue;
      calls_.Add(api::glBindAttribLocation).Arg(static_cast<int64_t>(name)).Arg(location).String(attribute);
    }
  }

  void TransformFeedbackVaryings(uint64_t name, GLuint host) {
    auto get = F<PFNGLGETPROGRAMIVPROC>(api::glGetProgramiv);
    GLint count = 0, longest = 0, mode = GL_INTERLEAVED_ATTRIBS;
    get(host, GL_TRANSFORM_FEEDBACK_VARYINGS, &count);
    if (count <= 0) return;
    get(host, GL_TRANSFORM_FEEDBACK_VARYING_MAX_LENGTH, &longest);
    get(host, GL_TRANSFORM_FEEDBACK_BUFFER_MODE, &mode);
    std::vector<char> text(static_cast<size_t>(std::max(longest, 1)) + 1);
    std::vector<std::string> names;
    for (GLint i = 0; i < count; ++i) {
      GLsizei length = 0, size = 0;
      GLenum type = 0;
      F<PFNGLGETTRANSFORMFEEDBACKVARYINGPROC>(api::glGetTransformFeedbackVarying)(
          host, static_cast<GLuint>(i), static_cast<GLsizei>(text.size()), &length, &size, &type, text.data());
      names.emplace_back(text.data(), static_cast<size_t>(std::max(length, 0)));
    }
    calls_.Add(api::glTransformFeedbackVaryings).Arg(static_cast<int64_t>(name)).Arg(count).Strings(names).Arg(mode);
  }

  void Uniforms(uint64_t name, GLuint host) {
    auto get = F<PFNGLGETPROGRAMIVPROC>(api::glGetProgramiv);
    bool in_use = false;
    for (const glstate::Uniform& uniform : glstate::ReadUniforms(functions_, host, host_version_)) {
      if (uniform.name.rfind("gl_", 0) == 0) continue;
      if (version_ >= 30 && uniform.block >= 0) continue;  // its value lives in a buffer
      const UniformSetter setter = SetterOf(uniform.type);
      const size_t components = UniformTypeComponents(uniform.type);
      for (const glstate::UniformElement& element : uniform.elements) {
        if (element.location < 0) continue;
        if (!in_use) {
          calls_.Add(api::glUseProgram).Arg(static_cast<int64_t>(name));
          in_use = true;
        }
        const int64_t stream_location = source_.StreamLocation(name, element.location);
        calls_.Add(api::glGetUniformLocation).Arg(static_cast<int64_t>(name)).String(element.name)
            .Returns(static_cast<uint64_t>(stream_location));
        auto set = calls_.Add(setter.slot);
        set.Arg(stream_location).Arg(1);
        if (setter.matrix) set.Arg(GL_FALSE);
        set.In(element.values, components * sizeof(uint32_t));
      }
    }
    if (version_ >= 30) {
      GLint blocks = 0;
      get(host, GL_ACTIVE_UNIFORM_BLOCKS, &blocks);
      for (GLint block = 0; block < blocks; ++block) {
        GLint binding = 0;
        F<PFNGLGETACTIVEUNIFORMBLOCKIVPROC>(api::glGetActiveUniformBlockiv)(host, static_cast<GLuint>(block),
                                                                           GL_UNIFORM_BLOCK_BINDING, &binding);
        calls_.Add(api::glUniformBlockBinding).Arg(static_cast<int64_t>(name)).Arg(block).Arg(binding);
      }
    }
  }

  void Framebuffers() {
    auto is_framebuffer = F<PFNGLISFRAMEBUFFERPROC>(api::glIsFramebuffer);
    auto bind = F<PFNGLBINDFRAMEBUFFERPROC>(api::glBindFramebuffer);
    // GLES 2 has one binding point: the framebuffer is read where the app's draws go.
    const GLenum read_at = host_version_ >= 30 ? GL_READ_FRAMEBUFFER : GL_FRAMEBUFFER;
    const GLint saved = Integer(host_version_ >= 30 ? GL_READ_FRAMEBUFFER_BINDING : GL_FRAMEBUFFER_BINDING);
    for (const auto& [name, host] : source_.LiveObjects(ObjectClass::kFramebuffer)) {
      if (read_framebuffer_ != 0 && host == read_framebuffer_) continue;  // the snapshot's own, for reading images
      Generate(api::glGenFramebuffers, name);
      if (!is_framebuffer(static_cast<GLuint>(host))) continue;
      calls_.Add(api::glBindFramebuffer).Arg(GL_FRAMEBUFFER).Arg(static_cast<int64_t>(name));
      bind(read_at, static_cast<GLuint>(host));
      for (const glstate::Attachment& a : glstate::ReadAttachments(functions_, read_at, host_version_)) {
        const GLenum point = a.point;
        const GLint level = a.level, face = a.face, layer = a.layer;
        if (a.type == GL_RENDERBUFFER) {
          calls_.Add(api::glFramebufferRenderbuffer).Arg(GL_FRAMEBUFFER).Arg(point).Arg(GL_RENDERBUFFER)
              .Arg(static_cast<int64_t>(Stream(ObjectClass::kRenderbuffer, static_cast<GLint>(a.object))));
          continue;
        }
        const uint64_t texture = Stream(ObjectClass::kTexture, static_cast<GLint>(a.object));
        const GLenum target = source_.TextureTarget(texture);
        if (api::IsLayeredTarget(target)) {
          calls_.Add(api::glFramebufferTextureLayer).Arg(GL_FRAMEBUFFER).Arg(point).Arg(static_cast<int64_t>(texture))
              .Arg(level).Arg(layer);
        } else {
          const GLenum image_target = target == GL_TEXTURE_CUBE_MAP ? static_cast<GLenum>(face)
                                      : target != 0                 ? target
                                                                    : GL_TEXTURE_2D;
          calls_.Add(api::glFramebufferTexture2D).Arg(GL_FRAMEBUFFER).Arg(point).Arg(image_target)
              .Arg(static_cast<int64_t>(texture)).Arg(level);
        }
      }
      if (version_ >= 30) {
        // Draw buffers are asked of the draw binding, the read buffer of the read one.
        bind(GL_DRAW_FRAMEBUFFER, static_cast<GLuint>(host));
        std::vector<GLenum> draw_buffers;
        const GLint max_draw = std::min(Integer(GL_MAX_DRAW_BUFFERS), 16);
        for (GLint i = 0; i < max_draw; ++i) draw_buffers.push_back(static_cast<GLenum>(Integer(GL_DRAW_BUFFER0 + i)));
        while (!draw_buffers.empty() && draw_buffers.back() == GL_NONE) draw_buffers.pop_back();
        if (draw_buffers.empty()) draw_buffers.push_back(GL_NONE);
        calls_.Add(api::glDrawBuffers).Arg(static_cast<int64_t>(draw_buffers.size()))
            .In(draw_buffers.data(), draw_buffers.size() * sizeof(GLenum));
        calls_.Add(api::glReadBuffer).Arg(Integer(GL_READ_BUFFER));
        bind(GL_DRAW_FRAMEBUFFER, static_cast<GLuint>(saved_draw_framebuffer_));
      }
    }
    if (version_ >= 30 && host_version_ >= 30) {
      // The default framebuffer's draw and read buffers: GL_BACK, unless the app chose GL_NONE.
      bind(GL_READ_FRAMEBUFFER, 0);
      bind(GL_DRAW_FRAMEBUFFER, 0);
      const GLenum none = GL_NONE;
      const bool draws_none = Integer(GL_DRAW_BUFFER0) == GL_NONE, reads_none = Integer(GL_READ_BUFFER) == GL_NONE;
      if (draws_none || reads_none) calls_.Add(api::glBindFramebuffer).Arg(GL_FRAMEBUFFER).Arg(0);
      if (draws_none) calls_.Add(api::glDrawBuffers).Arg(1).In(&none, sizeof none);
      if (reads_none) calls_.Add(api::glReadBuffer).Arg(GL_NONE);
      bind(GL_DRAW_FRAMEBUFFER, static_cast<GLuint>(saved_draw_framebuffer_));
    }
    bind(read_at, static_cast<GLuint>(saved));
    ClearErrors();
  }

  // The attribute arrays of the bound vertex array object (0: the default one).
  void AttributeArrays(bool default_object) {
    auto get_i = F<PFNGLGETVERTEXATTRIBIVPROC>(api::glGetVertexAttribiv);
    auto get_pointer = F<PFNGLGETVERTEXATTRIBPOINTERVPROC>(api::glGetVertexAttribPointerv);
    const GLint attributes = std::min(Integer(GL_MAX_VERTEX_ATTRIBS), kMaxVertexAttributesRead);
    for (GLint i = 0; i < attributes; ++i) {
      const GLuint index = static_cast<GLuint>(i);
      const glstate::AttributeArray a =
          glstate::ReadAttributeArray(get_i, get_pointer, index, host_version_ >= 30 && version_ >= 30);
      const GLint buffer = a.buffer, size = a.size, type = a.type, stride = a.stride, normalized = a.normalized;
      const GLint integer = a.integer, divisor = a.divisor, enabled = a.enabled;
      uint64_t address = reinterpret_cast<uintptr_t>(a.pointer);
      const bool specified = a.specified();
      if (specified) {
        if (buffer == 0 && address != 0) {
          // A client array: the stream's address, which the draws' memory records fill.
          address = default_object ? source_.ClientArrayAddress(index) : 0;
          if (address == 0) Note("vertex attribute " + std::to_string(i) + ": a client array the snapshot cannot name");
        }
        calls_.Add(api::glBindBuffer).Arg(GL_ARRAY_BUFFER).Arg(static_cast<int64_t>(Stream(ObjectClass::kBuffer, buffer)));
        if (integer) {
          calls_.Add(api::glVertexAttribIPointer).Arg(i).Arg(size).Arg(type).Arg(stride).Arg(static_cast<int64_t>(address));
        } else {
          calls_.Add(api::glVertexAttribPointer).Arg(i).Arg(size).Arg(type).Arg(normalized).Arg(stride)
              .Arg(static_cast<int64_t>(address));
        }
      }
      if (divisor != 0) calls_.Add(api::glVertexAttribDivisor).Arg(i).Arg(divisor);
      if (enabled) calls_.Add(api::glEnableVertexAttribArray).Arg(i);
    }
    calls_.Add(api::glBindBuffer).Arg(GL_ELEMENT_ARRAY_BUFFER)
        .Arg(static_cast<int64_t>(Stream(ObjectClass::kBuffer, Integer(GL_ELEMENT_ARRAY_BUFFER_BINDING))));
  }

  void VertexArrays() {
    auto bind = F<PFNGLBINDVERTEXARRAYPROC>(api::glBindVertexArray);
    auto is_vertex_array = F<PFNGLISVERTEXARRAYPROC>(api::glIsVertexArray);
    if (version_ >= 30 && host_version_ >= 30) {
      for (const auto& [name, host] : source_.LiveObjects(ObjectClass::kVertexArray)) {
        Generate(api::glGenVertexArrays, name);
        if (!is_vertex_array(static_cast<GLuint>(host))) continue;
        calls_.Add(api::glBindVertexArray).Arg(static_cast<int64_t>(name));
        bind(static_cast<GLuint>(host));
        AttributeArrays(false);
      }
      calls_.Add(api::glBindVertexArray).Arg(0);
      bind(0);
    }
    AttributeArrays(true);
    // Current values of the attributes (those arrays do not feed).
    for (size_t i = 0; i < state_.attributes.size(); ++i) {
      const GLfloat* value = state_.attributes[i].current;
      if (value[0] == 0 && value[1] == 0 && value[2] == 0 && value[3] == 1) continue;
      calls_.Add(api::glVertexAttrib4fv).Arg(static_cast<int64_t>(i)).In(value, 4 * sizeof(GLfloat));
    }
    ClearErrors();
  }

  void Queries() {
    if (version_ < 30) return;
    for (const auto& [name, host] : source_.LiveObjects(ObjectClass::kQuery)) {
      (void)host;
      Generate(api::glGenQueries, name);
    }
  }

  void Syncs() {
    if (version_ < 30) return;
    for (const auto& [name, host] : source_.LiveObjects(ObjectClass::kGlSync)) {
      (void)host;
      // A fence the snapshot's own commands signal: whoever waits on it goes on.
      calls_.Add(api::glFenceSync).Arg(GL_SYNC_GPU_COMMANDS_COMPLETE).Arg(0).Returns(name);
    }
  }

  // Each transform feedback object, the default one too, with the buffers bound at its indices.
  void TransformFeedbacks() {
    if (version_ < 30 || host_version_ < 30) return;
    auto bind = F<PFNGLBINDTRANSFORMFEEDBACKPROC>(api::glBindTransformFeedback);
    auto is_transform_feedback = F<PFNGLISTRANSFORMFEEDBACKPROC>(api::glIsTransformFeedback);
    const GLint saved = Integer(GL_TRANSFORM_FEEDBACK_BINDING);
    std::vector<std::pair<uint64_t, uint64_t>> objects = {{0, 0}};
    for (const auto& [name, host] : source_.LiveObjects(ObjectClass::kTransformFeedback)) {
      Generate(api::glGenTransformFeedbacks, name);
      if (is_transform_feedback(static_cast<GLuint>(host))) objects.emplace_back(name, host);  // bound once
    }
    for (const auto& [name, host] : objects) {
      bind(GL_TRANSFORM_FEEDBACK, static_cast<GLuint>(host));
      calls_.Add(api::glBindTransformFeedback).Arg(GL_TRANSFORM_FEEDBACK).Arg(static_cast<int64_t>(name));
      for (const api::IndexedBufferTarget& target : api::kIndexedBufferTargets) {
        if (target.target == GL_TRANSFORM_FEEDBACK_BUFFER) {
          IndexedBindings(glstate::ReadIndexedBindings(functions_, target));
        }
      }
    }
    bind(GL_TRANSFORM_FEEDBACK, static_cast<GLuint>(saved));
    ClearErrors();
  }

  // Program pipelines: their names, for the binding (GLES 3.1's separable
  // programs are relinked as ordinary ones, so a pipeline's stages are not set).
  void ProgramPipelines() {
    if (version_ < 31 || host_version_ < 31) return;
    auto stage = F<PFNGLGETPROGRAMPIPELINEIVPROC>(api::glGetProgramPipelineiv);
    for (const auto& [name, host] : source_.LiveObjects(ObjectClass::kProgramPipeline)) {
      Generate(api::glGenProgramPipelines, name);
      for (GLenum shader : {GL_VERTEX_SHADER, GL_FRAGMENT_SHADER, GL_COMPUTE_SHADER}) {
        GLint program = 0;
        stage(static_cast<GLuint>(host), shader, &program);
        if (program != 0) {
          Note("program pipeline " + std::to_string(name) + ": its programs are not carried, only its name");
          break;
        }
      }
    }
    ClearErrors();
  }

  void Enable(GLenum capability, bool on) {
    calls_.Add(on ? api::glEnable : api::glDisable).Arg(capability);
  }

  // The context's own state (state_), as calls.
  void ContextState() {
    for (const auto& [capability, on] : state_.capabilities) {
      if (CapabilityVersion(capability) <= version_) Enable(capability, on);
    }
    const glstate::ContextState& st = state_;
    auto one = [&](GLenum pname) { return st.Integer(pname); };
    auto v = st.Integers(GL_VIEWPORT);
    calls_.Add(api::glViewport).Arg(v[0]).Arg(v[1]).Arg(v[2]).Arg(v[3]);
    v = st.Integers(GL_SCISSOR_BOX);
    calls_.Add(api::glScissor).Arg(v[0]).Arg(v[1]).Arg(v[2]).Arg(v[3]);
    calls_.Add(api::glBlendFuncSeparate).Arg(one(GL_BLEND_SRC_RGB)).Arg(one(GL_BLEND_DST_RGB))
        .Arg(one(GL_BLEND_SRC_ALPHA)).Arg(one(GL_BLEND_DST_ALPHA));
    calls_.Add(api::glBlendEquationSeparate).Arg(one(GL_BLEND_EQUATION_RGB)).Arg(one(GL_BLEND_EQUATION_ALPHA));
    auto f = st.Floats(GL_BLEND_COLOR);
    calls_.Add(api::glBlendColor).Float(f[0]).Float(f[1]).Float(f[2]).Float(f[3]);
    calls_.Add(api::glDepthFunc).Arg(one(GL_DEPTH_FUNC));
    calls_.Add(api::glDepthMask).Arg(one(GL_DEPTH_WRITEMASK));
    f = st.Floats(GL_DEPTH_RANGE);
    calls_.Add(api::glDepthRangef).Float(f[0]).Float(f[1]);
    f = st.Floats(GL_COLOR_CLEAR_VALUE);
    calls_.Add(api::glClearColor).Float(f[0]).Float(f[1]).Float(f[2]).Float(f[3]);
    calls_.Add(api::glClearDepthf).Float(st.Float(GL_DEPTH_CLEAR_VALUE));
    calls_.Add(api::glClearStencil).Arg(one(GL_STENCIL_CLEAR_VALUE));
    v = st.Integers(GL_COLOR_WRITEMASK);
    calls_.Add(api::glColorMask).Arg(v[0]).Arg(v[1]).Arg(v[2]).Arg(v[3]);
    calls_.Add(api::glCullFace).Arg(one(GL_CULL_FACE_MODE));
    calls_.Add(api::glFrontFace).Arg(one(GL_FRONT_FACE));
    calls_.Add(api::glLineWidth).Float(st.Float(GL_LINE_WIDTH));
    calls_.Add(api::glPolygonOffset).Float(st.Float(GL_POLYGON_OFFSET_FACTOR)).Float(st.Float(GL_POLYGON_OFFSET_UNITS));
    calls_.Add(api::glSampleCoverage).Float(st.Float(GL_SAMPLE_COVERAGE_VALUE)).Arg(one(GL_SAMPLE_COVERAGE_INVERT));
    calls_.Add(api::glStencilFuncSeparate).Arg(GL_FRONT).Arg(one(GL_STENCIL_FUNC)).Arg(one(GL_STENCIL_REF))
        .Arg(one(GL_STENCIL_VALUE_MASK));
    calls_.Add(api::glStencilFuncSeparate).Arg(GL_BACK).Arg(one(GL_STENCIL_BACK_FUNC)).Arg(one(GL_STENCIL_BACK_REF))
        .Arg(one(GL_STENCIL_BACK_VALUE_MASK));
    calls_.Add(api::glStencilOpSeparate).Arg(GL_FRONT).Arg(one(GL_STENCIL_FAIL)).Arg(one(GL_STENCIL_PASS_DEPTH_FAIL))
        .Arg(one(GL_STENCIL_PASS_DEPTH_PASS));
    calls_.Add(api::glStencilOpSeparate).Arg(GL_BACK).Arg(one(GL_STENCIL_BACK_FAIL))
        .Arg(one(GL_STENCIL_BACK_PASS_DEPTH_FAIL)).Arg(one(GL_STENCIL_BACK_PASS_DEPTH_PASS));
    calls_.Add(api::glStencilMaskSeparate).Arg(GL_FRONT).Arg(one(GL_STENCIL_WRITEMASK));
    calls_.Add(api::glStencilMaskSeparate).Arg(GL_BACK).Arg(one(GL_STENCIL_BACK_WRITEMASK));
    for (const api::VersionedEnum& hint : api::kHints) {
      if (hint.min_version <= version_) calls_.Add(api::glHint).Arg(hint.value).Arg(one(hint.value));
    }
    for (const api::VersionedEnum& pname : api::kPixelStoreParameters) {
      if (pname.min_version <= version_) calls_.Add(api::glPixelStorei).Arg(pname.value).Arg(one(pname.value));
    }
    Bindings();
  }

  static int CapabilityVersion(GLenum capability) {
    for (const api::VersionedEnum& known : api::kCapabilities) {
      if (known.value == capability) return known.min_version;
    }
    return 20;
  }

  void Bindings() {
    // Textures and samplers per unit; the units past the last one bound are left alone.
    for (size_t unit = 0; unit < state_.units.size(); ++unit) {
      const glstate::TextureUnit& read = state_.units[unit];
      bool unit_chosen = false;
      for (const auto& [target, bound] : read.textures) {
        if (target->min_version > version_) continue;
        // Unit 0 had every texture bound while the snapshot filled them: each target is set again.
        if (bound == 0 && unit != 0) continue;
        if (!unit_chosen) calls_.Add(api::glActiveTexture).Arg(GL_TEXTURE0 + static_cast<int64_t>(unit));
        unit_chosen = true;
        calls_.Add(api::glBindTexture).Arg(target->target)
            .Arg(static_cast<int64_t>(Stream(ObjectClass::kTexture, static_cast<GLint>(bound))));
      }
      if (version_ >= 30 && read.sampler != 0) {
        calls_.Add(api::glBindSampler).Arg(static_cast<int64_t>(unit))
            .Arg(static_cast<int64_t>(Stream(ObjectClass::kSampler, static_cast<GLint>(read.sampler))));
      }
    }
    calls_.Add(api::glActiveTexture).Arg(state_.Integer(GL_ACTIVE_TEXTURE));

    // Transform feedback buffers are the transform feedback objects' (TransformFeedbacks).
    for (const glstate::IndexedTargetBindings& indexed : state_.indexed) {
      if (indexed.target->target != GL_TRANSFORM_FEEDBACK_BUFFER) IndexedBindings(indexed);
    }
    auto bound = [&](ObjectClass object, GLenum binding) {
      return static_cast<int64_t>(Stream(object, state_.Integer(binding)));
    };
    // Generic buffer bindings, after the indexed ones that also set them; the
    // element array buffer is the vertex array's (VertexArrays).
    for (const api::TargetBinding& target : api::kBufferTargets) {
      if (target.target == GL_ELEMENT_ARRAY_BUFFER) continue;
      if (target.min_version > version_ || target.min_version > host_version_) continue;
      calls_.Add(api::glBindBuffer).Arg(target.target).Arg(bound(ObjectClass::kBuffer, target.binding));
    }
    if (version_ >= 30) {
      calls_.Add(api::glBindFramebuffer).Arg(GL_DRAW_FRAMEBUFFER)
          .Arg(bound(ObjectClass::kFramebuffer, GL_DRAW_FRAMEBUFFER_BINDING));
      calls_.Add(api::glBindFramebuffer).Arg(GL_READ_FRAMEBUFFER)
          .Arg(bound(ObjectClass::kFramebuffer, GL_READ_FRAMEBUFFER_BINDING));
      calls_.Add(api::glBindTransformFeedback).Arg(GL_TRANSFORM_FEEDBACK)
          .Arg(bound(ObjectClass::kTransformFeedback, GL_TRANSFORM_FEEDBACK_BINDING));
      calls_.Add(api::glBindVertexArray).Arg(bound(ObjectClass::kVertexArray, GL_VERTEX_ARRAY_BINDING));
      if (version_ >= 31 && host_version_ >= 31) {
        calls_.Add(api::glBindProgramPipeline)
            .Arg(bound(ObjectClass::kProgramPipeline, GL_PROGRAM_PIPELINE_BINDING));
      }
    } else {
      calls_.Add(api::glBindFramebuffer).Arg(GL_FRAMEBUFFER)
          .Arg(bound(ObjectClass::kFramebuffer, GL_FRAMEBUFFER_BINDING));
    }
    calls_.Add(api::glBindRenderbuffer).Arg(GL_RENDERBUFFER)
        .Arg(bound(ObjectClass::kRenderbuffer, GL_RENDERBUFFER_BINDING));
    calls_.Add(api::glUseProgram).Arg(bound(ObjectClass::kProgram, GL_CURRENT_PROGRAM));
  }

  // What is bound at each index of an indexed buffer target.
  void IndexedBindings(const glstate::IndexedTargetBindings& indexed) {
    const api::IndexedBufferTarget& target = *indexed.target;
    if (target.min_version > version_ || target.min_version > host_version_) return;
    for (const glstate::IndexedBinding& binding : indexed.bound) {
      const int64_t name = static_cast<int64_t>(Stream(ObjectClass::kBuffer, static_cast<GLint>(binding.buffer)));
      if (binding.size > 0) {
        calls_.Add(api::glBindBufferRange).Arg(target.target).Arg(binding.index).Arg(name).Arg(binding.start)
            .Arg(binding.size);
      } else {
        calls_.Add(api::glBindBufferBase).Arg(target.target).Arg(binding.index).Arg(name);
      }
    }
  }

  const int version_;
  const SnapshotScope scope_;
  const glstate::FunctionLookup functions_ = [this](api::Slot slot) { return source_.Function(slot); };
  int host_version_ = 20;
  glstate::ContextState state_;
  GLint saved_active_texture_ = 0, saved_pack_alignment_ = 4, saved_array_buffer_ = 0, saved_renderbuffer_ = 0;
  GLint saved_read_framebuffer_ = 0, saved_draw_framebuffer_ = 0, saved_pack_[3] = {}, saved_pack_buffer_ = 0;
  GLint saved_copy_read_ = 0, saved_vertex_array_ = 0;
  GLuint read_framebuffer_ = 0;
  std::map<uint64_t, uint64_t> live_shaders_;  // driver name -> stream name
};

}  // namespace

bool ImagesReadBack(GLenum internal_format) {
  ImageLayout layout;
  return LayoutOf(internal_format, &layout);
}

bool TakeSnapshot(const SnapshotSource& source, SnapshotResult* result, std::string* error, SnapshotScope scope) {
  if (source.Version() < 20) return TakeGles1Snapshot(source, result, error, scope);
  return Snapshot(source, result, scope).Take(error);
}

}  // namespace strata::snapshot
