#include "inspect/pixel_probe.h"

#include <GLES2/gl2ext.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "common/gl_queries.h"
#include "stream/capture_sizes.h"
#include "stream/multisample_resolve.h"
#include "strata/api/functions.h"

namespace strata::inspect {
namespace {

// GL_NV_read_stencil's format (gl2ext.h spells it only as GL_STENCIL_INDEX_OES of another extension).
constexpr GLenum kStencilIndex = 0x1901;

}  // namespace

struct PixelProbe::Functions {
  explicit Functions(const host::HostDriver& d) : functions(d.functions()) {
#define STRATA_LOAD(name) name = d.Get<decltype(name)>(api::gl##name)
    STRATA_LOAD(GetIntegerv);
    STRATA_LOAD(GetBooleanv);
    STRATA_LOAD(GetBooleani_v);
    STRATA_LOAD(GetFloatv);
    STRATA_LOAD(IsEnabled);
    STRATA_LOAD(Enable);
    STRATA_LOAD(Disable);
    STRATA_LOAD(GetError);
    STRATA_LOAD(GetString);
    STRATA_LOAD(BindFramebuffer);
    STRATA_LOAD(GenFramebuffers);
    STRATA_LOAD(DeleteFramebuffers);
    STRATA_LOAD(FramebufferTexture2D);
    STRATA_LOAD(FramebufferTextureLayer);
    STRATA_LOAD(FramebufferRenderbuffer);
    STRATA_LOAD(CheckFramebufferStatus);
    STRATA_LOAD(GetFramebufferAttachmentParameteriv);
    STRATA_LOAD(ReadBuffer);
    STRATA_LOAD(ReadPixels);
    STRATA_LOAD(PixelStorei);
    STRATA_LOAD(BindBuffer);
    STRATA_LOAD(Scissor);
    STRATA_LOAD(ColorMask);
    STRATA_LOAD(ColorMaski);
    STRATA_LOAD(DepthMask);
    STRATA_LOAD(StencilMaskSeparate);
    STRATA_LOAD(ClearDepthf);
    STRATA_LOAD(ClearStencil);
    STRATA_LOAD(Clear);
    STRATA_LOAD(GenQueriesEXT);
    STRATA_LOAD(DeleteQueriesEXT);
    STRATA_LOAD(BeginQueryEXT);
    STRATA_LOAD(EndQueryEXT);
    STRATA_LOAD(GetQueryivEXT);
    STRATA_LOAD(GetQueryObjectuivEXT);
#undef STRATA_LOAD
  }
  void* const* functions;
  PFNGLGETINTEGERVPROC GetIntegerv;
  PFNGLGETBOOLEANVPROC GetBooleanv;
  PFNGLGETBOOLEANI_VPROC GetBooleani_v;
  PFNGLGETFLOATVPROC GetFloatv;
  PFNGLISENABLEDPROC IsEnabled;
  PFNGLENABLEPROC Enable;
  PFNGLDISABLEPROC Disable;
  PFNGLGETERRORPROC GetError;
  PFNGLGETSTRINGPROC GetString;
  PFNGLBINDFRAMEBUFFERPROC BindFramebuffer;
  PFNGLGENFRAMEBUFFERSPROC GenFramebuffers;
  PFNGLDELETEFRAMEBUFFERSPROC DeleteFramebuffers;
  PFNGLFRAMEBUFFERTEXTURE2DPROC FramebufferTexture2D;
  PFNGLFRAMEBUFFERTEXTURELAYERPROC FramebufferTextureLayer;
  PFNGLFRAMEBUFFERRENDERBUFFERPROC FramebufferRenderbuffer;
  PFNGLCHECKFRAMEBUFFERSTATUSPROC CheckFramebufferStatus;
  PFNGLGETFRAMEBUFFERATTACHMENTPARAMETERIVPROC GetFramebufferAttachmentParameteriv;
  PFNGLREADBUFFERPROC ReadBuffer;
  PFNGLREADPIXELSPROC ReadPixels;
  PFNGLPIXELSTOREIPROC PixelStorei;
  PFNGLBINDBUFFERPROC BindBuffer;
  PFNGLSCISSORPROC Scissor;
  PFNGLCOLORMASKPROC ColorMask;
  PFNGLCOLORMASKIPROC ColorMaski;
  PFNGLDEPTHMASKPROC DepthMask;
  PFNGLSTENCILMASKSEPARATEPROC StencilMaskSeparate;
  PFNGLCLEARDEPTHFPROC ClearDepthf;
  PFNGLCLEARSTENCILPROC ClearStencil;
  PFNGLCLEARPROC Clear;
  PFNGLGENQUERIESEXTPROC GenQueriesEXT;
  PFNGLDELETEQUERIESEXTPROC DeleteQueriesEXT;
  PFNGLBEGINQUERYEXTPROC BeginQueryEXT;
  PFNGLENDQUERYEXTPROC EndQueryEXT;
  PFNGLGETQUERYIVEXTPROC GetQueryivEXT;
  PFNGLGETQUERYOBJECTUIVEXTPROC GetQueryObjectuivEXT;
};

namespace {

// The host's GLES version as major * 10 + minor, from GL_VERSION ("OpenGL ES 3.2 Mesa ...", "OpenGL ES-CM 1.1").
int HostVersion(PFNGLGETSTRINGPROC get_string) {
  const char* text = reinterpret_cast<const char*>(get_string(GL_VERSION));
  int major = 0, minor = 0;
  if (text == nullptr) return 0;
  for (const char* p = text; *p; ++p) {
    if (*p >= '0' && *p <= '9' && std::sscanf(p, "%d.%d", &major, &minor) == 2) break;
  }
  return major * 10 + minor;
}

}  // namespace

PixelProbe::PixelProbe(const host::HostDriver& driver, int version)
    : gl_(std::make_unique<Functions>(driver)), version_(version >= 2 ? HostVersion(gl_->GetString) : 11) {
  const char* extensions = reinterpret_cast<const char*>(gl_->GetString(GL_EXTENSIONS));
  reads_depth_ = capture::HasExtension(extensions, "GL_NV_read_depth") ||
                 capture::HasExtension(extensions, "GL_NV_read_depth_stencil");
  reads_stencil_ = capture::HasExtension(extensions, "GL_NV_read_stencil") ||
                   capture::HasExtension(extensions, "GL_NV_read_depth_stencil");
}

PixelProbe::~PixelProbe() = default;

GLint PixelProbe::Integer(GLenum pname) { return IntegerOf(gl_->GetIntegerv, pname); }
bool PixelProbe::Enabled(GLenum capability) { return gl_->IsEnabled(capability) == GL_TRUE; }

void PixelProbe::ReadColor(const ImageRef& image, int x, int y, PixelValue* value) {
  Functions& gl = *gl_;
  const bool gles3 = version_ >= 30;
  if (version_ < 20 && image.kind != ImageRef::Kind::kSurface) {
    value->color_unread = "GLES 1.1 has no framebuffer objects to read an image through";
    return;
  }
  // What the reading changes, to put back.
  const GLenum read_binding = gles3 ? GL_READ_FRAMEBUFFER_BINDING : GL_FRAMEBUFFER_BINDING;
  const GLenum read_target = gles3 ? GL_READ_FRAMEBUFFER : GL_FRAMEBUFFER;
  const GLint previous_read = version_ >= 20 ? Integer(read_binding) : 0;
  const GLint alignment = Integer(GL_PACK_ALIGNMENT);
  GLint pack_buffer = 0, row_length = 0, skip_rows = 0, skip_pixels = 0, surface_read_buffer = GL_BACK;
  if (gles3) {
    pack_buffer = Integer(GL_PIXEL_PACK_BUFFER_BINDING);
    row_length = Integer(GL_PACK_ROW_LENGTH);
    skip_rows = Integer(GL_PACK_SKIP_ROWS);
    skip_pixels = Integer(GL_PACK_SKIP_PIXELS);
    if (pack_buffer) gl.BindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    gl.PixelStorei(GL_PACK_ROW_LENGTH, 0);
    gl.PixelStorei(GL_PACK_SKIP_ROWS, 0);
    gl.PixelStorei(GL_PACK_SKIP_PIXELS, 0);
  }
  gl.PixelStorei(GL_PACK_ALIGNMENT, 1);
  GLuint own = 0;
  GLenum point = GL_BACK;
  bool complete = true;
  if (image.kind == ImageRef::Kind::kSurface) {
    if (version_ >= 20) gl.BindFramebuffer(read_target, 0);
    if (gles3) {
      surface_read_buffer = Integer(GL_READ_BUFFER);
      if (surface_read_buffer != GL_BACK) gl.ReadBuffer(GL_BACK);
    }
  } else {
    gl.GenFramebuffers(1, &own);
    gl.BindFramebuffer(read_target, own);
    point = GL_COLOR_ATTACHMENT0;
    if (image.kind == ImageRef::Kind::kRenderbuffer) {
      gl.FramebufferRenderbuffer(read_target, point, GL_RENDERBUFFER, image.name);
    } else if (image.target == GL_TEXTURE_2D_ARRAY || image.target == GL_TEXTURE_3D ||
               image.target == GL_TEXTURE_CUBE_MAP_ARRAY) {
      if (gl.FramebufferTextureLayer) gl.FramebufferTextureLayer(read_target, point, image.name, image.level, image.layer);
    } else {
      DrainGlErrors(gl.GetError);
      gl.FramebufferTexture2D(read_target, point, image.target, image.name, image.level);
      // GLES cannot be asked a texture's target: a layer 0 of an array texture attaches as a layer.
      if (gl.GetError() != GL_NO_ERROR && image.target == GL_TEXTURE_2D && gl.FramebufferTextureLayer) {
        gl.FramebufferTextureLayer(read_target, point, image.name, image.level, image.layer);
      }
    }
    complete = gl.CheckFramebufferStatus(read_target) == GL_FRAMEBUFFER_COMPLETE;
  }
  if (!complete) {
    value->color_unread = "its format cannot be read back (a framebuffer of it is incomplete)";
  } else {
    GLint component = GL_UNSIGNED_NORMALIZED;
    if (gles3) {
      gl.GetFramebufferAttachmentParameteriv(read_target, point, GL_FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE, &component);
    }
    DrainGlErrors(gl.GetError);
    bool read = true;
    if (component == GL_FLOAT) {
      float rgba[4] = {};
      gl.ReadPixels(x, y, 1, 1, GL_RGBA, GL_FLOAT, rgba);
      for (int i = 0; i < 4; ++i) value->color[i] = rgba[i];
      value->color_kind = ColorKind::kFloat;
    } else if (component == GL_INT || component == GL_UNSIGNED_INT) {
      int32_t rgba[4] = {};
      gl.ReadPixels(x, y, 1, 1, GL_RGBA_INTEGER, component == GL_INT ? GL_INT : GL_UNSIGNED_INT, rgba);
      for (int i = 0; i < 4; ++i) {
        value->color[i] = component == GL_INT ? double(rgba[i]) : double(static_cast<uint32_t>(rgba[i]));
      }
      value->color_kind = component == GL_INT ? ColorKind::kInt : ColorKind::kUint;
    } else {
      uint8_t rgba[4] = {};
      const GLint framebuffer = image.kind == ImageRef::Kind::kSurface ? 0 : static_cast<GLint>(own);
      read = capture::ReadPixelsResolved(gl.functions, gles3, framebuffer, x, y, 1, 1, GL_RGBA, rgba);
      for (int i = 0; i < 4; ++i) value->color[i] = rgba[i];
      value->color_kind = ColorKind::kUnorm8;
    }
    if (!read || gl.GetError() != GL_NO_ERROR) {
      value->color_kind = ColorKind::kNone;
      value->color = {};
      value->color_unread = "the driver cannot read it back (multisampled, or a format glReadPixels refuses)";
    }
  }
  if (own) {
    gl.DeleteFramebuffers(1, &own);
  } else if (gles3 && surface_read_buffer != GL_BACK) {
    gl.ReadBuffer(static_cast<GLenum>(surface_read_buffer));
  }
  if (version_ >= 20) gl.BindFramebuffer(read_target, static_cast<GLuint>(previous_read));
  gl.PixelStorei(GL_PACK_ALIGNMENT, alignment);
  if (gles3) {
    gl.PixelStorei(GL_PACK_ROW_LENGTH, row_length);
    gl.PixelStorei(GL_PACK_SKIP_ROWS, skip_rows);
    gl.PixelStorei(GL_PACK_SKIP_PIXELS, skip_pixels);
    if (pack_buffer) gl.BindBuffer(GL_PIXEL_PACK_BUFFER, static_cast<GLuint>(pack_buffer));
  }
  DrainGlErrors(gl.GetError);
}

void PixelProbe::ReadDepthStencil(int x, int y, PixelValue* value) {
  Functions& gl = *gl_;
  const bool gles3 = version_ >= 30;
  const GLint depth_bits = Integer(GL_DEPTH_BITS), stencil_bits = Integer(GL_STENCIL_BITS);
  DrainGlErrors(gl.GetError);
  if (depth_bits == 0 && stencil_bits == 0) return;
  if ((depth_bits && !reads_depth_) || (stencil_bits && !reads_stencil_)) {
    value->depth_stencil_unread = "the driver cannot read depth or stencil back (no GL_NV_read_depth, GL_NV_read_stencil)";
  }
  if (!(depth_bits && reads_depth_) && !(stencil_bits && reads_stencil_)) return;
  // The draw framebuffer is read: bound for reading too, with default pack state.
  const GLint previous_read = gles3 ? Integer(GL_READ_FRAMEBUFFER_BINDING) : 0;
  const GLint draw = gles3 ? Integer(GL_DRAW_FRAMEBUFFER_BINDING) : 0;
  const GLint alignment = Integer(GL_PACK_ALIGNMENT);
  const GLint pack_buffer = gles3 ? Integer(GL_PIXEL_PACK_BUFFER_BINDING) : 0;
  const GLint row_length = gles3 ? Integer(GL_PACK_ROW_LENGTH) : 0, skip_rows = gles3 ? Integer(GL_PACK_SKIP_ROWS) : 0,
              skip_pixels = gles3 ? Integer(GL_PACK_SKIP_PIXELS) : 0;
  if (gles3) {
    gl.BindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(draw));
    if (pack_buffer) gl.BindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    gl.PixelStorei(GL_PACK_ROW_LENGTH, 0);
    gl.PixelStorei(GL_PACK_SKIP_ROWS, 0);
    gl.PixelStorei(GL_PACK_SKIP_PIXELS, 0);
  }
  gl.PixelStorei(GL_PACK_ALIGNMENT, 1);
  DrainGlErrors(gl.GetError);
  if (depth_bits && reads_depth_) {
    // GL_NV_read_depth reads normalized integers (no floats): the buffer's own bits are the top ones.
    GLuint depth = 0;
    gl.ReadPixels(x, y, 1, 1, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT, &depth);
    value->has_depth = gl.GetError() == GL_NO_ERROR;
    const int bits = std::min(depth_bits, 32);
    value->depth = double(depth >> (32 - bits)) / double((uint64_t{1} << bits) - 1);
    if (!value->has_depth) value->depth_stencil_unread = "the driver refused to read depth here (multisampled?)";
  }
  if (stencil_bits && reads_stencil_) {
    uint8_t stencil = 0;
    gl.ReadPixels(x, y, 1, 1, kStencilIndex, GL_UNSIGNED_BYTE, &stencil);
    value->has_stencil = gl.GetError() == GL_NO_ERROR;
    value->stencil = stencil;
    if (!value->has_stencil) value->depth_stencil_unread = "the driver refused to read stencil here (multisampled?)";
  }
  gl.PixelStorei(GL_PACK_ALIGNMENT, alignment);
  if (gles3) {
    gl.PixelStorei(GL_PACK_ROW_LENGTH, row_length);
    gl.PixelStorei(GL_PACK_SKIP_ROWS, skip_rows);
    gl.PixelStorei(GL_PACK_SKIP_PIXELS, skip_pixels);
    if (pack_buffer) gl.BindBuffer(GL_PIXEL_PACK_BUFFER, static_cast<GLuint>(pack_buffer));
    gl.BindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(previous_read));
  }
  DrainGlErrors(gl.GetError);
}

// Enables, boxes and masks a test run or a scissored clear changes, to put back.
struct PixelProbeSavedState {
  GLboolean scissor_test, depth_test, stencil_test;
  GLint scissor[4];
  GLboolean depth_mask;
  GLint stencil_front_mask, stencil_back_mask;
  std::vector<std::array<GLboolean, 4>> color_masks;  // per draw buffer where the host has glColorMaski
};

namespace {

PixelProbeSavedState Save(PixelProbe& probe, PFNGLGETBOOLEANVPROC get_boolean, PFNGLGETBOOLEANI_VPROC get_boolean_i,
                          int version, PFNGLGETINTEGERVPROC get_integer) {
  PixelProbeSavedState s{};
  s.scissor_test = probe.Enabled(GL_SCISSOR_TEST);
  s.depth_test = probe.Enabled(GL_DEPTH_TEST);
  s.stencil_test = probe.Enabled(GL_STENCIL_TEST);
  get_integer(GL_SCISSOR_BOX, s.scissor);
  get_boolean(GL_DEPTH_WRITEMASK, &s.depth_mask);
  s.stencil_front_mask = probe.Integer(GL_STENCIL_WRITEMASK);
  s.stencil_back_mask = version >= 20 ? probe.Integer(GL_STENCIL_BACK_WRITEMASK) : s.stencil_front_mask;
  const int buffers = version >= 32 && get_boolean_i ? probe.Integer(GL_MAX_DRAW_BUFFERS) : 1;
  for (int i = 0; i < buffers; ++i) {
    std::array<GLboolean, 4> mask{};
    if (version >= 32 && get_boolean_i) {
      get_boolean_i(GL_COLOR_WRITEMASK, static_cast<GLuint>(i), mask.data());
    } else {
      get_boolean(GL_COLOR_WRITEMASK, mask.data());
    }
    s.color_masks.push_back(mask);
  }
  return s;
}

}  // namespace

bool PixelProbe::InsideScissor(int x, int y) {
  GLint box[4] = {};
  gl_->GetIntegerv(GL_SCISSOR_BOX, box);
  return x >= box[0] && y >= box[1] && x < box[0] + box[2] && y < box[1] + box[3];
}

bool PixelProbe::ColorMaskedOff() {
  GLboolean mask[4] = {};
  gl_->GetBooleanv(GL_COLOR_WRITEMASK, mask);
  return !mask[0] && !mask[1] && !mask[2] && !mask[3];
}

std::string PixelProbe::WhyNotTestable() {
  if (version_ < 20) return "GLES 1.1 has no occlusion queries";
  if (!gl_->BeginQueryEXT || !gl_->GetQueryObjectuivEXT) return "the driver has no occlusion queries";
  GLint active = 0;
  for (GLenum target : {GLenum(GL_ANY_SAMPLES_PASSED), GLenum(GL_ANY_SAMPLES_PASSED_CONSERVATIVE)}) {
    gl_->GetQueryivEXT(target, GL_CURRENT_QUERY_EXT, &active);
    if (active) {
      DrainGlErrors(gl_->GetError);
      return "the app's own occlusion query was running: running the draw again would count in it";
    }
  }
  if (version_ >= 30 && Integer(GL_TRANSFORM_FEEDBACK_ACTIVE) && !Integer(GL_TRANSFORM_FEEDBACK_PAUSED)) {
    DrainGlErrors(gl_->GetError);
    return "transform feedback was recording: running the draw again would record it twice";
  }
  DrainGlErrors(gl_->GetError);
  return {};
}

bool PixelProbe::RasterizerDiscards() { return version_ >= 30 && Enabled(GL_RASTERIZER_DISCARD); }

FragmentVerdict PixelProbe::Test(int x, int y, const std::function<void()>& redraw) {
  Functions& gl = *gl_;
  const PixelProbeSavedState saved = Save(*this, gl.GetBooleanv, gl.GetBooleani_v, version_, gl.GetIntegerv);
  // Writes off; only the pixel.
  gl.ColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
  gl.DepthMask(GL_FALSE);
  gl.StencilMaskSeparate(GL_FRONT_AND_BACK, 0);
  gl.Enable(GL_SCISSOR_TEST);
  gl.Scissor(x, y, 1, 1);
  GLuint query = 0;
  gl.GenQueriesEXT(1, &query);
  auto passes = [&](bool stencil, bool depth) {
    stencil ? gl.Enable(GL_STENCIL_TEST) : gl.Disable(GL_STENCIL_TEST);
    depth ? gl.Enable(GL_DEPTH_TEST) : gl.Disable(GL_DEPTH_TEST);
    gl.BeginQueryEXT(GL_ANY_SAMPLES_PASSED, query);
    redraw();
    gl.EndQueryEXT(GL_ANY_SAMPLES_PASSED);
    GLuint any = 0;
    gl.GetQueryObjectuivEXT(query, GL_QUERY_RESULT_EXT, &any);
    return any != 0;
  };
  const bool outside_scissor = saved.scissor_test && (x < saved.scissor[0] || y < saved.scissor[1] ||
                                                      x >= saved.scissor[0] + saved.scissor[2] ||
                                                      y >= saved.scissor[1] + saved.scissor[3]);
  FragmentVerdict verdict = FragmentVerdict::kPassed;
  if (!passes(false, false)) {
    verdict = FragmentVerdict::kNoFragment;
  } else if (outside_scissor) {
    verdict = FragmentVerdict::kScissor;
  } else if (saved.stencil_test && !passes(true, false)) {
    verdict = FragmentVerdict::kStencil;
  } else if (saved.depth_test && !passes(saved.stencil_test, true)) {
    verdict = FragmentVerdict::kDepth;
  }
  gl.DeleteQueriesEXT(1, &query);
  saved.scissor_test ? gl.Enable(GL_SCISSOR_TEST) : gl.Disable(GL_SCISSOR_TEST);
  saved.depth_test ? gl.Enable(GL_DEPTH_TEST) : gl.Disable(GL_DEPTH_TEST);
  saved.stencil_test ? gl.Enable(GL_STENCIL_TEST) : gl.Disable(GL_STENCIL_TEST);
  gl.Scissor(saved.scissor[0], saved.scissor[1], saved.scissor[2], saved.scissor[3]);
  gl.DepthMask(saved.depth_mask);
  gl.StencilMaskSeparate(GL_FRONT, static_cast<GLuint>(saved.stencil_front_mask));
  gl.StencilMaskSeparate(GL_BACK, static_cast<GLuint>(saved.stencil_back_mask));
  if (saved.color_masks.size() > 1 && gl.ColorMaski) {
    for (size_t i = 0; i < saved.color_masks.size(); ++i) {
      const auto& m = saved.color_masks[i];
      gl.ColorMaski(static_cast<GLuint>(i), m[0], m[1], m[2], m[3]);
    }
  } else {
    const auto& m = saved.color_masks[0];
    gl.ColorMask(m[0], m[1], m[2], m[3]);
  }
  DrainGlErrors(gl.GetError);
  return verdict;
}

void PixelProbe::WriteDepthStencil(int x, int y, const PixelValue& value) {
  if (!value.has_depth && !value.has_stencil) return;
  Functions& gl = *gl_;
  const PixelProbeSavedState saved = Save(*this, gl.GetBooleanv, gl.GetBooleani_v, version_, gl.GetIntegerv);
  GLfloat clear_depth = 1;
  gl.GetFloatv(GL_DEPTH_CLEAR_VALUE, &clear_depth);
  const GLint clear_stencil = Integer(GL_STENCIL_CLEAR_VALUE);
  gl.Enable(GL_SCISSOR_TEST);
  gl.Scissor(x, y, 1, 1);
  GLbitfield mask = 0;
  if (value.has_depth) {
    gl.DepthMask(GL_TRUE);
    gl.ClearDepthf(static_cast<GLfloat>(value.depth));
    mask |= GL_DEPTH_BUFFER_BIT;
  }
  if (value.has_stencil) {
    gl.StencilMaskSeparate(GL_FRONT_AND_BACK, 0xff);
    gl.ClearStencil(static_cast<GLint>(value.stencil));
    mask |= GL_STENCIL_BUFFER_BIT;
  }
  gl.Clear(mask);
  gl.ClearDepthf(clear_depth);
  gl.ClearStencil(clear_stencil);
  saved.scissor_test ? gl.Enable(GL_SCISSOR_TEST) : gl.Disable(GL_SCISSOR_TEST);
  gl.Scissor(saved.scissor[0], saved.scissor[1], saved.scissor[2], saved.scissor[3]);
  gl.DepthMask(saved.depth_mask);
  gl.StencilMaskSeparate(GL_FRONT, static_cast<GLuint>(saved.stencil_front_mask));
  gl.StencilMaskSeparate(GL_BACK, static_cast<GLuint>(saved.stencil_back_mask));
  DrainGlErrors(gl.GetError);
}

std::string DescribeColor(const PixelValue& value) {
  if (value.color_kind == ColorKind::kNone) return "colour not read";
  char text[160];
  if (value.color_kind == ColorKind::kFloat) {
    std::snprintf(text, sizeof text, "(%g, %g, %g, %g)", value.color[0], value.color[1], value.color[2], value.color[3]);
  } else {
    std::snprintf(text, sizeof text, "(%.0f, %.0f, %.0f, %.0f)", value.color[0], value.color[1], value.color[2],
                  value.color[3]);
  }
  std::string out = text;
  if (value.has_depth) {
    std::snprintf(text, sizeof text, " depth %.6g", value.depth);
    out += text;
  }
  if (value.has_stencil) out += " stencil " + std::to_string(value.stencil);
  return out;
}

}  // namespace strata::inspect
