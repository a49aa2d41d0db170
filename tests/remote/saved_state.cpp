// A GLES 3 program that saves and restores GL state around its own drawing
// each frame, as UI toolkits and engine middleware do: ~20 glGetIntegerv and
// glIsEnabled queries of bindings, viewport, scissor, blend, depth and face
// state, then its own state, a draw, and the saved state put back. Between
// frames it changes that state in every way the remote client's query cache
// (remote/query_cache.h) must notice: each setter, a texture unit switch, a
// vertex array switch (which changes the element buffer binding), deleting
// bound objects (which binds 0), and invalid calls that change nothing; and
// at the end it asks for pnames the driver refuses, whose variables must stay
// as they were. It prints every answer and a checksum of each frame: natively
// and through a renderer, with the client's cache and without, the output
// must be the same.
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "test_program.h"

namespace {

[[noreturn]] void Fail(const char* what) {
  std::fprintf(stderr, "saved_state: error: %s\n", what);
  std::exit(1);
}

constexpr int kSize = 48;

constexpr GLenum kIntegers[] = {
    GL_CURRENT_PROGRAM, GL_ARRAY_BUFFER_BINDING, GL_ELEMENT_ARRAY_BUFFER_BINDING, GL_VERTEX_ARRAY_BINDING,
    GL_ACTIVE_TEXTURE, GL_TEXTURE_BINDING_2D, GL_TEXTURE_BINDING_CUBE_MAP, GL_FRAMEBUFFER_BINDING,
    GL_READ_FRAMEBUFFER_BINDING, GL_RENDERBUFFER_BINDING, GL_BLEND_SRC_RGB, GL_BLEND_DST_RGB, GL_BLEND_SRC_ALPHA,
    GL_BLEND_DST_ALPHA, GL_BLEND_EQUATION_RGB, GL_BLEND_EQUATION_ALPHA, GL_DEPTH_FUNC, GL_CULL_FACE_MODE,
    GL_FRONT_FACE};
constexpr GLenum kBoxes[] = {GL_VIEWPORT, GL_SCISSOR_BOX};
constexpr GLenum kCapabilities[] = {GL_BLEND, GL_SCISSOR_TEST, GL_DEPTH_TEST, GL_CULL_FACE, GL_STENCIL_TEST};

struct Saved {
  GLint integers[std::size(kIntegers)];
  GLint boxes[std::size(kBoxes)][4];
  GLboolean enabled[std::size(kCapabilities)];
};

// Queries everything (twice: the second time must agree) and prints it;
// then the same state through glGetFloatv and glGetBooleanv, and the
// capabilities through glGetIntegerv, which convert it (GLES 3.0, 6.1.2).
Saved Save(const char* when) {
  Saved saved{};
  for (int round = 0; round < 2; ++round) {
    for (size_t i = 0; i < std::size(kIntegers); ++i) glGetIntegerv(kIntegers[i], &saved.integers[i]);
    for (size_t i = 0; i < std::size(kBoxes); ++i) glGetIntegerv(kBoxes[i], saved.boxes[i]);
    for (size_t i = 0; i < std::size(kCapabilities); ++i) saved.enabled[i] = glIsEnabled(kCapabilities[i]);
  }
  std::printf("%s:", when);
  for (GLint value : saved.integers) std::printf(" %x", value);
  for (const auto& box : saved.boxes) std::printf(" [%d %d %d %d]", box[0], box[1], box[2], box[3]);
  for (GLboolean on : saved.enabled) std::printf(" %d", on);
  std::printf(" error 0x%04x\n", glGetError());
  std::printf("%s, converted:", when);
  for (GLenum pname : kIntegers) {
    GLfloat real = -1;
    GLboolean boolean = 7;
    glGetFloatv(pname, &real);
    glGetBooleanv(pname, &boolean);
    std::printf(" %g/%d", real, boolean);
  }
  for (GLenum pname : kBoxes) {
    GLfloat reals[4] = {-1, -1, -1, -1};
    GLboolean booleans[4] = {7, 7, 7, 7};
    glGetFloatv(pname, reals);
    glGetBooleanv(pname, booleans);
    std::printf(" [%g %g %g %g/%d%d%d%d]", reals[0], reals[1], reals[2], reals[3], booleans[0], booleans[1],
                booleans[2], booleans[3]);
  }
  for (GLenum cap : kCapabilities) {
    GLint integer = -1;
    GLfloat real = -1;
    GLboolean boolean = 7;
    glGetIntegerv(cap, &integer);
    glGetFloatv(cap, &real);
    glGetBooleanv(cap, &boolean);
    std::printf(" %d/%g/%d", integer, real, boolean);
  }
  GLfloat limit = -1;
  glGetFloatv(GL_MAX_TEXTURE_SIZE, &limit);
  std::printf(" limit %g error 0x%04x\n", limit, glGetError());
  return saved;
}

void Restore(const Saved& s) {
  glUseProgram(static_cast<GLuint>(s.integers[0]));
  glBindVertexArray(static_cast<GLuint>(s.integers[3]));
  glBindBuffer(GL_ARRAY_BUFFER, static_cast<GLuint>(s.integers[1]));
  glActiveTexture(static_cast<GLenum>(s.integers[4]));
  glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(s.integers[5]));
  glBlendFuncSeparate(s.integers[10], s.integers[11], s.integers[12], s.integers[13]);
  glBlendEquationSeparate(s.integers[14], s.integers[15]);
  glDepthFunc(s.integers[16]);
  glViewport(s.boxes[0][0], s.boxes[0][1], s.boxes[0][2], s.boxes[0][3]);
  glScissor(s.boxes[1][0], s.boxes[1][1], s.boxes[1][2], s.boxes[1][3]);
  for (size_t i = 0; i < std::size(kCapabilities); ++i) {
    if (s.enabled[i]) glEnable(kCapabilities[i]); else glDisable(kCapabilities[i]);
  }
}

GLuint Program(float red) {
  const char* vs = "#version 300 es\nlayout(location = 0) in vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }";
  char fs[200];
  std::snprintf(fs, sizeof fs,
                "#version 300 es\nprecision mediump float; out vec4 o; void main() { o = vec4(%.2f, 0.4, 0.7, 0.6); }",
                red);
  GLuint program = LinkedProgram(CompiledShader(GL_VERTEX_SHADER, vs), CompiledShader(GL_FRAGMENT_SHADER, fs));
  if (program == 0) Fail("link failed");
  return program;
}

}  // namespace

int main() {
  const PbufferContext egl = MakePbufferCurrent(kSize, 0);
  if (egl.failed != nullptr) Fail(egl.failed);
  const GLuint app_program = Program(0.2f), overlay_program = Program(0.9f);
  GLuint buffers[3], arrays[2], textures[3];
  glGenBuffers(3, buffers);
  glGenVertexArrays(2, arrays);
  glGenTextures(3, textures);
  const GLfloat triangle[] = {-0.8f, -0.8f, 0.8f, -0.6f, 0.0f, 0.9f};
  const GLushort indices[] = {0, 1, 2};
  for (int i = 0; i < 2; ++i) {
    glBindVertexArray(arrays[i]);
    glBindBuffer(GL_ARRAY_BUFFER, buffers[i]);
    glBufferData(GL_ARRAY_BUFFER, sizeof triangle, triangle, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
    glEnableVertexAttribArray(0);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, buffers[2]);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof indices, indices, GL_STATIC_DRAW);
  }
  glBindTexture(GL_TEXTURE_CUBE_MAP, textures[2]);
  glClearColor(0.1f, 0.1f, 0.1f, 1);

  for (int frame = 0; frame < 12; ++frame) {
    // The app's own state changes, a different one each frame.
    glUseProgram(app_program);
    switch (frame) {
      case 1: glBindVertexArray(arrays[1]); break;
      case 2: glActiveTexture(GL_TEXTURE3); glBindTexture(GL_TEXTURE_2D, textures[1]); break;
      case 3: glViewport(4, 2, 40, 30); glScissor(1, 2, 3, 4); break;
      case 4: glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA); glBlendEquation(GL_FUNC_ADD); break;
      case 5: glEnable(GL_CULL_FACE); glCullFace(GL_FRONT); glFrontFace(GL_CW); glDepthFunc(GL_LEQUAL); break;
      case 6: glBindTexture(GL_TEXTURE_2D, textures[0]); glDeleteTextures(1, &textures[0]); break;  // binds 0
      case 7: glBindTexture(GL_TEXTURE_CUBE_MAP, textures[1]); break;  // a 2D texture: an error, nothing bound
      case 8: glActiveTexture(GL_TEXTURE0 + 4096); glViewport(0, 0, -1, 5); break;  // errors, nothing changes
      case 9: glBindVertexArray(0); glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, buffers[0]); break;
      case 10: glUseProgram(0); glDeleteProgram(app_program); glUseProgram(overlay_program); break;
      case 11: glBindBuffer(GL_ARRAY_BUFFER, buffers[1]); glDeleteBuffers(1, &buffers[1]); break;  // binds 0
      default: break;
    }
    char when[32];
    std::snprintf(when, sizeof when, "frame %d", frame);
    const Saved saved = Save(when);
    // The overlay's own state and draw, then the app's state back.
    glClear(GL_COLOR_BUFFER_BIT);
    glUseProgram(overlay_program);
    glBindVertexArray(arrays[frame % 2]);
    glEnable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_ONE);
    glViewport(0, 0, kSize, kSize);
    glDisable(GL_SCISSOR_TEST);
    glDisable(GL_CULL_FACE);
    glDrawElements(GL_TRIANGLES, 3, GL_UNSIGNED_SHORT, nullptr);
    Restore(saved);
    std::printf("frame %d drawn %08x\n", frame, FrameChecksum(kSize));
    Save("restored");
  }
  // Queries the driver refuses leave the app's variables as they were.
  GLint integer = 0x1234567;
  GLfloat real = 4.5f;
  GLboolean boolean = 7;
  GLint parameter = 0x7654321;
  glGetIntegerv(0x9999, &integer);
  glGetFloatv(0x9999, &real);
  glGetBooleanv(0x9999, &boolean);
  glGetTexParameteriv(GL_TEXTURE_2D, 0x9999, &parameter);
  std::printf("refused queries: %x %g %d %x, error 0x%04x\n", integer, real, boolean, parameter, glGetError());
  eglMakeCurrent(egl.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglTerminate(egl.display);
  return 0;
}
