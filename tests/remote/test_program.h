#pragma once
// What the remote test programs share: a GLES 3 context on a surfaceless
// pbuffer, the fingerprint of what they drew and a shader compiled or nothing.

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>

#include <cstdint>
#include <vector>

// FNV-1a over the RGBA pixels of the current framebuffer's lower-left size x size square.
inline uint32_t FrameChecksum(int size) {
  std::vector<uint8_t> pixels(static_cast<size_t>(size) * size * 4);
  glReadPixels(0, 0, size, size, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  uint32_t hash = 2166136261u;
  for (uint8_t byte : pixels) hash = (hash ^ byte) * 16777619u;
  return hash;
}

// A compiled shader of `type`, or 0 when it does not compile.
inline GLuint CompiledShader(GLenum type, const char* source) {
  GLuint shader = glCreateShader(type);
  glShaderSource(shader, 1, &source, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  return ok ? shader : 0;
}

// A program linked from two compiled shaders, or 0 when it does not link.
inline GLuint LinkedProgram(GLuint vertex_shader, GLuint fragment_shader) {
  GLuint program = glCreateProgram();
  glAttachShader(program, vertex_shader);
  glAttachShader(program, fragment_shader);
  glLinkProgram(program);
  GLint ok = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  return ok ? program : 0;
}

// The clip square's four corners as a triangle strip, in a buffer bound to
// GL_ARRAY_BUFFER, read by vertex attribute `attribute`.
inline void FullScreenQuadAt(GLuint attribute) {
  const GLfloat quad[] = {-1, -1, 1, -1, -1, 1, 1, 1};
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
  glVertexAttribPointer(attribute, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(attribute);
}

struct PbufferContext {
  EGLDisplay display = EGL_NO_DISPLAY;
  EGLConfig config = nullptr;
  EGLContext context = EGL_NO_CONTEXT;
  EGLSurface surface = EGL_NO_SURFACE;
  const char* failed = nullptr;  // the EGL call that failed, if one did
};

// A GLES 3.`minor` context current on a size x size RGBA8 pbuffer of Mesa's surfaceless platform.
inline PbufferContext MakePbufferCurrent(int size, int minor) {
  PbufferContext c;
  c.display = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  if (!eglInitialize(c.display, nullptr, nullptr)) return c.failed = "eglInitialize", c;
  const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
                                   EGL_RED_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_NONE};
  EGLint count = 0;
  if (!eglChooseConfig(c.display, config_attribs, &c.config, 1, &count) || count < 1) {
    return c.failed = "eglChooseConfig", c;
  }
  const EGLint context_attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, minor, EGL_NONE};
  c.context = eglCreateContext(c.display, c.config, EGL_NO_CONTEXT, context_attribs);
  if (c.context == EGL_NO_CONTEXT) return c.failed = "eglCreateContext", c;
  const EGLint surface_attribs[] = {EGL_WIDTH, size, EGL_HEIGHT, size, EGL_NONE};
  c.surface = eglCreatePbufferSurface(c.display, c.config, surface_attribs);
  if (!eglMakeCurrent(c.display, c.surface, c.surface, c.context)) return c.failed = "eglMakeCurrent", c;
  return c;
}
