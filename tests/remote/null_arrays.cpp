// A program of GLES 2.0 calls that, with --null, passes null where its calls'
// arguments need arrays (glUniform4fv and glUniformMatrix4fv of one value,
// glBufferSubData of 64 bytes, glPushDebugGroupKHR's NUL-terminated message:
// natively the driver reads address 0 and the program crashes), beside the
// nulls GL gives a meaning (glBufferData without data, glUniform4fv of no
// values, glObjectLabelKHR taking a label away). It prints the errors, the
// buffer's size and label and a frame's checksum. Without --null it makes only the meaningful calls, so
// that it runs natively too: through a renderer, the calls that would read
// address 0 must be refused, the worker must live and the frame must be the
// native one. With --wrapping-range it also writes 64 bytes at an offset
// whose end passes INT64_MAX (natively the driver's bound check wraps and it
// writes far past the buffer) and prints the error the call gave.
#include <EGL/egl.h>
#include <GLES2/gl2.h>
#include <GLES2/gl2ext.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "test_program.h"

namespace {

[[noreturn]] void Fail(const char* what) {
  std::fprintf(stderr, "null_arrays: error: %s\n", what);
  std::exit(1);
}

constexpr int kSize = 32;

}  // namespace

int main(int argc, char** argv) {
  bool with_null = false, with_wrapping_range = false;
  for (int i = 1; i < argc; ++i) {
    with_null |= std::strcmp(argv[i], "--null") == 0;
    with_wrapping_range |= std::strcmp(argv[i], "--wrapping-range") == 0;
  }
  const PbufferContext egl = MakePbufferCurrent(kSize, 0);
  if (egl.failed != nullptr) Fail(egl.failed);
  const char* vs =
      "attribute vec2 p; uniform mat4 m; void main() { gl_Position = m * vec4(p, 0.0, 1.0); }";
  const char* fs = "precision mediump float; uniform vec4 color; void main() { gl_FragColor = color; }";
  const GLuint program = LinkedProgram(CompiledShader(GL_VERTEX_SHADER, vs), CompiledShader(GL_FRAGMENT_SHADER, fs));
  if (program == 0) Fail("link failed");
  glUseProgram(program);
  const GLint color = glGetUniformLocation(program, "color"), matrix = glGetUniformLocation(program, "m");
  const GLfloat identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  const GLfloat teal[4] = {0.0f, 0.5f, 0.5f, 1.0f};
  glUniformMatrix4fv(matrix, 1, GL_FALSE, identity);
  glUniform4fv(color, 1, teal);
  glUniform4fv(color, 0, nullptr);  // no values: nothing read, nothing changed
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  glBufferData(GL_ARRAY_BUFFER, 64, nullptr, GL_STREAM_DRAW);  // storage without data
  GLint size = 0;
  glGetBufferParameteriv(GL_ARRAY_BUFFER, GL_BUFFER_SIZE, &size);
  std::printf("buffer made without data: %d bytes, error 0x%04x\n", size, glGetError());
  const auto object_label = reinterpret_cast<PFNGLOBJECTLABELKHRPROC>(eglGetProcAddress("glObjectLabelKHR"));
  const auto get_object_label = reinterpret_cast<PFNGLGETOBJECTLABELKHRPROC>(eglGetProcAddress("glGetObjectLabelKHR"));
  if (object_label == nullptr || get_object_label == nullptr) Fail("no GL_KHR_debug");
  object_label(GL_BUFFER_KHR, buffer, -1, "vertices");
  object_label(GL_BUFFER_KHR, buffer, 0, nullptr);  // no label: the buffer's is taken away
  char label[32] = "unchanged";
  GLsizei label_length = -1;
  get_object_label(GL_BUFFER_KHR, buffer, sizeof label, &label_length, label);
  std::printf("label after a null one: '%s' (%d characters), error 0x%04x\n", label, label_length, glGetError());
  if (with_null) {
    glUniform4fv(color, 1, nullptr);
    glUniformMatrix4fv(matrix, 1, GL_FALSE, nullptr);
    glBufferSubData(GL_ARRAY_BUFFER, 0, 64, nullptr);
    const auto push_group =
        reinterpret_cast<PFNGLPUSHDEBUGGROUPKHRPROC>(eglGetProcAddress("glPushDebugGroupKHR"));
    push_group(GL_DEBUG_SOURCE_APPLICATION_KHR, 1, -1, nullptr);  // never pushed: no pop
  }
  if (with_wrapping_range) {
    const unsigned char bytes[64] = {};
    glBufferSubData(GL_ARRAY_BUFFER, INT64_MAX - 8, sizeof bytes, bytes);
    std::printf("a range whose end wraps: error 0x%04x\n", glGetError());
  }
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  glClearColor(0.25f, 0.25f, 0.25f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  FullScreenQuadAt(static_cast<GLuint>(glGetAttribLocation(program, "p")));
  std::printf("frame: %08x, error 0x%04x\n", FrameChecksum(kSize), glGetError());
  eglMakeCurrent(egl.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglTerminate(egl.display);
  return 0;
}
