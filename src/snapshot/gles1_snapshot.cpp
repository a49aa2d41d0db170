// A GLES 1.1 context's snapshot: its buffers and textures from the calls
// that filled them (GLES 1.1 can read neither back), and its fixed-function
// state read from the driver: lights, material, fog, every matrix stack,
// texture environments, client arrays, current values and the state GLES 2
// shares. Written as GLES 1.1 calls.
#include "snapshot/gles1_snapshot.h"

#include <GLES/gl.h>
#include <GLES/glext.h>

#include <algorithm>
#include <array>
#include <vector>

#include "snapshot/snapshot_writer.h"
#include "strata/api/parameters.h"

namespace strata::snapshot {
namespace {

using api::ObjectClass;
using Matrix = std::array<GLfloat, 16>;

// The function that points a client array.
api::Slot PointerFunctionOf(GLenum array) {
  switch (array) {
    case GL_VERTEX_ARRAY: return api::glVertexPointer;
    case GL_NORMAL_ARRAY: return api::glNormalPointer;
    case GL_COLOR_ARRAY: return api::glColorPointer;
    case GL_POINT_SIZE_ARRAY_OES: return api::glPointSizePointerOES;
    default: return api::glTexCoordPointer;
  }
}


class Gles1Snapshot : SnapshotWriter {
 public:
  Gles1Snapshot(const SnapshotSource& source, SnapshotResult* result, SnapshotScope scope)
      : SnapshotWriter(source, result), scope_(scope) {}

  bool Take(std::string* error) {
    GetFloatv = F<PFNGLGETFLOATVPROC>(api::glGetFloatv);
    MatrixMode = F<decltype(&glMatrixMode)>(api::glMatrixMode);
    ActiveTexture = F<PFNGLACTIVETEXTUREPROC>(api::glActiveTexture);
    ClientActiveTexture = F<decltype(&glClientActiveTexture)>(api::glClientActiveTexture);
    if (GetIntegerv == nullptr || MatrixMode == nullptr || ClientActiveTexture == nullptr) {
      *error = "the driver has no GLES 1.1 functions to read the context with";
      return false;
    }
    ClearErrors();
    const GLint saved_unit = Integer(GL_ACTIVE_TEXTURE), saved_client_unit = Integer(GL_CLIENT_ACTIVE_TEXTURE);
    const GLint saved_mode = Integer(GL_MATRIX_MODE), saved_array_buffer = Integer(GL_ARRAY_BUFFER_BINDING);
    ActiveTexture(GL_TEXTURE0);
    calls_.Add(api::glActiveTexture).Arg(GL_TEXTURE0);
    calls_.Add(api::glPixelStorei).Arg(GL_UNPACK_ALIGNMENT).Arg(1);
    Surface();  // first, on the fresh context's defaults
    if (scope_ == SnapshotScope::kObjectsAndContext) {
      Buffers();
      Textures();
    }
    NotCarried();
    // Positions of lights and clip planes are kept in eye coordinates: set
    // under the fresh context's identity modelview they stay what they are;
    // the matrices come after them.
    LightsAndMaterial();
    CurrentValues();
    FixedState();
    TextureUnits();
    MatrixStack(GL_PROJECTION, GL_PROJECTION_MATRIX, GL_PROJECTION_STACK_DEPTH);
    MatrixStack(GL_MODELVIEW, GL_MODELVIEW_MATRIX, GL_MODELVIEW_STACK_DEPTH);
    ClientArrays();
    Capabilities();
    F<PFNGLBINDBUFFERPROC>(api::glBindBuffer)(GL_ARRAY_BUFFER, static_cast<GLuint>(saved_array_buffer));
    for (GLenum target : {GL_ARRAY_BUFFER, GL_ELEMENT_ARRAY_BUFFER}) {
      const GLenum binding = target == GL_ARRAY_BUFFER ? GL_ARRAY_BUFFER_BINDING : GL_ELEMENT_ARRAY_BUFFER_BINDING;
      calls_.Add(api::glBindBuffer).Arg(target).Arg(static_cast<int64_t>(Stream(ObjectClass::kBuffer, Integer(binding))));
    }
    ActiveTexture(static_cast<GLenum>(saved_unit));
    ClientActiveTexture(static_cast<GLenum>(saved_client_unit));
    MatrixMode(static_cast<GLenum>(saved_mode));
    calls_.Add(api::glActiveTexture).Arg(saved_unit);
    calls_.Add(api::glClientActiveTexture).Arg(saved_client_unit);
    calls_.Add(api::glMatrixMode).Arg(saved_mode);
    ClearErrors();
    return true;
  }

 private:
  std::vector<GLfloat> Floats(GLenum pname, int count) const {
    std::vector<GLfloat> values(static_cast<size_t>(count));
    GetFloatv(pname, values.data());
    return values;
  }

  void Buffers() {
    auto is_buffer = F<PFNGLISBUFFERPROC>(api::glIsBuffer);
    auto bind = F<PFNGLBINDBUFFERPROC>(api::glBindBuffer);
    auto parameter = F<PFNGLGETBUFFERPARAMETERIVPROC>(api::glGetBufferParameteriv);
    for (const auto& [name, host] : source_.LiveObjects(ObjectClass::kBuffer)) {
      Generate(api::glGenBuffers, name);
      const std::vector<const stream::DecodedCall*>* uploads = source_.BufferUploadsOf(name);
      if (uploads != nullptr && !uploads->empty()) {
        for (const stream::DecodedCall* upload : *uploads) {
          calls_.Add(api::glBindBuffer).Arg(static_cast<int64_t>(upload->args[0].u)).Arg(static_cast<int64_t>(name));
          calls_.Copy(*upload);
        }
        continue;
      }
      if (!is_buffer(static_cast<GLuint>(host))) continue;  // named, never bound
      bind(GL_ARRAY_BUFFER, static_cast<GLuint>(host));
      GLint size = 0, usage = GL_STATIC_DRAW;
      parameter(GL_ARRAY_BUFFER, GL_BUFFER_SIZE, &size);
      parameter(GL_ARRAY_BUFFER, GL_BUFFER_USAGE, &usage);
      calls_.Add(api::glBindBuffer).Arg(GL_ARRAY_BUFFER).Arg(static_cast<int64_t>(name));
      if (size <= 0) continue;
      calls_.Add(api::glBufferData).Arg(GL_ARRAY_BUFFER).Arg(size).Arg(0).Arg(usage);
      Note("buffer " + std::to_string(name) + ": no call that filled it was kept; its " + std::to_string(size) +
           " bytes are left undefined");
    }
  }

  void Textures() {
    auto bind = F<PFNGLBINDTEXTUREPROC>(api::glBindTexture);
    auto tex_i = F<PFNGLGETTEXPARAMETERIVPROC>(api::glGetTexParameteriv);
    const GLint previous = Integer(GL_TEXTURE_BINDING_2D);
    for (const auto& [name, host] : source_.LiveObjects(ObjectClass::kTexture)) {
      Generate(api::glGenTextures, name);
      const GLenum target = source_.TextureTarget(name);
      if (target == 0) continue;  // named, never bound
      const std::string what = "texture " + std::to_string(name);
      if (target != GL_TEXTURE_2D) {
        Note(what + ": a GLES 1.1 texture of another target than GL_TEXTURE_2D; only its name is carried");
        continue;
      }
      calls_.Add(api::glBindTexture).Arg(target).Arg(static_cast<int64_t>(name));
      // Parameters first: GL_GENERATE_MIPMAP acts on the uploads that follow.
      bind(target, static_cast<GLuint>(host));
      for (GLenum pname : api::kFixedFunctionTextureParameters) {
        GLint value = 0;
        tex_i(target, pname, &value);
        calls_.Add(api::glTexParameteri).Arg(target).Arg(pname).Arg(value);
      }
      const TextureUploads* kept = source_.UploadsOf(name);
      if (kept == nullptr || kept->uploads.empty()) {
        Note(what + ": no upload of it was kept (GLES 1.1 cannot read images back); its images are not carried");
        continue;
      }
      if (kept->from_buffer) {
        Note(what + ": part of it was copied from the framebuffer (glCopyTexImage2D), which the snapshot does not "
                    "replay; its images may differ");
      }
      for (const RecordedUpload& upload : kept->uploads) {
        for (const auto& [pname, value] : upload.unpack) calls_.Add(api::glPixelStorei).Arg(pname).Arg(value);
        calls_.Copy(*upload.call);
      }
      calls_.Add(api::glPixelStorei).Arg(GL_UNPACK_ALIGNMENT).Arg(1);
    }
    bind(GL_TEXTURE_2D, static_cast<GLuint>(previous));
    ClearErrors();
  }

  // The surface's pixels, where they matter (SnapshotSource::SurfacePixels),
  // drawn back as a textured quad on the fresh context's defaults (identity
  // matrices, no lighting, GL_MODULATE with white): a texture and a buffer
  // of the snapshot's own, deleted again.
  void Surface() {
    int width = 0, height = 0;
    std::vector<uint8_t> pixels;
    if (!source_.SurfacePixels(&width, &height, &pixels)) return;
    const uint64_t texture = kScratchNames - 1, buffer = kScratchNames - 2;
    Generate(api::glGenTextures, texture);
    calls_.Add(api::glBindTexture).Arg(GL_TEXTURE_2D).Arg(static_cast<int64_t>(texture));
    for (GLenum pname : {GL_TEXTURE_MIN_FILTER, GL_TEXTURE_MAG_FILTER}) {
      calls_.Add(api::glTexParameteri).Arg(GL_TEXTURE_2D).Arg(pname).Arg(GL_NEAREST);
    }
    calls_.Add(api::glTexImage2D).Arg(GL_TEXTURE_2D).Arg(0).Arg(GL_RGBA).Arg(width).Arg(height).Arg(0).Arg(GL_RGBA)
        .Arg(GL_UNSIGNED_BYTE).In(pixels.data(), pixels.size());
    calls_.Add(api::glEnable).Arg(GL_TEXTURE_2D);
    const GLfloat quad[] = {-1, -1, 0, 0, 1, -1, 1, 0, -1, 1, 0, 1, 1, 1, 1, 1};  // x, y, s, t
    Generate(api::glGenBuffers, buffer);
    calls_.Add(api::glBindBuffer).Arg(GL_ARRAY_BUFFER).Arg(static_cast<int64_t>(buffer));
    calls_.Add(api::glBufferData).Arg(GL_ARRAY_BUFFER).Arg(sizeof quad).In(quad, sizeof quad).Arg(GL_STATIC_DRAW);
    calls_.Add(api::glVertexPointer).Arg(2).Arg(GL_FLOAT).Arg(16).Arg(0);
    calls_.Add(api::glTexCoordPointer).Arg(2).Arg(GL_FLOAT).Arg(16).Arg(8);
    calls_.Add(api::glEnableClientState).Arg(GL_VERTEX_ARRAY);
    calls_.Add(api::glEnableClientState).Arg(GL_TEXTURE_COORD_ARRAY);
    calls_.Add(api::glViewport).Arg(0).Arg(0).Arg(width).Arg(height);
    calls_.Add(api::glDrawArrays).Arg(GL_TRIANGLE_STRIP).Arg(0).Arg(4);
    // Back to a fresh context's: arrays off and unpointed, nothing bound or enabled.
    calls_.Add(api::glDisableClientState).Arg(GL_VERTEX_ARRAY);
    calls_.Add(api::glDisableClientState).Arg(GL_TEXTURE_COORD_ARRAY);
    calls_.Add(api::glBindBuffer).Arg(GL_ARRAY_BUFFER).Arg(0);
    calls_.Add(api::glVertexPointer).Arg(4).Arg(GL_FLOAT).Arg(0).Arg(0);
    calls_.Add(api::glTexCoordPointer).Arg(4).Arg(GL_FLOAT).Arg(0).Arg(0);
    calls_.Add(api::glDisable).Arg(GL_TEXTURE_2D);
    calls_.Add(api::glBindTexture).Arg(GL_TEXTURE_2D).Arg(0);
    const GLuint scratch_buffer = static_cast<GLuint>(buffer), scratch_texture = static_cast<GLuint>(texture);
    calls_.Add(api::glDeleteBuffers).Arg(1).In(&scratch_buffer, sizeof scratch_buffer);
    calls_.Add(api::glDeleteTextures).Arg(1).In(&scratch_texture, sizeof scratch_texture);
  }

  // What GLES 1.1 offers through extensions that the snapshot leaves out.
  void NotCarried() {
    for (ObjectClass object : {ObjectClass::kFramebuffer, ObjectClass::kRenderbuffer}) {
      if (!source_.LiveObjects(object).empty()) {
        Note(std::string(object == ObjectClass::kFramebuffer ? "framebuffer" : "renderbuffer") +
             " objects of a GLES 1.1 context (OES_framebuffer_object) are not carried");
      }
    }
  }

  void LightsAndMaterial() {
    auto light = F<decltype(&glGetLightfv)>(api::glGetLightfv);
    auto material = F<decltype(&glGetMaterialfv)>(api::glGetMaterialfv);
    auto clip_plane = F<decltype(&glGetClipPlanef)>(api::glGetClipPlanef);
    auto is_enabled = F<PFNGLISENABLEDPROC>(api::glIsEnabled);
    const GLint lights = std::min(Integer(GL_MAX_LIGHTS), 32);
    for (GLint i = 0; i < lights; ++i) {
      const GLenum name = GL_LIGHT0 + static_cast<GLenum>(i);
      calls_.Add(is_enabled(name) ? api::glEnable : api::glDisable).Arg(name);
      for (const api::CountedParameter& parameter : api::kLightParameters) {
        GLfloat values[4] = {};
        light(name, parameter.pname, values);
        calls_.Add(api::glLightfv).Arg(name).Arg(parameter.pname).In(values, sizeof(GLfloat) * parameter.count);
      }
    }
    const GLint planes = std::min(Integer(GL_MAX_CLIP_PLANES), 6);
    for (GLint i = 0; i < planes; ++i) {
      GLfloat equation[4] = {};
      clip_plane(GL_CLIP_PLANE0 + static_cast<GLenum>(i), equation);
      calls_.Add(api::glClipPlanef).Arg(GL_CLIP_PLANE0 + i).In(equation, sizeof equation);
    }
    for (const api::CountedParameter& parameter : api::kMaterialParameters) {
      GLfloat values[4] = {};
      material(GL_FRONT, parameter.pname, values);
      calls_.Add(api::glMaterialfv).Arg(GL_FRONT_AND_BACK).Arg(parameter.pname)
          .In(values, sizeof(GLfloat) * parameter.count);
    }
    const std::vector<GLfloat> ambient = Floats(GL_LIGHT_MODEL_AMBIENT, 4);
    calls_.Add(api::glLightModelfv).Arg(GL_LIGHT_MODEL_AMBIENT).In(ambient.data(), sizeof(GLfloat) * 4);
    calls_.Add(api::glLightModelf).Arg(GL_LIGHT_MODEL_TWO_SIDE).Float(Integer(GL_LIGHT_MODEL_TWO_SIDE) ? 1.0 : 0.0);
  }

  void CurrentValues() {
    auto c = Floats(GL_CURRENT_COLOR, 4);
    calls_.Add(api::glColor4f).Float(c[0]).Float(c[1]).Float(c[2]).Float(c[3]);
    auto n = Floats(GL_CURRENT_NORMAL, 3);
    calls_.Add(api::glNormal3f).Float(n[0]).Float(n[1]).Float(n[2]);
  }

  void FixedState() {
    auto get_b = F<PFNGLGETBOOLEANVPROC>(api::glGetBooleanv);
    auto one = [&](GLenum pname) { return Integer(pname); };
    auto f1 = [&](GLenum pname) { return Floats(pname, 1)[0]; };
    calls_.Add(api::glFogf).Arg(GL_FOG_MODE).Float(one(GL_FOG_MODE));
    for (GLenum pname : {GL_FOG_DENSITY, GL_FOG_START, GL_FOG_END}) calls_.Add(api::glFogf).Arg(pname).Float(f1(pname));
    const std::vector<GLfloat> fog = Floats(GL_FOG_COLOR, 4);
    calls_.Add(api::glFogfv).Arg(GL_FOG_COLOR).In(fog.data(), sizeof(GLfloat) * 4);
    calls_.Add(api::glAlphaFunc).Arg(one(GL_ALPHA_TEST_FUNC)).Float(f1(GL_ALPHA_TEST_REF));
    calls_.Add(api::glBlendFunc).Arg(one(GL_BLEND_SRC)).Arg(one(GL_BLEND_DST));
    calls_.Add(api::glLogicOp).Arg(one(GL_LOGIC_OP_MODE));
    calls_.Add(api::glShadeModel).Arg(one(GL_SHADE_MODEL));
    calls_.Add(api::glPointSize).Float(f1(GL_POINT_SIZE));
    for (GLenum pname : {GL_POINT_SIZE_MIN, GL_POINT_SIZE_MAX, GL_POINT_FADE_THRESHOLD_SIZE}) {
      calls_.Add(api::glPointParameterf).Arg(pname).Float(f1(pname));
    }
    const std::vector<GLfloat> attenuation = Floats(GL_POINT_DISTANCE_ATTENUATION, 3);
    calls_.Add(api::glPointParameterfv).Arg(GL_POINT_DISTANCE_ATTENUATION).In(attenuation.data(), sizeof(GLfloat) * 3);
    calls_.Add(api::glLineWidth).Float(f1(GL_LINE_WIDTH));
    calls_.Add(api::glPolygonOffset).Float(f1(GL_POLYGON_OFFSET_FACTOR)).Float(f1(GL_POLYGON_OFFSET_UNITS));
    calls_.Add(api::glDepthFunc).Arg(one(GL_DEPTH_FUNC));
    GLboolean b[4] = {};
    get_b(GL_DEPTH_WRITEMASK, b);
    calls_.Add(api::glDepthMask).Arg(b[0]);
    auto range = Floats(GL_DEPTH_RANGE, 2);
    calls_.Add(api::glDepthRangef).Float(range[0]).Float(range[1]);
    auto clear = Floats(GL_COLOR_CLEAR_VALUE, 4);
    calls_.Add(api::glClearColor).Float(clear[0]).Float(clear[1]).Float(clear[2]).Float(clear[3]);
    calls_.Add(api::glClearDepthf).Float(f1(GL_DEPTH_CLEAR_VALUE));
    calls_.Add(api::glClearStencil).Arg(one(GL_STENCIL_CLEAR_VALUE));
    get_b(GL_COLOR_WRITEMASK, b);
    calls_.Add(api::glColorMask).Arg(b[0]).Arg(b[1]).Arg(b[2]).Arg(b[3]);
    calls_.Add(api::glCullFace).Arg(one(GL_CULL_FACE_MODE));
    calls_.Add(api::glFrontFace).Arg(one(GL_FRONT_FACE));
    calls_.Add(api::glStencilFunc).Arg(one(GL_STENCIL_FUNC)).Arg(one(GL_STENCIL_REF)).Arg(one(GL_STENCIL_VALUE_MASK));
    calls_.Add(api::glStencilOp).Arg(one(GL_STENCIL_FAIL)).Arg(one(GL_STENCIL_PASS_DEPTH_FAIL))
        .Arg(one(GL_STENCIL_PASS_DEPTH_PASS));
    calls_.Add(api::glStencilMask).Arg(one(GL_STENCIL_WRITEMASK));
    GLint box[4] = {};
    GetIntegerv(GL_VIEWPORT, box);
    calls_.Add(api::glViewport).Arg(box[0]).Arg(box[1]).Arg(box[2]).Arg(box[3]);
    GetIntegerv(GL_SCISSOR_BOX, box);
    calls_.Add(api::glScissor).Arg(box[0]).Arg(box[1]).Arg(box[2]).Arg(box[3]);
    get_b(GL_SAMPLE_COVERAGE_INVERT, b);
    calls_.Add(api::glSampleCoverage).Float(f1(GL_SAMPLE_COVERAGE_VALUE)).Arg(b[0]);
    for (GLenum hint : api::kFixedFunctionHints) calls_.Add(api::glHint).Arg(hint).Arg(one(hint));
    for (GLenum pname : {GL_UNPACK_ALIGNMENT, GL_PACK_ALIGNMENT}) calls_.Add(api::glPixelStorei).Arg(pname).Arg(one(pname));
    ClearErrors();
  }

  // Each unit's texture, environment, coordinates and matrix stack.
  void TextureUnits() {
    auto is_enabled = F<PFNGLISENABLEDPROC>(api::glIsEnabled);
    auto env_i = F<decltype(&glGetTexEnviv)>(api::glGetTexEnviv);
    auto env_f = F<decltype(&glGetTexEnvfv)>(api::glGetTexEnvfv);
    const GLint units = std::min(Integer(GL_MAX_TEXTURE_UNITS), 32);
    for (GLint unit = 0; unit < units; ++unit) {
      const GLenum texture_unit = GL_TEXTURE0 + static_cast<GLenum>(unit);
      ActiveTexture(texture_unit);
      ClientActiveTexture(texture_unit);
      calls_.Add(api::glActiveTexture).Arg(texture_unit);
      calls_.Add(api::glClientActiveTexture).Arg(texture_unit);
      calls_.Add(is_enabled(GL_TEXTURE_2D) ? api::glEnable : api::glDisable).Arg(GL_TEXTURE_2D);
      calls_.Add(api::glBindTexture).Arg(GL_TEXTURE_2D)
          .Arg(static_cast<int64_t>(Stream(ObjectClass::kTexture, Integer(GL_TEXTURE_BINDING_2D))));
      for (GLenum pname : api::kTextureEnvironmentEnums) {
        GLint value = 0;
        env_i(GL_TEXTURE_ENV, pname, &value);
        calls_.Add(api::glTexEnvi).Arg(GL_TEXTURE_ENV).Arg(pname).Arg(value);
      }
      for (GLenum pname : api::kTextureEnvironmentFloats) {
        GLfloat value = 1;
        env_f(GL_TEXTURE_ENV, pname, &value);
        calls_.Add(api::glTexEnvf).Arg(GL_TEXTURE_ENV).Arg(pname).Float(value);
      }
      GLfloat color[4] = {};
      env_f(GL_TEXTURE_ENV, GL_TEXTURE_ENV_COLOR, color);
      calls_.Add(api::glTexEnvfv).Arg(GL_TEXTURE_ENV).Arg(GL_TEXTURE_ENV_COLOR).In(color, sizeof color);
      GLint replace = 0;
      env_i(GL_POINT_SPRITE_OES, GL_COORD_REPLACE_OES, &replace);
      if (GetError() == GL_NO_ERROR) {
        calls_.Add(api::glTexEnvi).Arg(GL_POINT_SPRITE_OES).Arg(GL_COORD_REPLACE_OES).Arg(replace);
      }
      auto coords = Floats(GL_CURRENT_TEXTURE_COORDS, 4);
      calls_.Add(api::glMultiTexCoord4f).Arg(texture_unit).Float(coords[0]).Float(coords[1]).Float(coords[2])
          .Float(coords[3]);
      Array(api::kTexCoordArrayQueries, static_cast<GLuint>(unit));
      MatrixStack(GL_TEXTURE, GL_TEXTURE_MATRIX, GL_TEXTURE_STACK_DEPTH);
    }
    ActiveTexture(GL_TEXTURE0);
    ClientActiveTexture(GL_TEXTURE0);
    ClearErrors();
  }

  // A matrix stack, bottom to top. Only the top can be asked for: the ones
  // below are read by popping, and the stack is pushed back as it was.
  void MatrixStack(GLenum mode, GLenum matrix, GLenum depth_query) {
    auto pop = F<decltype(&glPopMatrix)>(api::glPopMatrix);
    auto push = F<decltype(&glPushMatrix)>(api::glPushMatrix);
    auto load = F<decltype(&glLoadMatrixf)>(api::glLoadMatrixf);
    MatrixMode(mode);
    const GLint depth = std::max(Integer(depth_query), 1);
    std::vector<Matrix> stack(static_cast<size_t>(depth));
    for (GLint level = depth - 1; level >= 0; --level) {
      GetFloatv(matrix, stack[static_cast<size_t>(level)].data());
      if (level > 0) pop();
    }
    for (GLint level = 0; level < depth; ++level) {
      if (level > 0) push();
      load(stack[static_cast<size_t>(level)].data());
    }
    calls_.Add(api::glMatrixMode).Arg(mode);
    for (GLint level = 0; level < depth; ++level) {
      if (level > 0) calls_.Add(api::glPushMatrix);
      calls_.Add(api::glLoadMatrixf).In(stack[static_cast<size_t>(level)].data(), sizeof(Matrix));
    }
  }

  // One client array: enabled or not, and where it points (a buffer's
  // offset, or the app memory the stream's draws carry).
  void Array(const api::ClientArrayQueries& q, GLuint unit) {
    auto is_enabled = F<PFNGLISENABLEDPROC>(api::glIsEnabled);
    auto get_pointer = F<decltype(&glGetPointerv)>(api::glGetPointerv);
    ClearErrors();
    const bool enabled = is_enabled(q.array) != GL_FALSE;
    if (GetError() != GL_NO_ERROR) return;  // GL_POINT_SIZE_ARRAY_OES without its extension
    const GLint buffer = Integer(q.buffer);
    void* pointer = nullptr;
    get_pointer(q.pointer, &pointer);
    uint64_t address = reinterpret_cast<uint64_t>(pointer);
    const api::Slot pointer_function = PointerFunctionOf(q.array);
    if (buffer == 0) address = source_.Gles1ClientArrayAddress(pointer_function, unit, address);
    if (buffer != 0 || address != 0) {
      calls_.Add(api::glBindBuffer).Arg(GL_ARRAY_BUFFER).Arg(static_cast<int64_t>(Stream(ObjectClass::kBuffer, buffer)));
      CallList::Builder call = calls_.Add(pointer_function);
      if (q.size != 0) call.Arg(Integer(q.size));
      call.Arg(Integer(q.type)).Arg(Integer(q.stride)).Arg(static_cast<int64_t>(address));
    }
    calls_.Add(enabled ? api::glEnableClientState : api::glDisableClientState).Arg(q.array);
  }

  void ClientArrays() {
    for (const api::ClientArrayQueries& q : api::kClientArrayQueries) Array(q, 0);
  }

  void Capabilities() {
    auto is_enabled = F<PFNGLISENABLEDPROC>(api::glIsEnabled);
    for (GLenum capability : api::kFixedFunctionCapabilities) {
      ClearErrors();
      const bool on = is_enabled(capability) != GL_FALSE;
      if (GetError() == GL_NO_ERROR) calls_.Add(on ? api::glEnable : api::glDisable).Arg(capability);
    }
  }

  const SnapshotScope scope_;
  PFNGLGETFLOATVPROC GetFloatv = nullptr;
  decltype(&glMatrixMode) MatrixMode = nullptr;
  PFNGLACTIVETEXTUREPROC ActiveTexture = nullptr;
  decltype(&glClientActiveTexture) ClientActiveTexture = nullptr;
};

}  // namespace

bool TakeGles1Snapshot(const SnapshotSource& source, SnapshotResult* result, std::string* error,
                       SnapshotScope scope) {
  return Gles1Snapshot(source, result, scope).Take(error);
}

}  // namespace strata::snapshot
