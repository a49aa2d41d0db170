// A program whose only varying input is one uniform: `tinted_app RED FRAMES
// [READ_FRAME]` draws FRAMES frames of a quad tinted (RED, 0.5, 0.25, 1) on a
// 64x64 pbuffer, and with READ_FRAME reads its pixels back in that frame.
// Two runs with different RED differ in exactly one call per frame.
#include <cstdio>
#include <cstdlib>

#include "../remote/test_program.h"

int main(int argc, char** argv) {
  if (argc != 3 && argc != 4) {
    std::fprintf(stderr, "usage: tinted_app RED FRAMES [READ_FRAME]\n");
    return 2;
  }
  const float red = std::strtof(argv[1], nullptr);
  const int frames = std::atoi(argv[2]);
  const int read_frame = argc == 4 ? std::atoi(argv[3]) : -1;
  PbufferContext c = MakePbufferCurrent(64, 0);
  if (c.failed) {
    std::fprintf(stderr, "tinted_app: %s failed\n", c.failed);
    return 1;
  }
  const GLuint program = LinkedProgram(
      CompiledShader(GL_VERTEX_SHADER, "attribute vec2 position; void main() { gl_Position = vec4(position, 0.0, 1.0); }"),
      CompiledShader(GL_FRAGMENT_SHADER, "precision mediump float; uniform vec4 tint; void main() { gl_FragColor = tint; }"));
  if (!program) {
    std::fprintf(stderr, "tinted_app: the program does not link\n");
    return 1;
  }
  glUseProgram(program);
  FullScreenQuadAt(static_cast<GLuint>(glGetAttribLocation(program, "position")));
  const GLint tint = glGetUniformLocation(program, "tint");
  for (int frame = 0; frame < frames; ++frame) {
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glUniform4f(tint, red, 0.5f, 0.25f, 1.0f);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    if (frame == read_frame) FrameChecksum(64);
    eglSwapBuffers(c.display, c.surface);
  }
  const bool clean = glGetError() == GL_NO_ERROR;
  eglMakeCurrent(c.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglTerminate(c.display);
  return clean ? 0 : 1;
}
