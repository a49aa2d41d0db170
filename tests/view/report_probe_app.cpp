// A small GLES 3 program (headless, surfaceless pbuffer) that does, on
// purpose, what `strata view` must find in a trace: a GL error and an EGL
// error after known calls, shaders with known sources (one carrying markup
// that must stay text in the page), an upload of a known size, a
// mapped-buffer write, and frames of one flat, known colour.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

[[noreturn]] void Fail(const char* what) {
  std::fprintf(stderr, "report_probe_app: error: %s\n", what);
  std::exit(1);
}

// The markup in the comment must show as text in the report, never as HTML.
const char* const kVertexShader = R"(#version 300 es
// strata-view-probe vertex shader </script><b class="injected">not markup</b>
in vec2 position;
void main() { gl_Position = vec4(position, 0.0, 1.0); }
)";

const char* const kFragmentShader = R"(#version 300 es
precision mediump float;
// strata-view-probe fragment shader
out vec4 colour;
void main() { colour = vec4(1.0, 0.5, 0.0, 1.0); }
)";

GLuint Compile(GLenum type, const char* source) {
  GLuint shader = glCreateShader(type);
  glShaderSource(shader, 1, &source, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) Fail("shader compile failed");
  return shader;
}

}  // namespace

int main(int argc, char** argv) {
  int frames = 3;
  if (argc == 3 && !std::strcmp(argv[1], "--frames")) frames = std::atoi(argv[2]);
  EGLDisplay display = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  if (!eglInitialize(display, nullptr, nullptr)) Fail("eglInitialize");
  const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
                                   EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE};
  EGLConfig config;
  EGLint count = 0;
  if (!eglChooseConfig(display, config_attribs, &config, 1, &count) || count < 1) Fail("eglChooseConfig");
  const EGLint context_attribs[] = {EGL_CONTEXT_CLIENT_VERSION, 3, EGL_NONE};
  EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attribs);
  const EGLint surface_attribs[] = {EGL_WIDTH, 64, EGL_HEIGHT, 48, EGL_NONE};
  EGLSurface surface = eglCreatePbufferSurface(display, config, surface_attribs);
  if (!eglMakeCurrent(display, surface, surface, context)) Fail("eglMakeCurrent");

  // An EGL error: querying no surface gives EGL_BAD_SURFACE.
  EGLint unused = 0;
  eglQuerySurface(display, EGL_NO_SURFACE, EGL_WIDTH, &unused);
  if (eglGetError() != EGL_BAD_SURFACE) Fail("expected EGL_BAD_SURFACE");

  GLuint program = glCreateProgram();
  glAttachShader(program, Compile(GL_VERTEX_SHADER, kVertexShader));
  glAttachShader(program, Compile(GL_FRAGMENT_SHADER, kFragmentShader));
  glBindAttribLocation(program, 0, "position");
  glLinkProgram(program);
  GLint linked = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &linked);
  if (!linked) Fail("link failed");

  // An upload of a known size: 12345 bytes.
  std::vector<unsigned char> filler(12345, 7);
  GLuint buffers[2];
  glGenBuffers(2, buffers);
  glBindBuffer(GL_COPY_WRITE_BUFFER, buffers[1]);
  glBufferData(GL_COPY_WRITE_BUFFER, static_cast<GLsizeiptr>(filler.size()), filler.data(), GL_STATIC_DRAW);

  // The triangle's vertices arrive through a mapped buffer: 6 floats, 24 bytes.
  glBindBuffer(GL_ARRAY_BUFFER, buffers[0]);
  glBufferData(GL_ARRAY_BUFFER, 24, nullptr, GL_STATIC_DRAW);
  void* mapped = glMapBufferRange(GL_ARRAY_BUFFER, 0, 24, GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT);
  if (!mapped) Fail("glMapBufferRange");
  const GLfloat triangle[] = {-1, -1, 3, -1, -1, 3};  // covers the whole surface
  std::memcpy(mapped, triangle, sizeof triangle);
  glUnmapBuffer(GL_ARRAY_BUFFER);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(0);

  // A GL error: no such capability gives GL_INVALID_ENUM.
  glEnable(0xBAD);
  if (glGetError() != GL_INVALID_ENUM) Fail("expected GL_INVALID_ENUM");

  glUseProgram(program);
  for (int frame = 0; frame < frames; ++frame) {
    glClearColor(0.0f, 0.0f, 1.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glDrawArrays(GL_TRIANGLES, 0, 3);  // the whole surface orange (255, 128, 0)
    eglSwapBuffers(display, surface);
  }
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglTerminate(display);
  std::printf("report_probe_app: %d frames\n", frames);
  return 0;
}
