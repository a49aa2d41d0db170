// `compressed_texture_app FRAMES [EXTRA_MIB]`: draws, every frame, two quads textured
// with ETC2 images uploaded once at the start (one with
// glCompressedTexImage2D, one into glTexStorage2D storage with
// glCompressedTexSubImage2D) on a 64x64 pbuffer. GLES cannot read such
// images back: an attach after the start can only carry them from copies
// the tracer kept (src/layers/trace/upload_shadows.h). EXTRA_MIB more MiB of
// compressed textures (2048x2048, 2 MiB each, never drawn) measure what
// those copies cost (docs/benchmarks.md).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "../remote/test_program.h"

namespace {

// One ETC2 block of one colour: differential mode, base colour (r, g, b) of
// five bits each, no difference, every pixel at the first modifier (+2).
void SolidBlock(uint8_t r5, uint8_t g5, uint8_t b5, uint8_t* block) {
  block[0] = static_cast<uint8_t>(r5 << 3);
  block[1] = static_cast<uint8_t>(g5 << 3);
  block[2] = static_cast<uint8_t>(b5 << 3);
  block[3] = 0x02;  // tables 0, differential, no flip
  std::memset(block + 4, 0, 4);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 && argc != 3) {
    std::fprintf(stderr, "usage: compressed_texture_app FRAMES [EXTRA_MIB]\n");
    return 2;
  }
  const int frames = std::atoi(argv[1]);
  const int extra_textures = argc == 3 ? std::atoi(argv[2]) / 2 : 0;
  PbufferContext c = MakePbufferCurrent(64, 0);
  if (c.failed) {
    std::fprintf(stderr, "compressed_texture_app: %s failed\n", c.failed);
    return 1;
  }
  // 16x16: a row of red, green, blue and white blocks, four times.
  std::vector<uint8_t> checker(16 * 8);
  const uint8_t colours[4][3] = {{31, 0, 0}, {0, 31, 0}, {0, 0, 31}, {31, 31, 31}};
  for (int block = 0; block < 16; ++block) {
    const uint8_t* rgb = colours[(block + block / 4) % 4];
    SolidBlock(rgb[0], rgb[1], rgb[2], &checker[static_cast<size_t>(block) * 8]);
  }
  GLuint textures[2];
  glGenTextures(2, textures);
  glBindTexture(GL_TEXTURE_2D, textures[0]);
  glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGB8_ETC2, 16, 16, 0, static_cast<GLsizei>(checker.size()),
                         checker.data());
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  // 8x8 of yellow, into immutable storage.
  std::vector<uint8_t> yellow(4 * 8);
  for (int block = 0; block < 4; ++block) SolidBlock(31, 31, 0, &yellow[static_cast<size_t>(block) * 8]);
  glBindTexture(GL_TEXTURE_2D, textures[1]);
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_COMPRESSED_RGB8_ETC2, 8, 8);
  glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 8, 8, GL_COMPRESSED_RGB8_ETC2, static_cast<GLsizei>(yellow.size()),
                            yellow.data());
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  std::vector<uint8_t> big(2048 / 4 * 2048 / 4 * 8, 0);
  std::vector<GLuint> extra(static_cast<size_t>(extra_textures));
  if (!extra.empty()) glGenTextures(extra_textures, extra.data());
  for (GLuint texture : extra) {
    glBindTexture(GL_TEXTURE_2D, texture);
    glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGB8_ETC2, 2048, 2048, 0, static_cast<GLsizei>(big.size()),
                           big.data());
  }
  const GLuint program = LinkedProgram(
      CompiledShader(GL_VERTEX_SHADER,
                     "attribute vec2 corner; uniform float left; varying vec2 at;"
                     "void main() { at = corner * 0.5 + 0.5; gl_Position = vec4(left + (corner.x + 1.0) * 0.5, corner.y, 0.0, 1.0); }"),
      CompiledShader(GL_FRAGMENT_SHADER,
                     "precision mediump float; uniform sampler2D image; varying vec2 at;"
                     "void main() { gl_FragColor = texture2D(image, at); }"));
  if (!program) {
    std::fprintf(stderr, "compressed_texture_app: the program does not link\n");
    return 1;
  }
  const GLfloat quad[] = {-1, -1, 1, -1, -1, 1, 1, 1};
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
  glUseProgram(program);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(0);
  const GLint left = glGetUniformLocation(program, "left");
  for (int frame = 0; frame < frames; ++frame) {
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    for (int i = 0; i < 2; ++i) {
      glBindTexture(GL_TEXTURE_2D, textures[i]);
      glUniform1f(left, i == 0 ? -1.0f : 0.0f);
      glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    }
    eglSwapBuffers(c.display, c.surface);
  }
  const bool clean = glGetError() == GL_NO_ERROR;
  eglMakeCurrent(c.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglTerminate(c.display);
  return clean ? 0 : 1;
}
