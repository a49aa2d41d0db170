// A synthetic GLES 2 workload for tracing benchmarks, headless (surfaceless
// pbuffer). --mode cheap: thousands of cheap state calls per frame
// (glUniform4f, glEnable/glDisable, glBindBuffer) and one draw; --mode draws:
// thousands of small draws per frame (--draws N, 2000 by default), each with a uniform change; --mode
// roundtrip: a thousand glReadPixels of one pixel per frame, each a call that
// needs an answer (through a remote renderer: a round trip each); --mode
// geterror: a thousand glVertexAttrib1f and glGetError pairs per frame; --mode upload: a 1024x1024 RGBA
// texture uploaded (glTexSubImage2D) and drawn each frame; --mode saved: 100
// draws a frame by "middleware" that saves the app's state (8 glGetIntegerv and 3
// glIsEnabled), sets its own and puts the app's back; --mode create: 500
// textures a frame made, bound, set up and deleted (streaming apps' pattern);
// --mode matrices: 500 draws a frame, each with its own model matrix
// (glUniformMatrix4fv) and colour (glUniform4fv), uniforms passed by pointer
// as a scene graph's renderer passes them; --mode streaming: 200 draws a
// frame, each of a 16-vertex strip first written into a vertex buffer
// (orphaned with glBufferData, then glBufferSubData of 128 bytes), as a UI
// or text renderer streams its quads.
// --output FILE writes the last frame as a binary PPM (for comparing a remote
// run's pixels with a native one's); the line it prints at the end gives the
// frame loop's start and end on CLOCK_MONOTONIC too, so that several runs at
// once can be timed from the first start to the last end.
#include <GLES2/gl2.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "headless_egl.h"

namespace {

[[noreturn]] void Fail(const char* what) {
  std::fprintf(stderr, "trace_workload: error: %s\n", what);
  std::exit(1);
}

// A program of `vertex_shader` (attribute p at 0) and a fragment shader of one colour.
GLuint Program(const char* vertex_shader) {
  const char* fs = "precision mediump float; uniform vec4 color; void main() { gl_FragColor = color; }";
  GLuint program = glCreateProgram();
  for (auto [type, source] : {std::pair{GL_VERTEX_SHADER, vertex_shader}, std::pair{GL_FRAGMENT_SHADER, fs}}) {
    GLuint shader = glCreateShader(type);
    glShaderSource(shader, 1, &source, nullptr);
    glCompileShader(shader);
    glAttachShader(program, shader);
  }
  glBindAttribLocation(program, 0, "p");
  glLinkProgram(program);
  GLint ok = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (!ok) Fail("link failed");
  return program;
}

constexpr const char* kOffsetShader =
    "attribute vec2 p; uniform vec4 offset; void main() { gl_Position = vec4(p * 0.05, 0.0, 1.0) + offset; }";
// --mode matrices: a model matrix per draw.
constexpr const char* kMatrixShader =
    "attribute vec2 p; uniform mat4 model; void main() { gl_Position = model * vec4(p * 0.05, 0.0, 1.0); }";

}  // namespace

int main(int argc, char** argv) {
  std::string mode = "cheap";
  std::string output;
  int frames = 200;
  int draws = 2000;  // --mode draws: draws a frame
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--mode") && i + 1 < argc) mode = argv[++i];
    else if (!std::strcmp(argv[i], "--frames") && i + 1 < argc) frames = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--output") && i + 1 < argc) output = argv[++i];
    else if (!std::strcmp(argv[i], "--draws") && i + 1 < argc) draws = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--help")) {
      std::puts("usage: trace_workload [--mode cheap|draws|roundtrip|geterror|upload|create|saved|matrices|streaming] "
                "[--frames N] "
                "[--draws N] [--output FILE.ppm]");
      return 0;
    } else {
      Fail("unknown argument (see --help)");
    }
  }
  if (mode != "cheap" && mode != "draws" && mode != "roundtrip" && mode != "geterror" && mode != "upload" &&
      mode != "create" && mode != "saved" && mode != "matrices" && mode != "streaming")
    Fail("--mode is cheap, draws, roundtrip, geterror, upload, create, saved, matrices or streaming");
  HeadlessEgl egl("trace_workload", 2, 256, 256);
  egl.MakeCurrentContext();
  EGLDisplay display = egl.display;
  EGLSurface surface = egl.surface;

  GLuint program = Program(kOffsetShader);
  glUseProgram(program);
  GLint color = glGetUniformLocation(program, "color"), offset = glGetUniformLocation(program, "offset");
  GLuint buffers[4];
  glGenBuffers(4, buffers);
  const GLfloat triangle[] = {-1, -1, 1, -1, 0, 1};
  for (GLuint b : buffers) {
    glBindBuffer(GL_ARRAY_BUFFER, b);
    glBufferData(GL_ARRAY_BUFFER, sizeof triangle, triangle, GL_STATIC_DRAW);
  }
  glEnableVertexAttribArray(0);
  // --mode upload: one texture, new contents each frame.
  constexpr int kUploadSize = 1024;
  std::vector<uint32_t> texels;
  GLuint texture = 0;
  if (mode == "upload") {
    texels.resize(kUploadSize * kUploadSize);
    glGenTextures(1, &texture);
    glBindTexture(GL_TEXTURE_2D, texture);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, kUploadSize, kUploadSize, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  }
  // --mode matrices: its own program; --mode streaming: a buffer rewritten a strip at a time.
  GLuint matrix_program = 0;
  GLint model = -1, matrix_color = -1;
  if (mode == "matrices") {
    matrix_program = Program(kMatrixShader);
    model = glGetUniformLocation(matrix_program, "model");
    matrix_color = glGetUniformLocation(matrix_program, "color");
  }
  constexpr int kStripVertices = 16;
  GLuint stream_buffer = 0;
  if (mode == "streaming") {
    glGenBuffers(1, &stream_buffer);
    glBindBuffer(GL_ARRAY_BUFFER, stream_buffer);
    glBufferData(GL_ARRAY_BUFFER, kStripVertices * 2 * sizeof(GLfloat), nullptr, GL_STREAM_DRAW);
  }
  auto start = std::chrono::steady_clock::now();
  for (int frame = 0; frame < frames; ++frame) {
    glClear(GL_COLOR_BUFFER_BIT);
    if (mode == "cheap") {
      for (int i = 0; i < 5000; ++i) {
        glUniform4f(color, (i & 255) / 255.0f, 0.5f, 0.25f, 1.0f);
        if (i & 1) glEnable(GL_BLEND); else glDisable(GL_BLEND);
        glBindBuffer(GL_ARRAY_BUFFER, buffers[i & 3]);
      }
      glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
      glDrawArrays(GL_TRIANGLES, 0, 3);
    } else if (mode == "roundtrip") {
      uint8_t pixel[4] = {};
      unsigned sum = 0;
      for (int i = 0; i < 1000; ++i) {
        glReadPixels(i & 255, (i >> 8) & 255, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, pixel);
        sum += pixel[0];
      }
      if (sum == 12345678) std::puts("");  // keeps the reads
      glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
      glDrawArrays(GL_TRIANGLES, 0, 3);
    } else if (mode == "geterror") {
      GLenum errors = GL_NO_ERROR;
      // Each after a call that goes out: a glGetError with nothing sent since
      // the last one is answered on a remote client without asking.
      for (int i = 0; i < 1000; ++i) {
        glVertexAttrib1f(1, static_cast<float>(i));
        errors |= glGetError();
      }
      if (errors != GL_NO_ERROR) Fail("a GL error");
      glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
      glDrawArrays(GL_TRIANGLES, 0, 3);
    } else if (mode == "create") {
      for (int i = 0; i < 500; ++i) {
        GLuint texture = 0;
        glGenTextures(1, &texture);
        glBindTexture(GL_TEXTURE_2D, texture);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glDeleteTextures(1, &texture);
      }
      glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
      glDrawArrays(GL_TRIANGLES, 0, 3);
    } else if (mode == "saved") {
      // Middleware drawing into an app's frame: the app's state saved,
      // the middleware's own set, a draw, the app's state put back.
      for (int i = 0; i < 100; ++i) {
        GLint saved_program = 0, saved_buffer = 0, saved_unit = 0, saved_texture = 0, viewport[4] = {};
        GLint source = 0, destination = 0;
        glGetIntegerv(GL_CURRENT_PROGRAM, &saved_program);
        glGetIntegerv(GL_ARRAY_BUFFER_BINDING, &saved_buffer);
        glGetIntegerv(GL_ACTIVE_TEXTURE, &saved_unit);
        glGetIntegerv(GL_TEXTURE_BINDING_2D, &saved_texture);
        glGetIntegerv(GL_VIEWPORT, viewport);
        glGetIntegerv(GL_BLEND_SRC_RGB, &source);
        glGetIntegerv(GL_BLEND_DST_RGB, &destination);
        const GLboolean blend = glIsEnabled(GL_BLEND), scissor = glIsEnabled(GL_SCISSOR_TEST);
        const GLboolean depth = glIsEnabled(GL_DEPTH_TEST);
        glUseProgram(program);
        glBindBuffer(GL_ARRAY_BUFFER, buffers[i & 3]);
        glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
        glEnable(GL_BLEND);
        glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
        glDisable(GL_SCISSOR_TEST);
        glDisable(GL_DEPTH_TEST);
        glUniform4f(color, (i & 255) / 255.0f, 0.5f, 0.25f, 0.5f);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glUseProgram(static_cast<GLuint>(saved_program));
        glBindBuffer(GL_ARRAY_BUFFER, static_cast<GLuint>(saved_buffer));
        glActiveTexture(static_cast<GLenum>(saved_unit));
        glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(saved_texture));
        glViewport(viewport[0], viewport[1], viewport[2], viewport[3]);
        glBlendFunc(static_cast<GLenum>(source), static_cast<GLenum>(destination));
        if (blend) glEnable(GL_BLEND); else glDisable(GL_BLEND);
        if (scissor) glEnable(GL_SCISSOR_TEST); else glDisable(GL_SCISSOR_TEST);
        if (depth) glEnable(GL_DEPTH_TEST); else glDisable(GL_DEPTH_TEST);
      }
    } else if (mode == "matrices") {
      glUseProgram(matrix_program);
      glBindBuffer(GL_ARRAY_BUFFER, buffers[frame & 3]);
      glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
      for (int i = 0; i < 500; ++i) {
        const GLfloat angle = 0.01f * static_cast<GLfloat>(i + frame);
        const GLfloat c = std::cos(angle), s = std::sin(angle);
        const GLfloat matrix[16] = {c, s, 0, 0, -s, c, 0, 0, 0, 0, 1, 0,
                                    ((i * 37) % 200) / 100.0f - 1.0f, ((i * 91) % 200) / 100.0f - 1.0f, 0, 1};
        const GLfloat rgba[4] = {(i & 255) / 255.0f, 0.5f, 0.25f, 1.0f};
        glUniformMatrix4fv(model, 1, GL_FALSE, matrix);
        glUniform4fv(matrix_color, 1, rgba);
        glDrawArrays(GL_TRIANGLES, 0, 3);
      }
      glUseProgram(program);
    } else if (mode == "streaming") {
      glBindBuffer(GL_ARRAY_BUFFER, stream_buffer);
      glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
      GLfloat strip[kStripVertices * 2];
      for (int i = 0; i < 200; ++i) {
        for (int v = 0; v < kStripVertices; ++v) {
          // Small quads over the surface, as glyphs or widgets are (the shader scales by 0.05).
          strip[2 * v] = static_cast<GLfloat>((i * 7 + frame) % 36 - 18) + 0.25f * static_cast<GLfloat>(v >> 1);
          strip[2 * v + 1] = static_cast<GLfloat>((i * 13) % 36 - 18) + static_cast<GLfloat>(v & 1);
        }
        // Orphaned first, as streaming renderers do: the draw before may still be reading it.
        glBufferData(GL_ARRAY_BUFFER, sizeof strip, nullptr, GL_STREAM_DRAW);
        glBufferSubData(GL_ARRAY_BUFFER, 0, sizeof strip, strip);
        glUniform4f(color, (i & 255) / 255.0f, 0.5f, 0.25f, 1.0f);
        glDrawArrays(GL_TRIANGLE_STRIP, 0, kStripVertices);
      }
    } else if (mode == "upload") {
      for (size_t i = 0; i < texels.size(); i += 64) texels[i] = static_cast<uint32_t>(frame * 2654435761u + i);
      glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, kUploadSize, kUploadSize, GL_RGBA, GL_UNSIGNED_BYTE, texels.data());
      glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
      glDrawArrays(GL_TRIANGLES, 0, 3);
    } else {
      glBindBuffer(GL_ARRAY_BUFFER, buffers[0]);
      glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
      for (int i = 0; i < draws; ++i) {
        glUniform4f(offset, ((i * 37) % 200) / 100.0f - 1.0f, ((i * 91) % 200) / 100.0f - 1.0f, 0.0f, 0.0f);
        glUniform4f(color, (i & 255) / 255.0f, 0.5f, 0.25f, 1.0f);
        glDrawArrays(GL_TRIANGLES, 0, 3);
      }
    }
    eglSwapBuffers(display, surface);
  }
  glFinish();
  const auto end = std::chrono::steady_clock::now();
  const double seconds = std::chrono::duration<double>(end - start).count();
  const auto since_boot = [](std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(t.time_since_epoch()).count();
  };
  std::printf("trace_workload: %s, %d frames in %.3f s (monotonic %.6f to %.6f)\n", mode.c_str(), frames, seconds,
              since_boot(start), since_boot(end));
  if (!output.empty()) {
    constexpr int kSize = 256;
    std::vector<uint8_t> rgba(kSize * kSize * 4);
    glReadPixels(0, 0, kSize, kSize, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
    FILE* file = std::fopen(output.c_str(), "wb");
    if (file == nullptr) Fail("cannot write --output");
    std::fprintf(file, "P6\n%d %d\n255\n", kSize, kSize);
    for (size_t i = 0; i < rgba.size(); i += 4) std::fwrite(&rgba[i], 1, 3, file);
    if (std::fclose(file) != 0) Fail("cannot write --output");
  }
  egl.Close();
  return 0;
}
