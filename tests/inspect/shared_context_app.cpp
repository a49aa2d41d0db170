// A GLES 2 program with two contexts of one share group on one thread, for
// trims of multi-context traces. A loader context makes a texture, a
// program and a vertex buffer, and every frame changes one texel; the
// drawing context, set up once (program, vertex array pointing into the
// buffer, blending), draws a textured quad with them. Between frames only
// the drawing context is current: the loader's is current nowhere.
//   shared_context_app [--frames N]
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

constexpr int kWidth = 64, kHeight = 48;

const char* kVertexShader = R"(
attribute vec2 position;
varying vec2 coordinate;
void main() {
  coordinate = position * 0.5 + 0.5;
  gl_Position = vec4(position * 0.8, 0.0, 1.0);
})";

const char* kFragmentShader = R"(
precision mediump float;
uniform sampler2D image;
uniform vec4 tint;
varying vec2 coordinate;
void main() { gl_FragColor = texture2D(image, coordinate) * tint; })";

GLuint Compile(GLenum stage, const char* source) {
  GLuint shader = glCreateShader(stage);
  glShaderSource(shader, 1, &source, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) std::fprintf(stderr, "shared_context_app: a shader did not compile\n"), std::exit(1);
  return shader;
}

}  // namespace

int main(int argc, char** argv) {
  int frames = 10;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--frames") == 0 && i + 1 < argc) {
      frames = std::atoi(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: shared_context_app [--frames N]\n");
      return 2;
    }
  }
  EGLDisplay display = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  if (!eglInitialize(display, nullptr, nullptr)) return std::puts("shared_context_app: eglInitialize failed"), 1;
  const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
                                   EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE};
  EGLConfig config;
  EGLint count = 0;
  if (!eglChooseConfig(display, config_attribs, &config, 1, &count) || count < 1) return 1;
  const EGLint context_attribs[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
  EGLContext loader = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attribs);
  EGLContext drawer = eglCreateContext(display, config, loader, context_attribs);
  const EGLint small[] = {EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE};
  const EGLint large[] = {EGL_WIDTH, kWidth, EGL_HEIGHT, kHeight, EGL_NONE};
  EGLSurface loader_surface = eglCreatePbufferSurface(display, config, small);
  EGLSurface surface = eglCreatePbufferSurface(display, config, large);
  if (loader == EGL_NO_CONTEXT || drawer == EGL_NO_CONTEXT || surface == EGL_NO_SURFACE) return 1;

  // The loader makes every shared object.
  eglMakeCurrent(display, loader_surface, loader_surface, loader);
  GLuint texture = 0, buffer = 0;
  glGenTextures(1, &texture);
  glBindTexture(GL_TEXTURE_2D, texture);
  const unsigned char texels[4 * 4] = {255, 64, 64, 255, 64, 255, 64, 255, 64, 64, 255, 255, 255, 255, 64, 255};
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 2, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  const GLfloat corners[] = {-1, -1, 1, -1, -1, 1, 1, 1};
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  glBufferData(GL_ARRAY_BUFFER, sizeof corners, corners, GL_STATIC_DRAW);
  GLuint program = glCreateProgram();
  glAttachShader(program, Compile(GL_VERTEX_SHADER, kVertexShader));
  glAttachShader(program, Compile(GL_FRAGMENT_SHADER, kFragmentShader));
  glBindAttribLocation(program, 0, "position");
  glLinkProgram(program);
  glUseProgram(program);
  glUniform1i(glGetUniformLocation(program, "image"), 0);
  glUniform4f(glGetUniformLocation(program, "tint"), 1.0f, 0.75f, 1.0f, 1.0f);  // program state: shared
  glFinish();

  // The drawer's own state, set once: what a trim must carry for it.
  eglMakeCurrent(display, surface, surface, drawer);
  glViewport(0, 0, kWidth, kHeight);
  glUseProgram(program);
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(0);
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);

  for (int frame = 0; frame < frames; ++frame) {
    // One texel changes a frame; the others keep what earlier frames left.
    eglMakeCurrent(display, loader_surface, loader_surface, loader);
    glBindTexture(GL_TEXTURE_2D, texture);
    const unsigned char texel[4] = {static_cast<unsigned char>(40 * frame), 128, static_cast<unsigned char>(255 - 20 * frame), 200};
    glTexSubImage2D(GL_TEXTURE_2D, 0, frame % 2, (frame / 2) % 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, texel);
    glFinish();

    eglMakeCurrent(display, surface, surface, drawer);
    glBindTexture(GL_TEXTURE_2D, texture);  // binding again sees the loader's change
    glClearColor(0.1f, 0.02f * frame, 0.3f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    eglSwapBuffers(display, surface);
  }
  GLenum error = glGetError();
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroyContext(display, drawer);
  eglDestroyContext(display, loader);
  eglTerminate(display);
  if (error != GL_NO_ERROR) return std::printf("shared_context_app: GL error 0x%04x\n", error), 1;
  std::printf("shared_context_app: %d frames\n", frames);
  return 0;
}
