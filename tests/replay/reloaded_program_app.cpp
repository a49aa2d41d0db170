// A program reloaded in place, as an app's shader hot-reload does:
// `reloaded_program_app FRAMES` draws a quad tinted red for the first half
// of FRAMES frames; then it unbinds, deletes and rebuilds its program from
// other sources (a second uniform declared before the tint, which moves the
// tint's location), binds the new one and draws the rest tinted green.
// Two things a replay that keeps a context's uniform-location table by
// program name gets wrong here:
// - where the driver gives the freed name back (a replay test renames the
//   second program so), it maps the second program's locations with the
//   first one's table;
// - after binding the second program the app sets a uniform the new sources
//   dropped (location -1) before it asks for the others, so "this program
//   has no table" is what such a replay would keep.
// It prints both names and both tint locations, so that a test can tell
// that the case it is for happened.
#include <cstdio>
#include <cstdlib>

#include "../remote/test_program.h"

namespace {

const char* kVertexShader = "attribute vec2 position; void main() { gl_Position = vec4(position, 0.0, 1.0); }";

GLuint TintedProgram(const char* fragment_shader) {
  const GLuint program = LinkedProgram(CompiledShader(GL_VERTEX_SHADER, kVertexShader),
                                       CompiledShader(GL_FRAGMENT_SHADER, fragment_shader));
  if (program == 0) return 0;
  glBindAttribLocation(program, 0, "position");
  glLinkProgram(program);
  return program;
}

}  // namespace

int main(int argc, char** argv) {
  const int frames = argc == 2 ? std::atoi(argv[1]) : 0;
  if (frames < 2) {
    std::fprintf(stderr, "usage: reloaded_program_app FRAMES (at least 2)\n");
    return 2;
  }
  PbufferContext c = MakePbufferCurrent(64, 0);
  if (c.failed) {
    std::fprintf(stderr, "reloaded_program_app: %s failed\n", c.failed);
    return 1;
  }
  GLuint program =
      TintedProgram("precision mediump float; uniform vec4 tint; void main() { gl_FragColor = tint; }");
  if (program == 0) {
    std::fprintf(stderr, "reloaded_program_app: the first program does not link\n");
    return 1;
  }
  FullScreenQuadAt(0);
  glUseProgram(program);
  GLint tint = glGetUniformLocation(program, "tint");
  const GLuint first_name = program;
  const GLint first_tint = tint;
  GLint dim = -1;
  for (int frame = 0; frame < frames; ++frame) {
    const bool reloaded = frame >= frames / 2;
    if (frame == frames / 2) {
      glUseProgram(0);
      glDeleteProgram(program);
      program = TintedProgram(
          "precision mediump float; uniform vec4 dim; uniform vec4 tint;"
          " void main() { gl_FragColor = tint - dim; }");
      if (program == 0) {
        std::fprintf(stderr, "reloaded_program_app: the second program does not link\n");
        return 1;
      }
      glUseProgram(program);
      // Code written for the old sources sets a uniform the new ones dropped
      // (location -1: nothing happens) before the others are asked for.
      glUniform1f(glGetUniformLocation(program, "brightness"), 1.0f);
      dim = glGetUniformLocation(program, "dim");
      tint = glGetUniformLocation(program, "tint");
    }
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    if (reloaded) {
      glUniform4f(dim, 0.0f, 0.25f, 0.0f, 0.0f);
      glUniform4f(tint, 0.0f, 1.0f, 0.5f, 1.0f);
    } else {
      glUniform4f(tint, 1.0f, 0.0f, 0.0f, 1.0f);
    }
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    eglSwapBuffers(c.display, c.surface);
  }
  std::printf("program %u reloaded as %u; tint at %d, then at %d\n", first_name, program, first_tint, tint);
  const bool clean = glGetError() == GL_NO_ERROR;
  eglMakeCurrent(c.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglTerminate(c.display);
  return clean ? 0 : 1;
}
