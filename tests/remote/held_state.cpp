// A GLES 3 program whose state calls a remote client may hold back or drop
// (remote/deferred_state.h): capabilities toggled many times before a draw,
// blend factors, uniforms and a generic attribute's current value
// overwritten, a uniform a draw for long enough that the client sends
// uniforms as they come, array buffers bound in turn, the
// same values set again, and invalid arguments among them. It prints what an
// app can observe: GL errors, glIsEnabled, bindings, and a checksum of each
// frame. Natively and through a renderer, with calls held back or not, the
// output must be the same.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "test_program.h"

namespace {

[[noreturn]] void Fail(const char* what) {
  std::fprintf(stderr, "held_state: error: %s\n", what);
  std::exit(1);
}

constexpr int kSize = 64;

GLuint Program() {
  const char* vs =
      "#version 300 es\nlayout(location = 0) in vec2 p; layout(location = 1) in vec4 tint; uniform vec2 offset;\n"
      "uniform float scale; out vec4 shade;\n"
      "void main() { gl_Position = vec4(p * scale + offset, 0.0, 1.0); shade = tint; }";
  const char* fs =
      "#version 300 es\nprecision mediump float; uniform vec4 color; uniform int boost; in vec4 shade; out vec4 o;\n"
      "void main() { o = color * shade * (boost > 0 ? 2.0 : 1.0); }";
  GLuint program = LinkedProgram(CompiledShader(GL_VERTEX_SHADER, vs), CompiledShader(GL_FRAGMENT_SHADER, fs));
  if (program == 0) Fail("link failed");
  return program;
}


void Say(const char* what) {
  std::printf("%s: error 0x%04x, blend %d, depth %d, array buffer %d, frame %08x\n", what, glGetError(),
              glIsEnabled(GL_BLEND), glIsEnabled(GL_DEPTH_TEST), [] {
                GLint bound = 0;
                glGetIntegerv(GL_ARRAY_BUFFER_BINDING, &bound);
                return bound;
              }(),
              FrameChecksum(kSize));
}

}  // namespace

int main() {
  const PbufferContext egl = MakePbufferCurrent(kSize, 0);
  if (egl.failed != nullptr) Fail(egl.failed);
  const auto display = egl.display;

  GLuint program = Program();
  glUseProgram(program);
  const GLint color = glGetUniformLocation(program, "color"), offset = glGetUniformLocation(program, "offset");
  const GLint scale = glGetUniformLocation(program, "scale"), boost = glGetUniformLocation(program, "boost");
  // Three buffers, three triangles of different sizes.
  GLuint buffers[3];
  glGenBuffers(3, buffers);
  for (int i = 0; i < 3; ++i) {
    const GLfloat s = 0.3f + 0.3f * i;
    const GLfloat triangle[] = {-s, -s, s, -s, 0, s};
    glBindBuffer(GL_ARRAY_BUFFER, buffers[i]);
    glBufferData(GL_ARRAY_BUFFER, sizeof triangle, triangle, GL_STATIC_DRAW);
  }
  glEnableVertexAttribArray(0);
  glVertexAttrib4f(1, 1.0f, 1.0f, 1.0f, 1.0f);
  glUniform1f(scale, 1.0f);
  auto draw = [] { glDrawArrays(GL_TRIANGLES, 0, 3); };
  glClearColor(0.1f, 0.2f, 0.3f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  Say("start");

  // Toggled many times, ending enabled; factors and colour overwritten.
  for (int i = 0; i < 101; ++i) {
    if (i % 2 == 0) glEnable(GL_BLEND); else glDisable(GL_BLEND);
    glBlendFunc(i % 3 == 0 ? GL_ONE : GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glUniform4f(color, i / 100.0f, 0.5f, 1.0f - i / 100.0f, 0.5f);
    glBindBuffer(GL_ARRAY_BUFFER, buffers[i % 3]);
  }
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glUniform2f(offset, -0.3f, 0.0f);
  draw();
  Say("toggled");

  // A generic attribute's current value (array 1 is disabled) set over and
  // over by different functions, the last one drawn with; an index past the
  // limit among them must still raise its error.
  for (int i = 0; i < 50; ++i) {
    glVertexAttrib4f(1, 1.0f, i / 50.0f, 0.5f, 1.0f);
    glVertexAttrib1f(1, 0.25f * (i % 4));  // (x, 0, 0, 1)
    glVertexAttrib3f(1, 0.9f, 0.8f, i / 100.0f);
  }
  draw();
  Say("attribute");
  GLint attributes = 0;
  glGetIntegerv(GL_MAX_VERTEX_ATTRIBS, &attributes);
  glGetError();  // no error here: the client may answer the next one itself, if it sent nothing that could fail
  glVertexAttrib2f(1, 0.5f, 1.0f);
  glVertexAttrib2f(static_cast<GLuint>(attributes), 1.0f, 1.0f);  // GL_INVALID_VALUE, asked at once
  std::printf("invalid attribute: error 0x%04x\n", glGetError());
  GLfloat current[4] = {};
  glGetVertexAttribfv(1, GL_CURRENT_VERTEX_ATTRIB, current);
  std::printf("attribute 1: %.2f %.2f %.2f %.2f\n", current[0], current[1], current[2], current[3]);
  draw();
  Say("attribute drawn");

  // Ending disabled this time, with depth enabled and disabled again.
  glEnable(GL_DEPTH_TEST);
  glEnable(GL_BLEND);
  glDisable(GL_BLEND);
  glDisable(GL_DEPTH_TEST);
  glUniform2f(offset, 0.3f, 0.2f);
  glUniform1i(boost, 1);
  glUniform1i(boost, 0);
  draw();
  Say("disabled");

  // The same values again: nothing to send, nothing different to see.
  glDisable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  glBindBuffer(GL_ARRAY_BUFFER, buffers[1]);
  glBindBuffer(GL_ARRAY_BUFFER, buffers[2]);
  draw();
  Say("again");

  // Invalid arguments among held calls: the errors must still show.
  glEnable(0x1234);  // GL_INVALID_ENUM
  glEnable(GL_BLEND);
  Say("invalid capability");
  glUniform1i(color, 3);  // an int into a vec4: GL_INVALID_OPERATION
  glUniform4f(color, 1.0f, 0.0f, 0.0f, 1.0f);
  draw();
  Say("wrong uniform type");
  glBlendFunc(GL_SRC_ALPHA, 0x4321);  // GL_INVALID_ENUM; the factors stay
  draw();
  Say("invalid factor");

  // A uniform set once a draw, a hundred times: the client stops holding
  // uniforms and sends them as they come. Then, while it does, uniforms set
  // again and again between held capabilities, and one of the wrong type.
  for (int i = 0; i < 100; ++i) {
    glUniform2f(offset, -0.5f + i / 100.0f, -0.4f + i / 200.0f);
    draw();
  }
  Say("a uniform a draw");
  for (int i = 0; i < 20; ++i) {
    glEnable(GL_BLEND);
    glUniform4f(color, i / 20.0f, 0.2f, 0.7f, 0.6f);
    glDisable(GL_BLEND);
    glUniform2f(offset, 0.1f * (i % 3), -0.1f);
  }
  glUniform1i(color, 2);  // an int into a vec4: GL_INVALID_OPERATION
  draw();
  Say("uniforms as they come");

  // Deleting the bound buffer binds 0; binding it again is then another call.
  glBindBuffer(GL_ARRAY_BUFFER, buffers[0]);
  glDeleteBuffers(1, &buffers[0]);
  Say("deleted");
  glBindBuffer(GL_ARRAY_BUFFER, buffers[2]);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glUniform4f(color, 0.0f, 1.0f, 0.0f, 1.0f);
  draw();
  Say("end");

  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglTerminate(display);
  return 0;
}
