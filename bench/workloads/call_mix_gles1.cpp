// A GLES 1.1 call mix (issue 19): fixed-function programs call matrix and
// colour functions around every draw. 300 draws a frame on a 64x64 pbuffer,
// each glLoadIdentity, glTranslatef, glRotatef, glColor4f, glBindTexture,
// glTexEnvi, glDrawArrays from a vertex buffer; a frame ends with a 64x64
// glReadPixels and a swap. Prints the calls made and calls per second.
#include <GLES/gl.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "headless_egl.h"

namespace {

[[noreturn]] void Fail(const char* what) {
  std::fprintf(stderr, "call_mix_gles1: error: %s\n", what);
  std::exit(1);
}

constexpr int kSurfaceSize = 64;

}  // namespace

int main(int argc, char** argv) {
  int frames = 100;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--frames") && i + 1 < argc) {
      frames = std::atoi(argv[++i]);
    } else if (!std::strcmp(argv[i], "--help")) {
      std::puts("usage: call_mix_gles1 [--frames N]\n"
                "A GLES 1.1 fixed-function call mix on a 64x64 pbuffer; prints calls per second.");
      return 0;
    } else {
      Fail("unknown argument (see --help)");
    }
  }
  if (frames < 1) Fail("--frames must be at least 1");

  HeadlessEgl egl("call_mix_gles1", 1, kSurfaceSize, kSurfaceSize);
  egl.MakeCurrentContext();
  EGLDisplay display = egl.display;
  EGLSurface surface = egl.surface;

  const GLfloat triangle[] = {-1, -1, 0, 0, 1, -1, 1, 0, 0, 1, 0.5f, 1};
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  glBufferData(GL_ARRAY_BUFFER, sizeof triangle, triangle, GL_STATIC_DRAW);
  glEnableClientState(GL_VERTEX_ARRAY);
  glEnableClientState(GL_TEXTURE_COORD_ARRAY);
  glVertexPointer(2, GL_FLOAT, 4 * sizeof(GLfloat), nullptr);
  glTexCoordPointer(2, GL_FLOAT, 4 * sizeof(GLfloat), reinterpret_cast<const void*>(2 * sizeof(GLfloat)));
  GLuint textures[2];
  glGenTextures(2, textures);
  std::vector<uint32_t> texels(16 * 16, 0xff80c040u);
  for (GLuint texture : textures) {
    glBindTexture(GL_TEXTURE_2D, texture);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 16, 16, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels.data());
  }
  glEnable(GL_TEXTURE_2D);
  glMatrixMode(GL_MODELVIEW);

  std::vector<uint32_t> pixels(kSurfaceSize * kSurfaceSize);
  long calls = 0;
  auto start = std::chrono::steady_clock::now();
  for (int frame = 0; frame < frames; ++frame) {
    glClear(GL_COLOR_BUFFER_BIT);
    for (int i = 0; i < 300; ++i) {
      glLoadIdentity();
      glTranslatef(((i * 37) % 200) / 100.0f - 1.0f, ((i * 91) % 200) / 100.0f - 1.0f, 0.0f);
      glRotatef(static_cast<float>((i * 7 + frame) % 360), 0.0f, 0.0f, 1.0f);
      glColor4f((i & 255) / 255.0f, 0.5f, 0.25f, 1.0f);
      glBindTexture(GL_TEXTURE_2D, textures[i & 1]);
      glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, (i & 2) ? GL_MODULATE : GL_REPLACE);
      glDrawArrays(GL_TRIANGLES, 0, 3);
    }
    glReadPixels(0, 0, kSurfaceSize, kSurfaceSize, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
    eglSwapBuffers(display, surface);
    calls += 300 * 7 + 3;
  }
  glFinish();
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("call_mix_gles1: gles1, %d frames, %ld calls in %.4f s, %.3f M calls/s\n", frames, calls, seconds,
              calls / seconds / 1e6);
  egl.Close();
  return 0;
}
