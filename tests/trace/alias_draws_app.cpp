// A GLES app that draws from client-memory vertex arrays through every
// extension alias of a draw that the driver offers (instanced, base-instance,
// base-vertex and multi-draw entry points: glDrawArraysInstancedEXT,
// glDrawElementsBaseVertexOES, glMultiDrawArraysEXT, ...), in a GLES 2 or a
// GLES 3 context (--gles 2|3). Each alias draws its own coloured quads into
// its own cell of the frame, with client-side indices; with
// --element-buffer (GLES 3) each indexed alias draws a second time with its
// indices in an element buffer. In GLES 3 an instanced attribute (divisor
// 1) comes from client memory too. It prints the aliases it found ("alias
// NAME"), then per frame a checksum of the pixels ("frame N XXXXXXXX"), and
// swaps.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>
#include <GLES2/gl2ext.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr int kSize = 96;   // the surface, square
constexpr int kCells = 6;   // cells a row and a column
constexpr float kCell = 2.0f / kCells;

// The draws of every alias, by the extension that offers it.
struct Aliases {
  PFNGLDRAWARRAYSINSTANCEDEXTPROC arrays_instanced = nullptr;                         // GL_EXT_draw_instanced
  PFNGLDRAWELEMENTSINSTANCEDEXTPROC elements_instanced = nullptr;
  PFNGLDRAWARRAYSINSTANCEDBASEINSTANCEEXTPROC arrays_base_instance = nullptr;         // GL_EXT_base_instance
  PFNGLDRAWELEMENTSINSTANCEDBASEINSTANCEEXTPROC elements_base_instance = nullptr;
  PFNGLDRAWELEMENTSINSTANCEDBASEVERTEXBASEINSTANCEEXTPROC elements_base_vertex_base_instance = nullptr;
  PFNGLDRAWELEMENTSBASEVERTEXEXTPROC elements_base_vertex_ext = nullptr;              // GL_EXT_draw_elements_base_vertex
  PFNGLDRAWRANGEELEMENTSBASEVERTEXEXTPROC range_base_vertex_ext = nullptr;
  PFNGLDRAWELEMENTSINSTANCEDBASEVERTEXEXTPROC instanced_base_vertex_ext = nullptr;
  PFNGLDRAWELEMENTSBASEVERTEXOESPROC elements_base_vertex_oes = nullptr;              // GL_OES_draw_elements_base_vertex
  PFNGLDRAWRANGEELEMENTSBASEVERTEXOESPROC range_base_vertex_oes = nullptr;
  PFNGLDRAWELEMENTSINSTANCEDBASEVERTEXOESPROC instanced_base_vertex_oes = nullptr;
  PFNGLMULTIDRAWARRAYSEXTPROC multi_arrays = nullptr;                                 // GL_EXT_multi_draw_arrays
  PFNGLMULTIDRAWELEMENTSEXTPROC multi_elements = nullptr;
  PFNGLMULTIDRAWELEMENTSBASEVERTEXEXTPROC multi_elements_base_vertex = nullptr;       // with base vertex
};

bool HasExtension(const char* name) {
  const char* list = reinterpret_cast<const char*>(glGetString(GL_EXTENSIONS));
  const size_t n = std::strlen(name);
  for (const char* p = list; p != nullptr && (p = std::strstr(p, name)) != nullptr; p += n) {
    if ((p == list || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' ')) return true;
  }
  return false;
}

// The entry point of `name` when `extension` is offered, named in the output.
template <typename F>
void Find(F* function, const char* extension, const char* name) {
  if (!HasExtension(extension)) return;
  *function = reinterpret_cast<F>(eglGetProcAddress(name));
  if (*function != nullptr) std::printf("alias %s\n", name);
}

Aliases FindAliases() {
  Aliases a;
  Find(&a.arrays_instanced, "GL_EXT_draw_instanced", "glDrawArraysInstancedEXT");
  Find(&a.elements_instanced, "GL_EXT_draw_instanced", "glDrawElementsInstancedEXT");
  Find(&a.arrays_base_instance, "GL_EXT_base_instance", "glDrawArraysInstancedBaseInstanceEXT");
  Find(&a.elements_base_instance, "GL_EXT_base_instance", "glDrawElementsInstancedBaseInstanceEXT");
  Find(&a.elements_base_vertex_base_instance, "GL_EXT_base_instance",
       "glDrawElementsInstancedBaseVertexBaseInstanceEXT");
  Find(&a.elements_base_vertex_ext, "GL_EXT_draw_elements_base_vertex", "glDrawElementsBaseVertexEXT");
  Find(&a.range_base_vertex_ext, "GL_EXT_draw_elements_base_vertex", "glDrawRangeElementsBaseVertexEXT");
  Find(&a.instanced_base_vertex_ext, "GL_EXT_draw_elements_base_vertex", "glDrawElementsInstancedBaseVertexEXT");
  Find(&a.elements_base_vertex_oes, "GL_OES_draw_elements_base_vertex", "glDrawElementsBaseVertexOES");
  Find(&a.range_base_vertex_oes, "GL_OES_draw_elements_base_vertex", "glDrawRangeElementsBaseVertexOES");
  Find(&a.instanced_base_vertex_oes, "GL_OES_draw_elements_base_vertex", "glDrawElementsInstancedBaseVertexOES");
  Find(&a.multi_arrays, "GL_EXT_multi_draw_arrays", "glMultiDrawArraysEXT");
  Find(&a.multi_elements, "GL_EXT_multi_draw_arrays", "glMultiDrawElementsEXT");
  if (HasExtension("GL_EXT_multi_draw_arrays")) {
    Find(&a.multi_elements_base_vertex, "GL_EXT_draw_elements_base_vertex", "glMultiDrawElementsBaseVertexEXT");
  }
  return a;
}

// GLES 2 (ESSL 1.00: instances by gl_InstanceIDEXT) and GLES 3 (ESSL 3.00:
// an instanced attribute as well): a quad per instance, moved right by it.
const char* kVertex2 = R"(#extension GL_EXT_draw_instanced : require
attribute vec2 position;
attribute vec3 colour;
uniform vec2 cell;
varying vec3 v_colour;
void main() {
  v_colour = colour;
  gl_Position = vec4(position + cell + vec2(float(gl_InstanceIDEXT) * 0.1, 0.0), 0.0, 1.0);
})";
const char* kFragment2 = R"(precision mediump float;
varying vec3 v_colour;
void main() { gl_FragColor = vec4(v_colour, 1.0); })";
const char* kVertex3 = R"(#version 300 es
in vec2 position;
in vec3 colour;
in float shade;  // per instance
uniform vec2 cell;
out vec3 v_colour;
void main() {
  v_colour = colour * shade;
  gl_Position = vec4(position + cell + vec2(float(gl_InstanceID) * 0.1, 0.0), 0.0, 1.0);
})";
const char* kFragment3 = R"(#version 300 es
precision mediump float;
in vec3 v_colour;
out vec4 fragment;
void main() { fragment = vec4(v_colour, 1.0); })";

GLuint Program(const char* vertex, const char* fragment) {
  GLuint program = glCreateProgram();
  for (auto [type, source] : {std::pair{GL_VERTEX_SHADER, vertex}, std::pair{GL_FRAGMENT_SHADER, fragment}}) {
    GLuint shader = glCreateShader(type);
    glShaderSource(shader, 1, &source, nullptr);
    glCompileShader(shader);
    GLint ok = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
      char log[1024] = {};
      glGetShaderInfoLog(shader, sizeof log, nullptr, log);
      std::printf("alias_draws_app: shader: %s\n", log);
      std::exit(1);
    }
    glAttachShader(program, shader);
  }
  glBindAttribLocation(program, 0, "position");
  glBindAttribLocation(program, 1, "colour");
  glBindAttribLocation(program, 2, "shade");
  glLinkProgram(program);
  GLint ok = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (!ok) std::puts("alias_draws_app: the program does not link"), std::exit(1);
  return program;
}

// 16 vertices in client memory: four small quads (a vertex each corner),
// the later ones for base-vertex draws; their colours; per-instance shades.
struct Vertices {
  float positions[16][2];
  float colours[16][3];
  float shades[4] = {1.0f, 0.75f, 0.5f, 0.25f};
};

Vertices MakeVertices() {
  Vertices v{};
  const float s = kCell * 0.35f;
  for (int quad = 0; quad < 4; ++quad) {
    const float corners[4][2] = {{0, 0}, {s, 0}, {0, s}, {s, s}};
    for (int c = 0; c < 4; ++c) {
      v.positions[quad * 4 + c][0] = corners[c][0] + (quad % 2) * s * 0.2f;
      v.positions[quad * 4 + c][1] = corners[c][1] + (quad / 2) * s * 0.2f;
      v.colours[quad * 4 + c][0] = (quad & 1) ? 1.0f : 0.3f;
      v.colours[quad * 4 + c][1] = (quad & 2) ? 1.0f : 0.4f;
      v.colours[quad * 4 + c][2] = c == 3 ? 1.0f : 0.2f;
    }
  }
  return v;
}

uint32_t Checksum() {
  std::vector<uint8_t> pixels(kSize * kSize * 4);
  glReadPixels(0, 0, kSize, kSize, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  uint32_t hash = 2166136261u;
  for (uint8_t byte : pixels) hash = (hash ^ byte) * 16777619u;
  return hash;
}

}  // namespace

int main(int argc, char** argv) {
  int version = 3, frames = 4;
  bool element_buffer = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--element-buffer") == 0) element_buffer = true;
    if (i + 1 < argc && std::strcmp(argv[i], "--gles") == 0) version = std::atoi(argv[++i]);
    if (i + 1 < argc && std::strcmp(argv[i], "--frames") == 0) frames = std::atoi(argv[++i]);
  }
  if ((version != 2 && version != 3) || (element_buffer && version != 3)) {
    return std::puts("usage: alias_draws_app [--gles 2|3] [--frames N] [--element-buffer (GLES 3)]"), 2;
  }
  EGLDisplay display = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  if (!eglInitialize(display, nullptr, nullptr)) return std::puts("alias_draws_app: eglInitialize failed"), 1;
  const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
                                   EGL_RED_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint config_count = 0;
  if (!eglChooseConfig(display, config_attribs, &config, 1, &config_count) || config_count < 1) return 1;
  const EGLint context_attribs[] = {EGL_CONTEXT_CLIENT_VERSION, version, EGL_NONE};
  EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attribs);
  const EGLint surface_attribs[] = {EGL_WIDTH, kSize, EGL_HEIGHT, kSize, EGL_NONE};
  EGLSurface surface = eglCreatePbufferSurface(display, config, surface_attribs);
  if (!eglMakeCurrent(display, surface, surface, context)) return std::puts("alias_draws_app: no context"), 1;

  const Aliases a = FindAliases();
  const GLuint program = version == 3 ? Program(kVertex3, kFragment3) : Program(kVertex2, kFragment2);
  glUseProgram(program);
  const GLint cell = glGetUniformLocation(program, "cell");
  const Vertices vertices = MakeVertices();
  // Every array in client memory: nothing bound to GL_ARRAY_BUFFER.
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, vertices.positions);
  glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 0, vertices.colours);
  glEnableVertexAttribArray(0);
  glEnableVertexAttribArray(1);
  if (version == 3) {
    glVertexAttribPointer(2, 1, GL_FLOAT, GL_FALSE, 0, vertices.shades);
    glVertexAttribDivisor(2, 1);
    glEnableVertexAttribArray(2);
  }
  // A quad of two triangles per four vertices, from vertex 0 (base vertices move it).
  const GLushort quad[6] = {0, 1, 2, 2, 1, 3};
  const GLubyte quad_bytes[6] = {0, 1, 2, 2, 1, 3};
  const GLuint quad_ints[6] = {0, 1, 2, 2, 1, 3};
  GLuint buffer = 0;
  if (element_buffer) {
    glGenBuffers(1, &buffer);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, buffer);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);
  }

  for (int frame = 0; frame < frames; ++frame) {
    glClearColor(0.1f * frame, 0.0f, 0.2f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    int next_cell = 0;
    auto at_next_cell = [&] {
      const int c = next_cell++;
      glUniform2f(cell, -1.0f + (c % kCells) * kCell + 0.02f * frame, -1.0f + (c / kCells) * kCell);
    };
    // Indexed draws with indices in client memory, then in the element buffer (offset 0).
    for (int pass = 0; pass < (element_buffer ? 2 : 1); ++pass) {
      const bool buffered = pass == 1;
      glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, buffered ? buffer : 0);
      const void* indices = buffered ? nullptr : quad;
      if (!buffered) {
        if (a.arrays_instanced) at_next_cell(), a.arrays_instanced(GL_TRIANGLE_STRIP, 4, 4, 2);
        if (a.arrays_base_instance) at_next_cell(), a.arrays_base_instance(GL_TRIANGLE_STRIP, 8, 4, 2, 1);
        if (a.multi_arrays) {
          const GLint firsts[3] = {0, 4, 12};
          const GLsizei counts[3] = {4, 4, 4};
          at_next_cell(), a.multi_arrays(GL_TRIANGLE_STRIP, firsts, counts, 3);
        }
      }
      if (a.elements_instanced) at_next_cell(), a.elements_instanced(GL_TRIANGLES, 6, GL_UNSIGNED_SHORT, indices, 3);
      if (a.elements_base_instance) {
        at_next_cell(), a.elements_base_instance(GL_TRIANGLES, 6, GL_UNSIGNED_SHORT, indices, 2, 2);
      }
      if (a.elements_base_vertex_base_instance) {
        at_next_cell(), a.elements_base_vertex_base_instance(GL_TRIANGLES, 6, GL_UNSIGNED_SHORT, indices, 2, 4, 1);
      }
      if (a.elements_base_vertex_ext) at_next_cell(), a.elements_base_vertex_ext(GL_TRIANGLES, 6, GL_UNSIGNED_SHORT, indices, 8);
      if (a.elements_base_vertex_oes) at_next_cell(), a.elements_base_vertex_oes(GL_TRIANGLES, 6, GL_UNSIGNED_SHORT, indices, 12);
      if (a.range_base_vertex_ext) {
        at_next_cell(), a.range_base_vertex_ext(GL_TRIANGLES, 0, 3, 6, GL_UNSIGNED_SHORT, indices, 4);
      }
      if (a.range_base_vertex_oes) {
        at_next_cell(), a.range_base_vertex_oes(GL_TRIANGLES, 0, 3, 6, GL_UNSIGNED_SHORT, indices, 8);
      }
      if (a.instanced_base_vertex_ext) {
        at_next_cell(), a.instanced_base_vertex_ext(GL_TRIANGLES, 6, GL_UNSIGNED_SHORT, indices, 2, 12);
      }
      if (a.instanced_base_vertex_oes) {
        at_next_cell(), a.instanced_base_vertex_oes(GL_TRIANGLES, 6, GL_UNSIGNED_SHORT, indices, 3, 4);
      }
      // Multi-draws of indices: per draw an index array (client memory, of
      // three types across the draws' calls), or offsets into the buffer.
      const GLsizei counts[2] = {6, 3};
      const void* client_indices[2] = {quad, quad + 3};
      const void* offsets[2] = {nullptr, reinterpret_cast<const void*>(3 * sizeof(GLushort))};
      const void* const* arrays = buffered ? offsets : client_indices;
      if (a.multi_elements) {
        at_next_cell(), a.multi_elements(GL_TRIANGLES, counts, GL_UNSIGNED_SHORT, arrays, 2);
        if (!buffered) {
          const void* bytes[2] = {quad_bytes, quad_bytes + 3};
          at_next_cell(), a.multi_elements(GL_TRIANGLES, counts, GL_UNSIGNED_BYTE, bytes, 2);
        }
      }
      if (a.multi_elements_base_vertex) {
        const GLint bases[2] = {4, 12};
        at_next_cell(), a.multi_elements_base_vertex(GL_TRIANGLES, counts, GL_UNSIGNED_SHORT, arrays, 2, bases);
        if (!buffered) {
          const void* ints[2] = {quad_ints, quad_ints + 3};
          at_next_cell(), a.multi_elements_base_vertex(GL_TRIANGLES, counts, GL_UNSIGNED_INT, ints, 2, bases);
        }
      }
    }
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);
    const GLenum error = glGetError();
    if (error != GL_NO_ERROR) return std::printf("alias_draws_app: GL error 0x%04x in frame %d\n", error, frame), 1;
    std::printf("frame %d %08x\n", frame, Checksum());
    if (!eglSwapBuffers(display, surface)) return std::printf("alias_draws_app: swap %d failed\n", frame), 1;
  }
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglTerminate(display);
  return 0;
}
