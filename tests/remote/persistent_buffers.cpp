// A GLES 3.1 program that draws from buffers it keeps mapped
// (GL_EXT_buffer_storage: GL_MAP_PERSISTENT_BIT_EXT | GL_MAP_COHERENT_BIT_EXT)
// and writes between draws without unmapping: every frame new vertices, in
// some frames only a part of them, one buffer written every frame and one
// written once. It prints each frame's checksum; natively and through a
// renderer the output must be the same (a remote client sends what changed
// in a persistent mapping before each draw, remote/client_buffers.cpp).
#include <EGL/egl.h>
#include <GLES3/gl31.h>
// After a GLES header, which it needs.
#include <GLES2/gl2ext.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "test_program.h"

namespace {

[[noreturn]] void Fail(const char* what) {
  std::fprintf(stderr, "persistent_buffers: error: %s\n", what);
  std::exit(1);
}

constexpr int kSize = 64;
constexpr int kFrames = 12;
constexpr int kTriangles = 8;

// A new buffer of `components` floats a vertex for every triangle's vertices,
// kept mapped persistently and coherently for writing, read by vertex
// attribute `attribute`: its name, and where the app writes.
struct Mapped {
  GLuint buffer;
  GLfloat* floats;
};
Mapped MappedAttribute(PFNGLBUFFERSTORAGEEXTPROC buffer_storage, GLuint attribute, int components) {
  const GLbitfield flags = GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT_EXT | GL_MAP_COHERENT_BIT_EXT;
  const GLsizeiptr bytes = kTriangles * 3 * components * static_cast<GLsizeiptr>(sizeof(GLfloat));
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  buffer_storage(GL_ARRAY_BUFFER, bytes, nullptr, flags);
  auto* mapped = static_cast<GLfloat*>(glMapBufferRange(GL_ARRAY_BUFFER, 0, bytes, flags));
  if (mapped == nullptr) Fail("glMapBufferRange of a persistent buffer failed");
  glVertexAttribPointer(attribute, components, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(attribute);
  return {buffer, mapped};
}

}  // namespace

int main() {
  const PbufferContext egl = MakePbufferCurrent(kSize, 1);
  if (egl.failed != nullptr) Fail(egl.failed);
  const char* extensions = reinterpret_cast<const char*>(glGetString(GL_EXTENSIONS));
  if (extensions == nullptr || std::strstr(extensions, "GL_EXT_buffer_storage") == nullptr) {
    Fail("the driver has no GL_EXT_buffer_storage");
  }
  auto buffer_storage = reinterpret_cast<PFNGLBUFFERSTORAGEEXTPROC>(eglGetProcAddress("glBufferStorageEXT"));
  if (buffer_storage == nullptr) Fail("no glBufferStorageEXT");

  const char* vs =
      "#version 310 es\nlayout(location = 0) in vec2 p; layout(location = 1) in vec4 tint; out vec4 shade;\n"
      "void main() { gl_Position = vec4(p, 0.0, 1.0); shade = tint; }";
  const char* fs = "#version 310 es\nprecision mediump float; in vec4 shade; out vec4 o; void main() { o = shade; }";
  const GLuint program =
      LinkedProgram(CompiledShader(GL_VERTEX_SHADER, vs), CompiledShader(GL_FRAGMENT_SHADER, fs));
  if (program == 0) Fail("link failed");
  glUseProgram(program);

  // Positions: rewritten (whole or in part) every frame. Colours: written
  // once, after mapping, before the first draw.
  const Mapped position_buffer = MappedAttribute(buffer_storage, 0, 2);
  GLfloat* const positions = position_buffer.floats;
  GLfloat* const tints = MappedAttribute(buffer_storage, 1, 4).floats;
  glBindBuffer(GL_ARRAY_BUFFER, 0);  // the mappings are written with nothing bound
  for (int i = 0; i < kTriangles * 3; ++i) {
    const float t = static_cast<float>(i) / (kTriangles * 3);
    const GLfloat tint[4] = {t, 1.0f - t, 0.5f, 1.0f};
    std::memcpy(tints + i * 4, tint, sizeof tint);
  }

  for (int frame = 0; frame < kFrames; ++frame) {
    glClearColor(0.1f, 0.1f, 0.1f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    // Every third frame only the last triangle moves; the others keep last frame's place.
    const int first = frame % 3 == 2 ? kTriangles - 1 : 0;
    for (int t = first; t < kTriangles; ++t) {
      const float x = -0.9f + 0.22f * static_cast<float>(t) + 0.03f * static_cast<float>(frame);
      const float y = -0.8f + 0.1f * static_cast<float>((t + frame) % 5);
      const GLfloat triangle[6] = {x, y, x + 0.3f, y, x + 0.15f, y + 0.5f};
      std::memcpy(positions + t * 6, triangle, sizeof triangle);
    }
    // Two draws a frame, each after its own writes: half the triangles, then
    // the other half with the first half moved again.
    glDrawArrays(GL_TRIANGLES, 0, kTriangles / 2 * 3);
    for (int t = 0; t < kTriangles / 2; ++t) positions[t * 6 + 1] += 0.05f;
    glDrawArrays(GL_TRIANGLES, 0, kTriangles * 3);
    std::printf("frame %d: error 0x%04x, checksum %08x\n", frame, glGetError(), FrameChecksum(kSize));
  }

  glBindBuffer(GL_ARRAY_BUFFER, position_buffer.buffer);
  const GLboolean unmapped = glUnmapBuffer(GL_ARRAY_BUFFER);
  std::printf("unmapped: %d, error 0x%04x\n", unmapped, glGetError());
  eglMakeCurrent(egl.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglTerminate(egl.display);
  return 0;
}
