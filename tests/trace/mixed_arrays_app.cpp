// A GLES 2 program whose draws read one vertex array from a buffer and one
// from client memory, with the buffer still bound to GL_ARRAY_BUFFER when it
// draws: positions at an offset in a vertex buffer, colours (a new colour
// each frame) from the program's memory. It prints each frame's centre
// pixel, read back before the swap:
//   frame F: R G B A
// Whoever runs its calls elsewhere (a replay, a renderer) must put the
// client array in place with no buffer bound and bind the app's buffer
// again, so it must know which buffer the app's glBindBuffer calls left
// bound, however those calls ran.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

constexpr int kSize = 32;

GLuint Shader(GLenum type, const char* source) {
  GLuint shader = glCreateShader(type);
  glShaderSource(shader, 1, &source, nullptr);
  glCompileShader(shader);
  return shader;
}

int Fail(const char* what) {
  std::printf("mixed_arrays_app: %s\n", what);
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  int frames = 3;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--frames") == 0 && i + 1 < argc) {
      frames = std::atoi(argv[++i]);
    } else {
      std::printf("usage: mixed_arrays_app [--frames N]\n");
      return std::strcmp(argv[i], "--help") == 0 ? 0 : 2;
    }
  }
  EGLDisplay display = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  if (!eglInitialize(display, nullptr, nullptr)) return Fail("eglInitialize failed");
  const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
                                   EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8,
                                   EGL_NONE};
  EGLConfig config;
  EGLint count = 0;
  if (!eglChooseConfig(display, config_attribs, &config, 1, &count) || count < 1) return Fail("no config");
  const EGLint surface_attribs[] = {EGL_WIDTH, kSize, EGL_HEIGHT, kSize, EGL_NONE};
  EGLSurface surface = eglCreatePbufferSurface(display, config, surface_attribs);
  const EGLint context_attribs[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
  EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attribs);
  if (!eglMakeCurrent(display, surface, surface, context)) return Fail("eglMakeCurrent failed");

  GLuint program = glCreateProgram();
  glAttachShader(program, Shader(GL_VERTEX_SHADER,
                                 "attribute vec2 position; attribute vec4 colour; varying vec4 v;\n"
                                 "void main() { v = colour; gl_Position = vec4(position, 0.0, 1.0); }\n"));
  glAttachShader(program, Shader(GL_FRAGMENT_SHADER,
                                 "precision mediump float; varying vec4 v; void main() { gl_FragColor = v; }\n"));
  glBindAttribLocation(program, 0, "position");
  glBindAttribLocation(program, 1, "colour");
  glLinkProgram(program);
  GLint linked = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &linked);
  if (!linked) return Fail("the program did not link");
  glUseProgram(program);

  // A full-screen quad's positions after 16 bytes of something else, so that
  // the array's pointer is an offset no client array could be mistaken for.
  const GLfloat positions[4 + 12] = {9, 9, 9, 9, -1, -1, 1, -1, -1, 1, -1, 1, 1, -1, 1, 1};
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  glBufferData(GL_ARRAY_BUFFER, sizeof(positions), positions, GL_STATIC_DRAW);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  glEnableVertexAttribArray(0);
  glEnableVertexAttribArray(1);

  GLubyte colours[6 * 4];
  for (int frame = 0; frame < frames; ++frame) {
    for (int v = 0; v < 6; ++v) {
      const GLubyte colour[4] = {static_cast<GLubyte>(40 * (frame + 1)), 200, static_cast<GLubyte>(250 - 30 * frame),
                                 255};
      std::memcpy(colours + 4 * v, colour, 4);
    }
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glBindBuffer(GL_ARRAY_BUFFER, buffer);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, reinterpret_cast<const void*>(4 * sizeof(GLfloat)));
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, 0, colours);  // a client-side array
    glBindBuffer(GL_ARRAY_BUFFER, buffer);  // left bound for the draw
    glDrawArrays(GL_TRIANGLES, 0, 6);
    GLubyte pixel[4] = {};
    glReadPixels(kSize / 2, kSize / 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, pixel);
    std::printf("frame %d: %d %d %d %d\n", frame, pixel[0], pixel[1], pixel[2], pixel[3]);
    eglSwapBuffers(display, surface);
  }
  const GLenum error = glGetError();
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroyContext(display, context);
  eglDestroySurface(display, surface);
  eglTerminate(display);
  if (error != GL_NO_ERROR) return std::printf("mixed_arrays_app: GL error 0x%04x\n", error), 1;
  return 0;
}
