// A GLES 3.0 program that asks for a lot of storage: a 48 MiB buffer, a
// 4096x4096 RGBA texture (64 MiB), a 64 MiB immutable texture, a 4096x4096
// RGBA8 renderbuffer, a 256x256x256 RGBA 3D texture and 3D immutable texture
// (64 MiB each: counted by their depth too), a 64x64x64 one (1 MiB, which
// fits); then gives the buffer back and asks for 8 MiB, which fits again. It prints glGetError after each call, and a frame's checksum at
// the end: a renderer with --client-memory 32M must answer GL_OUT_OF_MEMORY
// (0x505) to the large requests, keep drawing, and serve the next client.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>

#include <cstdio>
#include <cstdlib>

#include "test_program.h"

int main() {
  PbufferContext c = MakePbufferCurrent(64, 0);
  if (c.failed != nullptr) {
    std::fprintf(stderr, "memory_hungry: error: %s failed\n", c.failed);
    return 1;
  }
  auto report = [](const char* what) { std::printf("%s: 0x%x\n", what, glGetError()); };
  GLuint buffers[2], texture[5], renderbuffer;
  glGenBuffers(2, buffers);
  glGenTextures(5, texture);
  glGenRenderbuffers(1, &renderbuffer);

  glBindBuffer(GL_ARRAY_BUFFER, buffers[0]);
  glBufferData(GL_ARRAY_BUFFER, 48 << 20, nullptr, GL_STATIC_DRAW);
  report("buffer 48 MiB");
  glBindTexture(GL_TEXTURE_2D, texture[0]);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 4096, 4096, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  report("texture image 64 MiB");
  glBindTexture(GL_TEXTURE_2D, texture[1]);
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 4096, 4096);
  report("texture storage 64 MiB");
  glBindRenderbuffer(GL_RENDERBUFFER, renderbuffer);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 4096, 4096);
  report("renderbuffer 64 MiB");
  glBindTexture(GL_TEXTURE_3D, texture[2]);
  glTexImage3D(GL_TEXTURE_3D, 0, GL_RGBA8, 256, 256, 256, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  report("image of a 3D texture, 64 MiB");
  glBindTexture(GL_TEXTURE_3D, texture[3]);
  glTexStorage3D(GL_TEXTURE_3D, 1, GL_RGBA8, 256, 256, 256);
  report("storage of a 3D texture, 64 MiB");
  glBindTexture(GL_TEXTURE_3D, texture[4]);
  glTexImage3D(GL_TEXTURE_3D, 0, GL_RGBA8, 64, 64, 64, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  report("image of a 3D texture, 1 MiB");
  glDeleteBuffers(1, &buffers[0]);
  glBindBuffer(GL_ARRAY_BUFFER, buffers[1]);
  glBufferData(GL_ARRAY_BUFFER, 8 << 20, nullptr, GL_STATIC_DRAW);
  report("buffer 8 MiB");
  glBufferData(GL_ARRAY_BUFFER, 4 << 20, nullptr, GL_STATIC_DRAW);
  report("the same buffer again, 4 MiB");

  glClearColor(0.25f, 0.5f, 0.75f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  std::printf("frame: %08x\n", FrameChecksum(64));
  report("after the frame");
  eglMakeCurrent(c.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglTerminate(c.display);
  return 0;
}
