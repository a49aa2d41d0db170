// A GLES 3 program that calls each function a remote client decides the
// errors of (api/function_traits.txt, errors=) with valid and with invalid
// arguments, and prints what glGetError says after each, and a checksum of a
// frame drawn with the state they set. Natively and through a renderer, with
// the client's answers and without, the output must be the same.
#include <EGL/egl.h>
#include <GLES3/gl3.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "test_program.h"

namespace {

constexpr int kSize = 32;

struct Case {
  const char* what;
  std::function<void()> call;
};

void Say(const char* what, const char* how) { std::printf("%s %s: error 0x%04x\n", what, how, glGetError()); }

}  // namespace

int main() {
  const PbufferContext egl = MakePbufferCurrent(kSize, 0);
  if (egl.failed != nullptr) {
    std::fprintf(stderr, "checked_errors: error: %s failed\n", egl.failed);
    return 1;
  }
  glClear(GL_COLOR_BUFFER_BIT);  // the whole surface defined, for the scissored clear at the end
  // Asked before the limit is known (the specification's least value is
  // what the client goes by), then once known (the driver's value).
  const GLuint beyond_minimum = 20;  // above GLES 3's 16
  glVertexAttrib1f(beyond_minimum, 1.0f);
  Say("glVertexAttrib1f above the least limit, limit unknown", "once");
  GLint attributes = 0, units = 0;
  glGetIntegerv(GL_MAX_VERTEX_ATTRIBS, &attributes);
  glGetIntegerv(GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS, &units);
  const GLuint last_attribute = static_cast<GLuint>(attributes) - 1;
  const GLenum last_unit = GL_TEXTURE0 + static_cast<GLenum>(units) - 1;

  const std::vector<Case> valid = {
      {"glClearColor", [] { glClearColor(0.2f, 0.4f, 0.6f, 1.0f); }},
      {"glClearDepthf", [] { glClearDepthf(0.5f); }},
      {"glClearStencil", [] { glClearStencil(3); }},
      {"glColorMask", [] { glColorMask(GL_TRUE, GL_TRUE, GL_FALSE, GL_TRUE); }},
      {"glDepthMask", [] { glDepthMask(GL_FALSE); }},
      {"glStencilMask", [] { glStencilMask(0xF0); }},
      {"glBlendColor", [] { glBlendColor(0.5f, 0.5f, 0.5f, 0.5f); }},
      {"glDepthRangef", [] { glDepthRangef(0.1f, 0.9f); }},
      {"glSampleCoverage", [] { glSampleCoverage(0.5f, GL_FALSE); }},
      {"glPolygonOffset", [] { glPolygonOffset(1.0f, 2.0f); }},
      {"glFlush", [] { glFlush(); }},
      {"glLineWidth", [] { glLineWidth(1.0f); }},
      {"glViewport", [] { glViewport(0, 0, kSize, kSize); }},
      {"glScissor", [] { glScissor(2, 2, kSize - 4, kSize - 4); }},
      {"glEnable", [] { glEnable(GL_SCISSOR_TEST); }},
      {"glDisable", [] { glDisable(GL_DITHER); }},
      {"glHint", [] { glHint(GL_GENERATE_MIPMAP_HINT, GL_NICEST); }},
      {"glDepthFunc", [] { glDepthFunc(GL_LEQUAL); }},
      {"glStencilFunc", [] { glStencilFunc(GL_ALWAYS, 1, 0xFF); }},
      {"glStencilFuncSeparate", [] { glStencilFuncSeparate(GL_BACK, GL_NOTEQUAL, 2, 0x0F); }},
      {"glStencilMaskSeparate", [] { glStencilMaskSeparate(GL_FRONT, 0xFF); }},
      {"glStencilOp", [] { glStencilOp(GL_KEEP, GL_INCR_WRAP, GL_REPLACE); }},
      {"glStencilOpSeparate", [] { glStencilOpSeparate(GL_FRONT_AND_BACK, GL_ZERO, GL_INVERT, GL_DECR_WRAP); }},
      {"glCullFace", [] { glCullFace(GL_FRONT_AND_BACK); }},
      {"glFrontFace", [] { glFrontFace(GL_CW); }},
      {"glBlendEquation", [] { glBlendEquation(GL_MAX); }},
      {"glBlendEquationSeparate", [] { glBlendEquationSeparate(GL_FUNC_ADD, GL_FUNC_REVERSE_SUBTRACT); }},
      {"glBlendFunc", [] { glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA); }},
      {"glBlendFuncSeparate",
       [] { glBlendFuncSeparate(GL_ONE, GL_ZERO, GL_CONSTANT_ALPHA, GL_ONE_MINUS_DST_COLOR); }},
      {"glActiveTexture", [last_unit] { glActiveTexture(last_unit); }},
      {"glVertexAttrib1f", [last_attribute] { glVertexAttrib1f(last_attribute, 1.0f); }},
      {"glVertexAttrib2fv", [] { const GLfloat v[2] = {1, 2}; glVertexAttrib2fv(1, v); }},
      {"glVertexAttrib3f", [] { glVertexAttrib3f(2, 1, 2, 3); }},
      {"glVertexAttrib4fv", [] { const GLfloat v[4] = {1, 2, 3, 4}; glVertexAttrib4fv(3, v); }},
      {"glVertexAttribI4i", [] { glVertexAttribI4i(4, 1, 2, 3, 4); }},
      {"glVertexAttribI4uiv", [] { const GLuint v[4] = {1, 2, 3, 4}; glVertexAttribI4uiv(5, v); }},
  };
  const std::vector<Case> invalid = {
      {"glLineWidth", [] { glLineWidth(0.0f); }},
      {"glViewport", [] { glViewport(0, 0, -1, kSize); }},
      {"glScissor", [] { glScissor(0, 0, kSize, -2); }},
      {"glEnable", [] { glEnable(0x1234); }},
      {"glEnable of GLES 1", [] { glEnable(GL_TEXTURE_2D); }},
      {"glDisable", [] { glDisable(GL_BLEND_COLOR); }},
      {"glHint", [] { glHint(GL_GENERATE_MIPMAP_HINT, GL_ZERO); }},
      {"glDepthFunc", [] { glDepthFunc(GL_KEEP); }},
      {"glStencilFuncSeparate", [] { glStencilFuncSeparate(GL_CW, GL_LESS, 0, 0xFF); }},
      {"glStencilOp", [] { glStencilOp(GL_KEEP, GL_NEVER, GL_KEEP); }},
      {"glCullFace", [] { glCullFace(GL_CCW); }},
      {"glFrontFace", [] { glFrontFace(GL_BACK); }},
      {"glBlendEquation", [] { glBlendEquation(GL_ONE); }},
      {"glBlendFunc", [] { glBlendFunc(GL_SRC_ALPHA, GL_NEVER); }},
      {"glActiveTexture", [last_unit] { glActiveTexture(last_unit + 1); }},
      {"glActiveTexture below GL_TEXTURE0", [] { glActiveTexture(GL_TEXTURE0 - 1); }},
      {"glVertexAttrib1f", [attributes] { glVertexAttrib1f(static_cast<GLuint>(attributes), 1.0f); }},
      {"glVertexAttribI4i", [attributes] { glVertexAttribI4i(static_cast<GLuint>(attributes) + 7, 1, 2, 3, 4); }},
  };
  // Each valid call with a glGetError after it, ten times over: the calls a
  // debugging app checks one by one.
  for (int round = 0; round < 10; ++round) {
    for (const Case& c : valid) {
      c.call();
      if (round == 0) Say(c.what, "valid"); else if (glGetError() != GL_NO_ERROR) Say(c.what, "valid again");
    }
  }
  for (const Case& c : invalid) {
    c.call();
    Say(c.what, "invalid");
    // The error of an invalid call is still there after a valid one.
    c.call();
    valid[static_cast<size_t>(&c - invalid.data()) % valid.size()].call();
    Say(c.what, "invalid, then a valid call");
    Say(c.what, "read already");
  }
  // The state the valid calls set, drawn: a scissored clear.
  glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
  glClear(GL_COLOR_BUFFER_BIT);
  std::printf("frame %08x\n", FrameChecksum(kSize));
  return 0;
}
