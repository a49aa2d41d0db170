// A GLES 3.0 program that gives a buffer mapped for reading new storage
// without unmapping it (glBufferData unmaps it, GLES 3.2, 6.3.1), then
// waits for the GPU (glFinish), maps the new storage and prints what it
// reads, five rounds of a 16 MiB buffer. Natively and through a renderer
// the output must be the same: the renderer forgets a mapping whose buffer
// got new storage, so that the copies of readable mappings it sends after
// a wait never read storage the driver has freed.
#include <EGL/egl.h>
#include <GLES3/gl3.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "test_program.h"

namespace {

[[noreturn]] void Fail(const char* what) {
  std::fprintf(stderr, "respecified_mapping: error: %s\n", what);
  std::exit(1);
}

constexpr GLsizeiptr kBytes = 16 << 20;

}  // namespace

int main() {
  const PbufferContext egl = MakePbufferCurrent(16, 0);
  if (egl.failed != nullptr) Fail(egl.failed);
  std::vector<unsigned char> contents(kBytes);
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  for (int round = 0; round < 5; ++round) {
    for (GLsizeiptr i = 0; i < kBytes; i += 4096) contents[i] = static_cast<unsigned char>(round * 31 + i / 4096);
    glBufferData(GL_ARRAY_BUFFER, kBytes, contents.data(), GL_STATIC_DRAW);
    const auto* read = static_cast<const unsigned char*>(glMapBufferRange(GL_ARRAY_BUFFER, 0, kBytes, GL_MAP_READ_BIT));
    if (read == nullptr) Fail("glMapBufferRange for reading failed");
    const int first = read[4096];
    // New storage while mapped: the old mapping ends here.
    glBufferData(GL_ARRAY_BUFFER, kBytes / 2, nullptr, GL_STREAM_DRAW);
    const GLenum respecified = glGetError();
    glFinish();
    const auto* again = static_cast<const unsigned char*>(glMapBufferRange(GL_ARRAY_BUFFER, 0, 16, GL_MAP_WRITE_BIT));
    const GLenum remapped = glGetError();
    const GLboolean unmapped = glUnmapBuffer(GL_ARRAY_BUFFER);
    std::printf("round %d: read %d, new storage error 0x%04x, mapped again %d, error 0x%04x, unmapped %d\n", round,
                first, respecified, again != nullptr, remapped, unmapped);
  }
  std::printf("final error 0x%04x\n", glGetError());
  eglMakeCurrent(egl.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglTerminate(egl.display);
  return 0;
}
