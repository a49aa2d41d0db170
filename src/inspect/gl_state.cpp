#include "inspect/gl_state.h"

#include <EGL/egl.h>
#include <GLES/gl.h>
#include <GLES3/gl32.h>

#include <GLES2/gl2ext.h>

#include <bit>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <set>

#include "common/png_file.h"
#include "common/state_read_limits.h"
#include "common/uniform_types.h"
#include "glstate/object_state.h"
#include "glstate/program_state.h"
#include "glstate/shader_state.h"
#include "inspect/gl_state_reader.h"
#include "stream/pack_state.h"
#include "strata/api/functions.h"
#include "strata/api/parameters.h"

namespace strata::inspect {
namespace {

using api::ObjectClass;

class StateReader {
 public:
  StateReader(host::Executor& executor, uint32_t thread, const GlStateOptions& options, JsonWriter& json,
              GlStateFiles* files)
      : executor_(executor), driver_(executor.driver()), gl_(driver_), thread_(thread), options_(options),
        json_(json), files_(files) {}

  void Write() {
    gl_.ClearErrors();
    const int requested = executor_.CurrentVersion(thread_);
    json_.BeginObject();
    json_.Key("context").BeginObject().Key("gles_version").Int(requested);
    const char* host_version = reinterpret_cast<const char*>(gl_.GetString(GL_VERSION));
    json_.Key("host_version").String(host_version ? host_version : "");
    char handle[24];  // as strata dump prints EGL handles
    std::snprintf(handle, sizeof handle, "0x%llx", static_cast<unsigned long long>(executor_.CurrentContext(thread_)));
    json_.Key("handle").String(handle);
    WriteSurfaces();
    json_.EndObject();
    version_ = glstate::HostVersion(Lookup(driver_));
    const StreamNames& names = names_;
    if (requested == 1) {
      WriteFixedFunctionState(glstate::ReadContextState(Lookup(driver_), 10), json_, names);
      WriteFramebuffer();
      if (!options_.output_dir.empty()) {
        files_->unread.push_back("GLES 1.1 textures and buffers: not read back (GLES 1.1 can read neither)");
      }
      json_.EndObject();
      return;
    }
    state_ = glstate::ReadContextState(Lookup(driver_), version_);
    json_.Key("capabilities").BeginObject();
    WriteCapabilities(state_.capabilities, json_);
    json_.EndObject();
    json_.Key("values").BeginObject();
    std::vector<glstate::StateValue> values;  // bindings apart
    for (const glstate::StateValue& value : state_.values) {
      if (value.parameter->names == ObjectClass::kNone) values.push_back(value);
    }
    WriteValues(values, json_, names);
    json_.EndObject();
    WriteBindings();
    WriteProgram();
    WriteVertexAttributes();
    WriteTextures();
    WriteSamplers();
    WriteBuffers();
    WriteFramebuffer();
    json_.EndObject();
  }

 private:
  uint64_t StreamName(ObjectClass object, GLint host) {
    return executor_.StreamName(thread_, object, static_cast<uint64_t>(static_cast<GLuint>(host)));
  }
  template <typename Pfn>
  Pfn Function(api::Slot slot) const {
    return driver_.Get<Pfn>(slot);
  }
  bool ImagesWanted() const { return !options_.output_dir.empty() || options_.image_sink; }
  // An image (bottom row first) to the sink or as a PNG file; its name in the JSON, or empty with `error`.
  std::string EmitImage(const std::string& file_name, int width, int height, const std::vector<uint8_t>& rgba,
                        std::string* error) {
    if (options_.image_sink) return options_.image_sink(width, height, rgba);
    const std::string path = OutputPath(file_name);
    if (!WritePng(path, width, height, rgba, true, error)) return {};
    files_->written.push_back(path);
    return path;
  }
  std::string OutputPath(const std::string& name) {
    std::error_code made;
    std::filesystem::create_directories(options_.output_dir, made);
    return (std::filesystem::path(options_.output_dir) / name).string();
  }

  // The current draw and read surfaces' sizes (the host's stand-ins for the
  // app's windows and pbuffers, made at the recorded sizes).
  void WriteSurfaces() {
    auto current_display = Function<PFNEGLGETCURRENTDISPLAYPROC>(api::eglGetCurrentDisplay);
    auto current_surface = Function<PFNEGLGETCURRENTSURFACEPROC>(api::eglGetCurrentSurface);
    auto query_surface = Function<PFNEGLQUERYSURFACEPROC>(api::eglQuerySurface);
    const EGLDisplay display = current_display();
    for (const auto& [key, which] : {std::pair{"draw_surface", EGL_DRAW}, std::pair{"read_surface", EGL_READ}}) {
      const EGLSurface surface = current_surface(which);
      json_.Key(key);
      if (surface == EGL_NO_SURFACE) {
        json_.Null();
        continue;
      }
      EGLint width = 0, height = 0;
      query_surface(display, surface, EGL_WIDTH, &width);
      query_surface(display, surface, EGL_HEIGHT, &height);
      json_.BeginObject().Key("width").Int(width).Key("height").Int(height).EndObject();
    }
  }

  void WriteBindings() {
    json_.Key("bindings").BeginObject();
    for (const glstate::StateValue& binding : state_.values) {
      if (binding.parameter->names == ObjectClass::kNone) continue;
      const GLint host = binding.ints[0];
      const uint64_t name = StreamName(binding.parameter->names, host);
      json_.Key(binding.parameter->name).UInt(name);
      if (binding.parameter->names == ObjectClass::kBuffer && name) buffers_[name].insert(binding.parameter->name);
      if (binding.parameter->pname == GL_CURRENT_PROGRAM) program_ = static_cast<GLuint>(host);
    }
    // Indexed buffer bindings: only those with a buffer.
    for (const glstate::IndexedTargetBindings& indexed : state_.indexed) {
      if (indexed.bound.empty()) continue;
      const std::string target = EnumText(indexed.target->target);
      json_.Key(target + "[]").BeginArray();
      for (const glstate::IndexedBinding& bound : indexed.bound) {
        const uint64_t name = StreamName(ObjectClass::kBuffer, static_cast<GLint>(bound.buffer));
        json_.BeginObject().Key("index").Int(bound.index).Key("buffer").UInt(name);
        json_.Key("start").Int(bound.start).Key("size").Int(bound.size).EndObject();
        buffers_[name].insert(target + "[" + std::to_string(bound.index) + "]");
      }
      json_.EndArray();
    }
    // Per texture unit: the textures bound at each target and the sampler.
    json_.Key("texture_units").BeginArray();
    for (size_t unit = 0; unit < state_.units.size(); ++unit) {
      const glstate::TextureUnit& read = state_.units[unit];
      bool opened = false;
      auto open = [&] {
        if (!opened) json_.BeginObject().Key("unit").Int(static_cast<int64_t>(unit)), opened = true;
      };
      for (const auto& [target, host] : read.textures) {
        if (host == 0) continue;
        open();
        const uint64_t name = StreamName(ObjectClass::kTexture, static_cast<GLint>(host));
        json_.Key(EnumText(target->binding)).UInt(name);
        textures_.push_back({name, host, target->target, static_cast<GLint>(unit)});
      }
      if (read.sampler != 0) {
        open();
        const uint64_t name = StreamName(ObjectClass::kSampler, static_cast<GLint>(read.sampler));
        json_.Key("GL_SAMPLER_BINDING").UInt(name);
        samplers_[name] = read.sampler;
      }
      if (opened) json_.EndObject();
    }
    json_.EndArray();
    // Queries in progress.
    if (version_ >= 30) {
      json_.Key("active_queries").BeginObject();
      for (const auto& [target, query] : state_.active_queries) {
        json_.Key(EnumText(target)).UInt(StreamName(ObjectClass::kQuery, static_cast<GLint>(query)));
      }
      json_.EndObject();
    }
    json_.EndObject();
  }

  void WriteProgram() {
    json_.Key("program");
    if (program_ == 0) {
      json_.Null();
      return;
    }
    auto get_program = Function<PFNGLGETPROGRAMIVPROC>(api::glGetProgramiv);
    auto attached = Function<PFNGLGETATTACHEDSHADERSPROC>(api::glGetAttachedShaders);
    auto get_shader = Function<PFNGLGETSHADERIVPROC>(api::glGetShaderiv);
    auto shader_source = Function<PFNGLGETSHADERSOURCEPROC>(api::glGetShaderSource);
    auto active_attrib = Function<PFNGLGETACTIVEATTRIBPROC>(api::glGetActiveAttrib);
    auto attrib_location = Function<PFNGLGETATTRIBLOCATIONPROC>(api::glGetAttribLocation);
    auto program_int = [&](GLenum pname) {
      GLint value = 0;
      get_program(program_, pname, &value);
      return value;
    };
    json_.BeginObject().Key("name").UInt(StreamName(ObjectClass::kProgram, static_cast<GLint>(program_)));
    json_.Key("GL_LINK_STATUS").Bool(program_int(GL_LINK_STATUS) != 0);
    json_.Key("shaders").BeginArray();
    const glstate::ShaderQueries shader_queries{get_shader, shader_source, attached};
    for (const glstate::ShaderSource& shader : glstate::ReadAttachedShaders(shader_queries, program_)) {
      json_.BeginObject()
          .Key("name")
          .UInt(StreamName(ObjectClass::kShader, static_cast<GLint>(shader.shader)))
          .Key("type")
          .String(EnumText(shader.type))
          .Key("source")
          .String(shader.source)
          .EndObject();
    }
    json_.EndArray();
    json_.Key("uniforms").BeginArray();
    for (const glstate::Uniform& uniform : glstate::ReadUniforms(Lookup(driver_), program_, version_)) {
      json_.BeginObject().Key("name").String(uniform.name).Key("type").String(EnumText(uniform.type));
      json_.Key("size").Int(uniform.size);
      const UniformScalar scalar = UniformTypeScalar(uniform.type);
      const size_t components = UniformTypeComponents(uniform.type);
      json_.Key("value");
      if (uniform.size > 1) json_.BeginArray();
      bool in_block = false;
      const size_t shown = std::min<size_t>(uniform.elements.size(), 1024);
      for (size_t e = 0; e < shown; ++e) {
        const glstate::UniformElement& element = uniform.elements[e];
        if (element.location < 0) {
          in_block = true;
          json_.Null();
          continue;
        }
        if (components > 1) json_.BeginArray();
        for (size_t c = 0; c < components; ++c) {
          const uint32_t bits = element.values[c];
          if (scalar == UniformScalar::kFloat) json_.Float(std::bit_cast<GLfloat>(bits));
          if (scalar == UniformScalar::kInt) json_.Int(std::bit_cast<GLint>(bits));
          if (scalar == UniformScalar::kUnsigned) json_.UInt(bits);
        }
        if (components > 1) json_.EndArray();
      }
      if (uniform.size > 1) json_.EndArray();
      if (in_block) json_.Key("note").String("in a uniform block: its value is in the block's buffer");
      json_.EndObject();
    }
    json_.EndArray();
    char name[512];
    json_.Key("attributes").BeginArray();
    const GLint attributes = program_int(GL_ACTIVE_ATTRIBUTES);
    for (GLint a = 0; a < attributes; ++a) {
      GLsizei length = 0;
      GLint size = 0;
      GLenum type = 0;
      active_attrib(program_, static_cast<GLuint>(a), sizeof name, &length, &size, &type, name);
      const GLint location = attrib_location(program_, name);
      if (location >= 0) program_attributes_.insert(location);
      json_.BeginObject()
          .Key("name")
          .String(std::string(name, static_cast<size_t>(length)))
          .Key("type")
          .String(EnumText(type))
          .Key("size")
          .Int(size)
          .Key("location")
          .Int(location)
          .EndObject();
    }
    json_.EndArray();
    json_.EndObject();
  }

  void WriteVertexAttributes() {
    json_.Key("vertex_attributes").BeginArray();
    for (size_t index = 0; index < state_.attributes.size(); ++index) {
      const glstate::VertexAttribute& attribute = state_.attributes[index];
      const glstate::AttributeArray& a = attribute.array;
      if (!a.enabled && !program_attributes_.count(static_cast<GLint>(index))) continue;
      const uint64_t buffer_name = StreamName(ObjectClass::kBuffer, a.buffer);
      json_.BeginObject().Key("index").Int(static_cast<int64_t>(index)).Key("enabled").Bool(a.enabled != 0);
      json_.Key("size").Int(a.size);
      json_.Key("type").String(EnumText(static_cast<GLenum>(a.type)));
      json_.Key("normalized").Bool(a.normalized != 0);
      if (version_ >= 30) {
        json_.Key("integer").Bool(a.integer != 0);
        json_.Key("divisor").Int(a.divisor);
      }
      json_.Key("stride").Int(a.stride);
      json_.Key("buffer").UInt(buffer_name);
      // With a buffer the pointer is an offset; without, an address of the replay's own copy.
      json_.Key("offset");
      if (a.buffer) {
        json_.UInt(reinterpret_cast<uintptr_t>(a.pointer));
      } else {
        json_.String("client memory");
      }
      json_.Key("current").BeginArray();
      for (GLfloat v : attribute.current) json_.Float(v);
      json_.EndArray().EndObject();
      if (buffer_name) buffers_[buffer_name].insert("vertex attribute " + std::to_string(index));
    }
    json_.EndArray();
  }

  struct BoundTexture {
    uint64_t name;
    GLuint host;
    GLenum target;
    GLint unit;
  };

  void WriteTextures() {
    auto level_parameter = Function<PFNGLGETTEXLEVELPARAMETERIVPROC>(api::glGetTexLevelParameteriv);
    const GLint active = gl_.Integer(GL_ACTIVE_TEXTURE);
    json_.Key("textures").BeginArray();
    for (const BoundTexture& texture : textures_) {
      gl_.ActiveTexture(GL_TEXTURE0 + static_cast<GLenum>(texture.unit));
      json_.BeginObject().Key("name").UInt(texture.name).Key("target").String(EnumText(texture.target));
      json_.Key("unit").Int(texture.unit);
      json_.Key("parameters").BeginObject();
      WriteValues(glstate::ReadTextureParameters(Lookup(driver_), texture.target, version_), json_, names_);
      json_.EndObject();
      // Level sizes: glGetTexLevelParameter is GLES 3.1's.
      json_.Key("levels").BeginArray();
      if (version_ >= 31 && level_parameter && texture.target != GL_TEXTURE_BUFFER &&
          texture.target != GL_TEXTURE_EXTERNAL_OES) {
        for (const glstate::TextureLevel& l : glstate::ReadTextureLevels(Lookup(driver_), texture.target)) {
          json_.BeginObject().Key("level").Int(l.level).Key("width").Int(l.width).Key("height").Int(l.height);
          json_.Key("depth").Int(l.depth).Key("internal_format").String(EnumText(l.internal_format));
          json_.Key("compressed").Bool(l.compressed);
          if (texture.target == GL_TEXTURE_2D_MULTISAMPLE || texture.target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY) {
            json_.Key("samples").Int(l.samples);
          }
          if (ImagesWanted() && (l.level == 0 || !options_.base_levels_only)) {
            json_.Key("images").BeginArray();
            for (const std::string& path : LevelImages({texture, l.level, l.width, l.height, l.depth, l.compressed})) {
              json_.String(path);
            }
            json_.EndArray();
          }
          json_.EndObject();
        }
      } else if (version_ < 31 || !level_parameter) {
        files_->unread.push_back("texture " + std::to_string(texture.name) +
                                 ": level sizes and images need glGetTexLevelParameter (GLES 3.1) on the host; it has " +
                                 std::to_string(version_ / 10) + "." + std::to_string(version_ % 10));
      } else {
        files_->unread.push_back("texture " + std::to_string(texture.name) + ": a " + EnumText(texture.target) +
                                 " has no levels to read (its data is a buffer's, or an EGL image's)");
      }
      json_.EndArray().EndObject();
    }
    json_.EndArray();
    gl_.ActiveTexture(static_cast<GLenum>(active));
    EndImageReads();
  }

  // Each sampler object bound at a unit: its parameters.
  void WriteSamplers() {
    if (samplers_.empty()) return;
    json_.Key("samplers").BeginArray();
    for (const auto& [name, host] : samplers_) {
      json_.BeginObject().Key("name").UInt(name).Key("parameters").BeginObject();
      for (const glstate::SamplingValue& value : glstate::ReadSamplerParameters(Lookup(driver_), host)) {
        json_.Key(EnumText(value.parameter->pname));
        if (value.parameter->is_float) {
          json_.Float(value.real);
        } else {
          json_.String(EnumText(static_cast<GLenum>(value.integer)));
        }
      }
      json_.EndObject().EndObject();
    }
    json_.EndArray();
  }

  void WriteBuffers() {
    auto bind_buffer = Function<PFNGLBINDBUFFERPROC>(api::glBindBuffer);
    const GLenum target = version_ >= 30 ? GL_COPY_READ_BUFFER : GL_ARRAY_BUFFER;
    const GLint previous = gl_.Integer(api::BufferBindingOf(target));
    json_.Key("buffers").BeginArray();
    for (const auto& buffer : buffers_) {
      const uint64_t name = buffer.first;  // a plain variable: the file-writing lambda below captures it
      const auto& bound_at = buffer.second;
      const GLuint host = static_cast<GLuint>(executor_.HostName(thread_, ObjectClass::kBuffer, name));
      bind_buffer(target, host);
      const glstate::BufferInfo info = glstate::ReadBufferInfo(Lookup(driver_), target, version_);
      const GLint size = info.size;
      json_.BeginObject().Key("name").UInt(name).Key("size").Int(size);
      json_.Key("usage").String(EnumText(static_cast<GLenum>(info.usage)));
      json_.Key("bound_at").BeginArray();
      for (const std::string& where : bound_at) json_.String(where);
      json_.EndArray();
      if (!options_.output_dir.empty() && size > 0) {
        const bool read = glstate::ReadBufferBytes(Lookup(driver_), target, version_, size, [&](const void* bytes) {
          const std::string path = OutputPath("buffer-" + std::to_string(name) + ".bin");
          if (FILE* out = std::fopen(path.c_str(), "wb")) {
            std::fwrite(bytes, 1, static_cast<size_t>(size), out);
            if (std::fclose(out) == 0) {
              files_->written.push_back(path);
              json_.Key("file").String(path);
            }
          }
        });
        if (!read) {
          const char* why = version_ >= 30 ? ": the host could not map it for reading"
                                           : ": GLES 2 cannot read a buffer's contents back (no glMapBufferRange)";
          files_->unread.push_back("buffer " + std::to_string(name) + why);
        }
      }
      json_.EndObject();
    }
    json_.EndArray();
    bind_buffer(target, static_cast<GLuint>(previous));
  }

  void WriteFramebuffer() {
    const GLint draw = gl_.Integer(GL_FRAMEBUFFER_BINDING);
    const uint64_t draw_name = StreamName(ObjectClass::kFramebuffer, draw);
    json_.Key("draw_framebuffer").BeginObject().Key("name").UInt(draw_name);
    if (draw != 0) {
      json_.Key("attachments").BeginArray();
      for (const glstate::Attachment& attachment :
           glstate::ReadAttachments(Lookup(driver_), GL_FRAMEBUFFER, version_)) {
        const GLenum point = attachment.point;
        json_.BeginObject().Key("attachment").String(EnumText(point)).Key("type").String(EnumText(attachment.type));
        const ObjectClass object_class =
            attachment.type == GL_TEXTURE ? ObjectClass::kTexture : ObjectClass::kRenderbuffer;
        json_.Key("name").UInt(StreamName(object_class, static_cast<GLint>(attachment.object)));
        if (attachment.type == GL_TEXTURE) json_.Key("level").Int(attachment.level);
        if (ImagesWanted()) {
          if (point == GL_DEPTH_ATTACHMENT || point == GL_STENCIL_ATTACHMENT) {
            files_->unread.push_back("draw framebuffer " + EnumText(point) + ": GLES reads back color only");
          } else if (const std::string name = ReadColorAttachment(draw, draw_name, point); !name.empty()) {
            json_.Key("image").String(name);
          }
        }
        json_.EndObject();
      }
      json_.EndArray();
    }
    if (ImagesWanted() && draw == 0) {
      // What the surface's back buffer holds now.
      host::RgbaImage image;
      std::string error;
      std::string name;
      if (executor_.ReadSurface(thread_, &image, &error)) {
        name = EmitImage("framebuffer.png", image.width, image.height, image.pixels, &error);
      }
      if (!name.empty()) {
        json_.Key("image").String(name);
      } else {
        files_->unread.push_back("draw framebuffer (the surface): " + error);
      }
    }
    json_.EndObject();
  }

  // A color attachment of the bound draw framebuffer as an image, read with
  // the executor's readback (which resolves multisampling) after pointing the
  // framebuffer's read buffer at it; its name, or empty (said in `unread`).
  std::string ReadColorAttachment(GLint host_framebuffer, uint64_t framebuffer, GLenum point) {
    const std::string what = "draw framebuffer " + std::to_string(framebuffer) + " " + EnumText(point);
    int width = 0, height = 0;
    if (!AttachmentSize(point, &width, &height)) {
      files_->unread.push_back(what + ": its size cannot be asked of this host (a cube face or a layer needs GLES 3.1 queries)");
      return {};
    }
    if (point != GL_COLOR_ATTACHMENT0 && version_ < 30) return {};
    auto bind = Function<PFNGLBINDFRAMEBUFFERPROC>(api::glBindFramebuffer);
    auto read_buffer = Function<PFNGLREADBUFFERPROC>(api::glReadBuffer);
    GLint previous_read = 0, previous_buffer = GL_COLOR_ATTACHMENT0;
    if (version_ >= 30) {
      previous_read = gl_.Integer(GL_READ_FRAMEBUFFER_BINDING);
      bind(GL_READ_FRAMEBUFFER, static_cast<GLuint>(host_framebuffer));
      previous_buffer = gl_.Integer(GL_READ_BUFFER);
      read_buffer(point);
      bind(GL_READ_FRAMEBUFFER, static_cast<GLuint>(previous_read));
    }
    host::RgbaImage image;
    std::string error, name;
    if (executor_.ReadFramebuffer(thread_, framebuffer, 0, 0, width, height, &image, &error)) {
      name = EmitImage("framebuffer-" + std::to_string(framebuffer) + "-" + EnumText(point) + ".png", image.width,
                       image.height, image.pixels, &error);
    }
    if (version_ >= 30) {
      bind(GL_READ_FRAMEBUFFER, static_cast<GLuint>(host_framebuffer));
      read_buffer(static_cast<GLenum>(previous_buffer));
      bind(GL_READ_FRAMEBUFFER, static_cast<GLuint>(previous_read));
    }
    if (name.empty()) files_->unread.push_back(what + ": " + error);
    return name;
  }

  // The size of what is attached at `point` of the bound draw framebuffer.
  bool AttachmentSize(GLenum point, int* width, int* height) {
    auto attachment_parameter =
        Function<PFNGLGETFRAMEBUFFERATTACHMENTPARAMETERIVPROC>(api::glGetFramebufferAttachmentParameteriv);
    GLint type = GL_NONE, object = 0, level = 0;
    attachment_parameter(GL_FRAMEBUFFER, point, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &type);
    attachment_parameter(GL_FRAMEBUFFER, point, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME, &object);
    if (type == GL_RENDERBUFFER) {
      auto bind = Function<PFNGLBINDRENDERBUFFERPROC>(api::glBindRenderbuffer);
      auto parameter = Function<PFNGLGETRENDERBUFFERPARAMETERIVPROC>(api::glGetRenderbufferParameteriv);
      const GLint previous = gl_.Integer(GL_RENDERBUFFER_BINDING);
      bind(GL_RENDERBUFFER, static_cast<GLuint>(object));
      parameter(GL_RENDERBUFFER, GL_RENDERBUFFER_WIDTH, width);
      parameter(GL_RENDERBUFFER, GL_RENDERBUFFER_HEIGHT, height);
      bind(GL_RENDERBUFFER, static_cast<GLuint>(previous));
      return *width > 0 && *height > 0;
    }
    if (type != GL_TEXTURE || version_ < 31) return false;
    attachment_parameter(GL_FRAMEBUFFER, point, GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL, &level);
    // The texture's target is not asked of GLES; its level size is, through any unit it can be bound at.
    auto bind_texture = Function<PFNGLBINDTEXTUREPROC>(api::glBindTexture);
    auto level_parameter = Function<PFNGLGETTEXLEVELPARAMETERIVPROC>(api::glGetTexLevelParameteriv);
    const GLint previous = gl_.Integer(GL_TEXTURE_BINDING_2D);
    gl_.ClearErrors();
    bind_texture(GL_TEXTURE_2D, static_cast<GLuint>(object));
    level_parameter(GL_TEXTURE_2D, level, GL_TEXTURE_WIDTH, width);
    level_parameter(GL_TEXTURE_2D, level, GL_TEXTURE_HEIGHT, height);
    const bool ok = gl_.GetError() == GL_NO_ERROR;
    bind_texture(GL_TEXTURE_2D, static_cast<GLuint>(previous));
    gl_.ClearErrors();
    return ok && *width > 0 && *height > 0;
  }

  struct LevelImage {
    BoundTexture texture;
    GLint level, width, height, depth;
    bool compressed;
  };

  // A level of a bound texture (each face, each layer) as PNGs, read through
  // a framebuffer of our own; the bindings and pack state it changes are put
  // back by EndImageReads.
  std::vector<std::string> LevelImages(const LevelImage& level) {
    std::vector<std::string> paths;
    const BoundTexture& texture = level.texture;
    if (!written_levels_.insert({texture.name, level.level}).second) return paths;  // bound at two units
    const std::string what = "texture " + std::to_string(texture.name) + " level " + std::to_string(level.level);
    if (level.compressed) {
      files_->unread.push_back(what + ": compressed; GLES cannot read compressed images back");
      return paths;
    }
    if (texture.target == GL_TEXTURE_2D_MULTISAMPLE || texture.target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY) {
      files_->unread.push_back(what + ": multisampled; its samples cannot be read back one by one");
      return paths;
    }
    BeginImageReads();
    const bool layered = api::IsLayeredTarget(texture.target);
    const int images = texture.target == GL_TEXTURE_CUBE_MAP ? 6 : layered ? std::min(level.depth, 64) : 1;
    if (layered && level.depth > 64) files_->unread.push_back(what + ": layers past 64 not written");
    for (int image = 0; image < images; ++image) {
      std::string suffix;
      GLenum image_target = texture.target;
      if (texture.target == GL_TEXTURE_CUBE_MAP) {
        image_target = GL_TEXTURE_CUBE_MAP_POSITIVE_X + static_cast<GLenum>(image);
        suffix = "-face" + std::to_string(image);
      } else if (layered) {
        suffix = "-layer" + std::to_string(image);
      }
      std::vector<uint8_t> pixels(static_cast<size_t>(level.width) * level.height * 4);
      const glstate::ImageRead read =
          glstate::ReadTextureImage(Lookup(driver_), texture.target, texture.host, level.level, image_target, image,
                                    level.width, level.height, GL_UNSIGNED_BYTE, pixels.data());
      if (read.status != GL_FRAMEBUFFER_COMPLETE) {
        files_->unread.push_back(what + suffix + ": its format cannot be rendered to, so not read back (" +
                                 EnumText(read.status) + ")");
        continue;
      }
      if (!read.read) {
        files_->unread.push_back(what + suffix + ": not readable as RGBA8 (" + EnumText(read.error) +
                                 "; integer and float formats are not written)");
        continue;
      }
      std::string error;
      const std::string name = EmitImage(
          "texture-" + std::to_string(texture.name) + "-level" + std::to_string(level.level) + suffix + ".png",
          level.width, level.height, pixels, &error);
      if (!name.empty()) {
        paths.push_back(name);
      } else {
        files_->unread.push_back(what + suffix + ": " + error);
      }
    }
    return paths;
  }

  // Levels are read (GLES 3.1 only) through a framebuffer of our own bound
  // for reading, with the pack state a read into memory expects.
  void BeginImageReads() {
    if (image_reads_) return;
    Function<PFNGLGENFRAMEBUFFERSPROC>(api::glGenFramebuffers)(1, &image_framebuffer_);
    image_reads_.emplace(driver_.functions(), version_ / 10, static_cast<GLint>(image_framebuffer_));
  }

  void EndImageReads() {
    if (!image_reads_) return;
    image_reads_.reset();  // the app's read framebuffer and pack state back, then ours goes
    Function<PFNGLDELETEFRAMEBUFFERSPROC>(api::glDeleteFramebuffers)(1, &image_framebuffer_);
    image_framebuffer_ = 0;
  }

  host::Executor& executor_;
  const host::HostDriver& driver_;
  GlFunctions gl_;
  uint32_t thread_;
  const GlStateOptions& options_;
  JsonWriter& json_;
  GlStateFiles* files_;
  const StreamNames names_ = [this](ObjectClass object, GLuint host) {
    return StreamName(object, static_cast<GLint>(host));
  };
  int version_ = 20;
  glstate::ContextState state_;
  GLuint program_ = 0;
  std::set<GLint> program_attributes_;
  std::vector<BoundTexture> textures_;
  std::set<std::pair<uint64_t, GLint>> written_levels_;
  GLuint image_framebuffer_ = 0;
  std::optional<capture::ScopedPackState> image_reads_;
  std::map<uint64_t, std::set<std::string>> buffers_;  // by name: where each is bound
  std::map<uint64_t, GLuint> samplers_;                 // bound at some unit: stream name -> host name
};

}  // namespace

void WriteGlState(host::Executor& executor, uint32_t thread, const GlStateOptions& options, JsonWriter& json,
                  GlStateFiles* files) {
  StateReader(executor, thread, options, json, files).Write();
}

}  // namespace strata::inspect
