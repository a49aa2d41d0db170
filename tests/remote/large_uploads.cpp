// A GLES 3.0 program whose calls carry large blobs, each of which a remote
// client sends out of line (stream/bulk_blobs.h): texture images and buffer
// data the renderer hands to the driver where they lie in the shared-memory
// ring, and blobs it must copy first (client-side indices, a long shader
// source, 20,000 texture names made and deleted). Forty rounds of 4.25 MiB
// of uploads go round the ring many times, the 4 MiB images placed at the
// ring's start or middle (ByteStream::PlacementPadding). It prints the frame's checksum
// each round and the errors: natively and through a renderer, over the ring
// or a socket, the output must be the same.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "test_program.h"

namespace {

[[noreturn]] void Fail(const char* what) {
  std::fprintf(stderr, "large_uploads: error: %s\n", what);
  std::exit(1);
}

constexpr int kSize = 128;
constexpr int kImage = 1024;  // the texture: 4 MiB of RGBA
constexpr int kPatch = 256;  // the part replaced each round: 256 KiB
constexpr int kGrid = 100;   // cells a side of the mesh drawn
constexpr int kRounds = 40;

std::vector<uint8_t> Pattern(int width, int height, int depth, uint32_t seed) {
  std::vector<uint8_t> pixels(static_cast<size_t>(width) * height * depth * 4);
  uint32_t state = seed * 2654435761u + 1;
  for (size_t i = 0; i < pixels.size(); i += 4) {
    state = state * 1664525u + 1013904223u;
    const size_t pixel = i / 4;
    pixels[i] = static_cast<uint8_t>(pixel % static_cast<size_t>(width) + seed);
    pixels[i + 1] = static_cast<uint8_t>(pixel / static_cast<size_t>(width) * 3);
    pixels[i + 2] = static_cast<uint8_t>(state >> 24);
    pixels[i + 3] = 255;
  }
  return pixels;
}

GLuint Shader(GLenum type, const std::string& source) {
  const GLuint shader = CompiledShader(type, source.c_str());
  if (shader == 0) Fail("a shader did not compile");
  return shader;
}

}  // namespace

int main() {
  const PbufferContext egl = MakePbufferCurrent(kSize, 0);
  if (egl.failed != nullptr) Fail(egl.failed);
  const auto display = egl.display;

  // 20,000 names in one call (80 KB each way): made on the client, sent out
  // of line in the call's reply part; deleted with 80 KB of names the
  // renderer maps one by one.
  std::vector<GLuint> many(20000);
  glGenTextures(static_cast<GLsizei>(many.size()), many.data());
  const std::set<GLuint> distinct(many.begin(), many.end());
  std::printf("20000 names distinct and non-zero: %s\n",
              distinct.size() == many.size() && distinct.count(0) == 0 ? "yes" : "NO");
  glBindTexture(GL_TEXTURE_2D, many[12345]);
  std::printf("a name of the 20000 is a texture once bound: %s\n", glIsTexture(many[12345]) ? "yes" : "NO");
  glDeleteTextures(static_cast<GLsizei>(many.size()), many.data());
  std::printf("deleted: %s, error 0x%04x\n", glIsTexture(many[12345]) ? "NO" : "yes", glGetError());

  // A fragment shader of over 64 KiB: its source goes out of line too.
  std::string padding;
  while (padding.size() < 70 * 1024) padding += "// a long comment line that makes the source large enough\n";
  GLuint program = LinkedProgram(
      Shader(GL_VERTEX_SHADER,
             "#version 300 es\nlayout(location = 0) in vec2 p; layout(location = 1) in vec2 t;\n"
             "out vec2 uv; void main() { uv = t; gl_Position = vec4(p, 0.0, 1.0); }"),
      Shader(GL_FRAGMENT_SHADER,
             "#version 300 es\nprecision mediump float;\n" + padding +
                 "in vec2 uv; uniform sampler2D image; uniform mediump sampler2DArray layers;\n"
                 "out vec4 o; void main() {\n"
                 "  o = texture(image, uv) * 0.75 + texture(layers, vec3(uv, 5.0)) * 0.25; }"));
  if (program == 0) Fail("the program did not link");
  glUseProgram(program);
  glUniform1i(glGetUniformLocation(program, "image"), 0);
  glUniform1i(glGetUniformLocation(program, "layers"), 1);

  // The mesh: (kGrid + 1)^2 vertices of position and texture coordinate (163 KB).
  std::vector<float> vertices;
  for (int y = 0; y <= kGrid; ++y) {
    for (int x = 0; x <= kGrid; ++x) {
      const float u = static_cast<float>(x) / kGrid, v = static_cast<float>(y) / kGrid;
      vertices.insert(vertices.end(), {u * 2 - 1, v * 2 - 1, u, v});
    }
  }
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(vertices.size() * sizeof(float)), vertices.data(),
               GL_STATIC_DRAW);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 16, nullptr);
  glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, 16, reinterpret_cast<const void*>(8));
  glEnableVertexAttribArray(0);
  glEnableVertexAttribArray(1);
  // Indices from the app's memory (120 KB a draw): the renderer copies them before use.
  std::vector<GLushort> indices;
  for (int y = 0; y < kGrid; ++y) {
    for (int x = 0; x < kGrid; ++x) {
      const auto at = static_cast<GLushort>(y * (kGrid + 1) + x);
      indices.insert(indices.end(), {at, static_cast<GLushort>(at + 1), static_cast<GLushort>(at + kGrid + 1),
                                     static_cast<GLushort>(at + 1), static_cast<GLushort>(at + kGrid + 2),
                                     static_cast<GLushort>(at + kGrid + 1)});
    }
  }

  GLuint textures[2];
  glGenTextures(2, textures);
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_2D_ARRAY, textures[1]);
  const std::vector<uint8_t> layers = Pattern(64, 64, 16, 99);  // 256 KiB
  glTexImage3D(GL_TEXTURE_2D_ARRAY, 0, GL_RGBA8, 64, 64, 16, 0, GL_RGBA, GL_UNSIGNED_BYTE, layers.data());
  glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, textures[0]);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  GLuint unpack = 0;
  glGenBuffers(1, &unpack);

  for (int round = 0; round < kRounds; ++round) {
    // The whole image, then a patch of it: from the app's memory, or every
    // fourth round from a pixel-unpack buffer filled with glBufferData.
    const std::vector<uint8_t> image = Pattern(kImage, kImage, 1, static_cast<uint32_t>(round));
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, kImage, kImage, 0, GL_RGBA, GL_UNSIGNED_BYTE, image.data());
    const std::vector<uint8_t> patch = Pattern(kPatch, kPatch, 1, static_cast<uint32_t>(round + 1000));
    if (round % 4 == 3) {
      glBindBuffer(GL_PIXEL_UNPACK_BUFFER, unpack);
      glBufferData(GL_PIXEL_UNPACK_BUFFER, static_cast<GLsizeiptr>(patch.size()), patch.data(), GL_STREAM_DRAW);
      glTexSubImage2D(GL_TEXTURE_2D, 0, 64, 128, kPatch, kPatch, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
      glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    } else {
      glTexSubImage2D(GL_TEXTURE_2D, 0, 64, 128, kPatch, kPatch, GL_RGBA, GL_UNSIGNED_BYTE, patch.data());
    }
    // Part of the mesh moved (a 64 KiB+ glBufferSubData every other round).
    if (round % 2 == 1) {
      std::vector<float> moved(vertices.begin(), vertices.begin() + 4 * 4200);
      for (size_t i = 0; i < moved.size(); i += 4) moved[i + 2] = 1.0f - moved[i + 2];
      glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(moved.size() * sizeof(float)), moved.data());
    }
    glClearColor(0.1f, 0.2f, 0.3f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glDrawElements(GL_TRIANGLES, static_cast<GLsizei>(indices.size()), GL_UNSIGNED_SHORT, indices.data());
    const uint32_t checksum = FrameChecksum(kSize);
    std::printf("round %d: frame %08x, error 0x%04x\n", round, checksum, glGetError());
  }
  eglTerminate(display);
  return 0;
}
