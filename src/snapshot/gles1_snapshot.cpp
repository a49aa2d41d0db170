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

#include "glstate/attribute_array.h"
#include "glstate/context_state.h"
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
    // The context's own state as the app left it, before the reading below changes any.
    state_ = glstate::ReadContextState([this](api::Slot slot) { return source_.Function(slot); }, 10);
    const GLint saved_unit = state_.Integer(GL_ACTIVE_TEXTURE);
    const GLint saved_client_unit = state_.Integer(GL_CLIENT_ACTIVE_TEXTURE);
    const GLint saved_mode = state_.Integer(GL_MATRIX_MODE);
    const GLint saved_array_buffer = state_.Integer(GL_ARRAY_BUFFER_BINDING);
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
      const uint64_t buffer = Stream(ObjectClass::kBuffer, state_.Integer(binding));
      calls_.Add(api::glBindBuffer).Arg(target).Arg(static_cast<int64_t>(buffer));
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
    for (const glstate::Light& light : state_.lights) {
      calls_.Add(light.enabled ? api::glEnable : api::glDisable).Arg(light.light);
      for (size_t i = 0; i < light.values.size(); ++i) {
        calls_.Add(api::glLightfv).Arg(light.light).Arg(api::kLightParameters[i].pname)
            .In(light.values[i].data(), sizeof(GLfloat) * light.values[i].size());
      }
    }
    for (size_t i = 0; i < state_.clip_planes.size(); ++i) {
      calls_.Add(api::glClipPlanef).Arg(GL_CLIP_PLANE0 + static_cast<int64_t>(i))
          .In(state_.clip_planes[i].data(), sizeof(GLfloat) * 4);
    }
    // GLES 1.1 sets both faces' material at once: the front's is carried.
    const std::vector<std::vector<GLfloat>>& front = state_.material[0];
    for (size_t i = 0; i < front.size(); ++i) {
      calls_.Add(api::glMaterialfv).Arg(GL_FRONT_AND_BACK).Arg(api::kMaterialParameters[i].pname)
          .In(front[i].data(), sizeof(GLfloat) * front[i].size());
    }
    const std::vector<GLfloat> ambient = state_.Floats(GL_LIGHT_MODEL_AMBIENT);
    calls_.Add(api::glLightModelfv).Arg(GL_LIGHT_MODEL_AMBIENT).In(ambient.data(), sizeof(GLfloat) * 4);
    const double two_side = state_.Integer(GL_LIGHT_MODEL_TWO_SIDE) ? 1.0 : 0.0;
    calls_.Add(api::glLightModelf).Arg(GL_LIGHT_MODEL_TWO_SIDE).Float(two_side);
  }

  void CurrentValues() {
    auto c = state_.Floats(GL_CURRENT_COLOR);
    calls_.Add(api::glColor4f).Float(c[0]).Float(c[1]).Float(c[2]).Float(c[3]);
    auto n = state_.Floats(GL_CURRENT_NORMAL);
    calls_.Add(api::glNormal3f).Float(n[0]).Float(n[1]).Float(n[2]);
  }

  void FixedState() {
    const glstate::ContextState& st = state_;
    auto one = [&](GLenum pname) { return st.Integer(pname); };
    auto f1 = [&](GLenum pname) { return st.Float(pname); };
    calls_.Add(api::glFogf).Arg(GL_FOG_MODE).Float(one(GL_FOG_MODE));
    for (GLenum pname : {GL_FOG_DENSITY, GL_FOG_START, GL_FOG_END}) calls_.Add(api::glFogf).Arg(pname).Float(f1(pname));
    const std::vector<GLfloat> fog = st.Floats(GL_FOG_COLOR);
    calls_.Add(api::glFogfv).Arg(GL_FOG_COLOR).In(fog.data(), sizeof(GLfloat) * 4);
    calls_.Add(api::glAlphaFunc).Arg(one(GL_ALPHA_TEST_FUNC)).Float(f1(GL_ALPHA_TEST_REF));
    calls_.Add(api::glBlendFunc).Arg(one(GL_BLEND_SRC)).Arg(one(GL_BLEND_DST));
    calls_.Add(api::glLogicOp).Arg(one(GL_LOGIC_OP_MODE));
    calls_.Add(api::glShadeModel).Arg(one(GL_SHADE_MODEL));
    calls_.Add(api::glPointSize).Float(f1(GL_POINT_SIZE));
    for (GLenum pname : {GL_POINT_SIZE_MIN, GL_POINT_SIZE_MAX, GL_POINT_FADE_THRESHOLD_SIZE}) {
      calls_.Add(api::glPointParameterf).Arg(pname).Float(f1(pname));
    }
    const std::vector<GLfloat> attenuation = st.Floats(GL_POINT_DISTANCE_ATTENUATION);
    calls_.Add(api::glPointParameterfv).Arg(GL_POINT_DISTANCE_ATTENUATION).In(attenuation.data(), sizeof(GLfloat) * 3);
    calls_.Add(api::glLineWidth).Float(f1(GL_LINE_WIDTH));
    calls_.Add(api::glPolygonOffset).Float(f1(GL_POLYGON_OFFSET_FACTOR)).Float(f1(GL_POLYGON_OFFSET_UNITS));
    calls_.Add(api::glDepthFunc).Arg(one(GL_DEPTH_FUNC));
    calls_.Add(api::glDepthMask).Arg(one(GL_DEPTH_WRITEMASK));
    auto range = st.Floats(GL_DEPTH_RANGE);
    calls_.Add(api::glDepthRangef).Float(range[0]).Float(range[1]);
    auto clear = st.Floats(GL_COLOR_CLEAR_VALUE);
    calls_.Add(api::glClearColor).Float(clear[0]).Float(clear[1]).Float(clear[2]).Float(clear[3]);
    calls_.Add(api::glClearDepthf).Float(f1(GL_DEPTH_CLEAR_VALUE));
    calls_.Add(api::glClearStencil).Arg(one(GL_STENCIL_CLEAR_VALUE));
    auto mask = st.Integers(GL_COLOR_WRITEMASK);
    calls_.Add(api::glColorMask).Arg(mask[0]).Arg(mask[1]).Arg(mask[2]).Arg(mask[3]);
    calls_.Add(api::glCullFace).Arg(one(GL_CULL_FACE_MODE));
    calls_.Add(api::glFrontFace).Arg(one(GL_FRONT_FACE));
    calls_.Add(api::glStencilFunc).Arg(one(GL_STENCIL_FUNC)).Arg(one(GL_STENCIL_REF)).Arg(one(GL_STENCIL_VALUE_MASK));
    calls_.Add(api::glStencilOp).Arg(one(GL_STENCIL_FAIL)).Arg(one(GL_STENCIL_PASS_DEPTH_FAIL))
        .Arg(one(GL_STENCIL_PASS_DEPTH_PASS));
    calls_.Add(api::glStencilMask).Arg(one(GL_STENCIL_WRITEMASK));
    auto box = st.Integers(GL_VIEWPORT);
    calls_.Add(api::glViewport).Arg(box[0]).Arg(box[1]).Arg(box[2]).Arg(box[3]);
    box = st.Integers(GL_SCISSOR_BOX);
    calls_.Add(api::glScissor).Arg(box[0]).Arg(box[1]).Arg(box[2]).Arg(box[3]);
    calls_.Add(api::glSampleCoverage).Float(f1(GL_SAMPLE_COVERAGE_VALUE)).Arg(one(GL_SAMPLE_COVERAGE_INVERT));
    for (GLenum hint : api::kFixedFunctionHints) calls_.Add(api::glHint).Arg(hint).Arg(one(hint));
    for (GLenum pname : {GL_UNPACK_ALIGNMENT, GL_PACK_ALIGNMENT}) calls_.Add(api::glPixelStorei).Arg(pname).Arg(one(pname));
  }

  // Each unit's texture, environment, coordinates and matrix stack.
  void TextureUnits() {
    for (size_t u = 0; u < state_.fixed_function_units.size(); ++u) {
      const glstate::FixedFunctionUnit& unit = state_.fixed_function_units[u];
      const GLenum texture_unit = GL_TEXTURE0 + static_cast<GLenum>(u);
      ActiveTexture(texture_unit);
      ClientActiveTexture(texture_unit);
      calls_.Add(api::glActiveTexture).Arg(texture_unit);
      calls_.Add(api::glClientActiveTexture).Arg(texture_unit);
      calls_.Add(unit.Enabled(GL_TEXTURE_2D) ? api::glEnable : api::glDisable).Arg(GL_TEXTURE_2D);
      const glstate::StateValue* texture = glstate::FindValue(unit.values, GL_TEXTURE_BINDING_2D);
      calls_.Add(api::glBindTexture).Arg(GL_TEXTURE_2D)
          .Arg(static_cast<int64_t>(Stream(ObjectClass::kTexture, texture != nullptr ? texture->ints[0] : 0)));
      for (const auto& [pname, value] : unit.environment) {
        calls_.Add(api::glTexEnvi).Arg(GL_TEXTURE_ENV).Arg(pname).Arg(value);
      }
      for (const auto& [pname, value] : unit.environment_floats) {
        calls_.Add(api::glTexEnvf).Arg(GL_TEXTURE_ENV).Arg(pname).Float(value);
      }
      calls_.Add(api::glTexEnvfv).Arg(GL_TEXTURE_ENV).Arg(GL_TEXTURE_ENV_COLOR)
          .In(unit.environment_color.data(), sizeof(GLfloat) * 4);
      if (unit.has_coord_replace) {
        calls_.Add(api::glTexEnvi).Arg(GL_POINT_SPRITE_OES).Arg(GL_COORD_REPLACE_OES).Arg(unit.coord_replace);
      }
      const glstate::StateValue* coords = glstate::FindValue(unit.values, GL_CURRENT_TEXTURE_COORDS);
      const std::vector<GLfloat> c = coords != nullptr ? coords->floats : std::vector<GLfloat>{0, 0, 0, 1};
      calls_.Add(api::glMultiTexCoord4f).Arg(texture_unit).Float(c[0]).Float(c[1]).Float(c[2]).Float(c[3]);
      Array(api::kTexCoordArrayQueries, static_cast<GLuint>(u));
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
    const glstate::ClientArray a =
        glstate::ReadClientArray(GetIntegerv, F<PFNGLISENABLEDPROC>(api::glIsEnabled),
                                 F<void (*)(GLenum, void**)>(api::glGetPointerv), GetError, q);
    if (!a.known) return;  // GL_POINT_SIZE_ARRAY_OES without its extension
    uint64_t address = reinterpret_cast<uint64_t>(a.pointer);
    const api::Slot pointer_function = PointerFunctionOf(q.array);
    if (a.buffer == 0) address = source_.Gles1ClientArrayAddress(pointer_function, unit, address);
    if (a.buffer != 0 || address != 0) {
      calls_.Add(api::glBindBuffer).Arg(GL_ARRAY_BUFFER).Arg(static_cast<int64_t>(Stream(ObjectClass::kBuffer, a.buffer)));
      CallList::Builder call = calls_.Add(pointer_function);
      if (q.size != 0) call.Arg(a.size);
      call.Arg(a.type).Arg(a.stride).Arg(static_cast<int64_t>(address));
    }
    calls_.Add(a.enabled ? api::glEnableClientState : api::glDisableClientState).Arg(q.array);
  }

  void ClientArrays() {
    for (const api::ClientArrayQueries& q : api::kClientArrayQueries) Array(q, 0);
  }

  // glEnable's capabilities (the client arrays are Array's).
  void Capabilities() {
    for (const auto& [capability, on] : state_.capabilities) {
      if (std::find(std::begin(api::kClientArrays), std::end(api::kClientArrays), capability) ==
          std::end(api::kClientArrays)) {
        calls_.Add(on ? api::glEnable : api::glDisable).Arg(capability);
      }
    }
  }

  const SnapshotScope scope_;
  glstate::ContextState state_;
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
