// A GLES 3.1 app for the trace tests that draws into two multisampled
// framebuffer objects: one with a multisampled renderbuffer, one with a
// multisampled texture. Before each draw it leaves a GL error pending
// (GL_INVALID_ENUM) and sets state a capture touches (scissor test, bindings);
// after the draw it checks that its error and state are as it left them, then
// resolves the framebuffer itself and checks the colour. It prints
// "framebuffer N RRGGBBAA" per framebuffer, so the test can check the images
// captured after the draws. Exit status 0 when everything held.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl31.h>

#include <cstdio>
#include <initializer_list>
#include <utility>

namespace {

constexpr int kSize = 16;

GLuint Program() {
  const char* vertex =
      "#version 310 es\n"
      "void main() {\n"
      "  vec2 p = vec2(float((gl_VertexID & 1) * 4 - 1), float((gl_VertexID & 2) * 2 - 1));\n"
      "  gl_Position = vec4(p, 0.0, 1.0);\n"
      "}\n";
  const char* fragment =
      "#version 310 es\n"
      "precision mediump float;\n"
      "uniform vec4 colour;\n"
      "out vec4 result;\n"
      "void main() { result = colour; }\n";
  GLuint program = glCreateProgram();
  for (auto [type, source] : {std::pair{GL_VERTEX_SHADER, vertex}, std::pair{GL_FRAGMENT_SHADER, fragment}}) {
    GLuint shader = glCreateShader(type);
    glShaderSource(shader, 1, &source, nullptr);
    glCompileShader(shader);
    glAttachShader(program, shader);
  }
  glLinkProgram(program);
  GLint linked = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &linked);
  return linked ? program : 0;
}

GLint Integer(GLenum name) {
  GLint value = 0;
  glGetIntegerv(name, &value);
  return value;
}

// Draws `colour` into `framebuffer` and checks what the app must see afterwards.
bool DrawAndCheck(const char* kind, GLuint framebuffer, GLuint program, const unsigned char colour[4]) {
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
  glViewport(0, 0, kSize, kSize);
  glEnable(GL_SCISSOR_TEST);
  glScissor(0, 0, kSize, kSize);
  glUseProgram(program);
  glUniform4f(glGetUniformLocation(program, "colour"), colour[0] / 255.0f, colour[1] / 255.0f, colour[2] / 255.0f,
              colour[3] / 255.0f);
  const GLint renderbuffer = Integer(GL_RENDERBUFFER_BINDING), texture = Integer(GL_TEXTURE_BINDING_2D_MULTISAMPLE);
  glEnable(0x1);  // GL_INVALID_ENUM, left pending across the draw
  glDrawArrays(GL_TRIANGLES, 0, 3);
  GLenum first = glGetError(), second = glGetError();
  if (first != GL_INVALID_ENUM || second != GL_NO_ERROR) {
    std::printf("multisample_app: %s: errors after the draw 0x%x, 0x%x (wanted GL_INVALID_ENUM, then none)\n", kind,
                first, second);
    return false;
  }
  if (Integer(GL_READ_FRAMEBUFFER_BINDING) != static_cast<GLint>(framebuffer) ||
      Integer(GL_DRAW_FRAMEBUFFER_BINDING) != static_cast<GLint>(framebuffer) ||
      Integer(GL_RENDERBUFFER_BINDING) != renderbuffer || Integer(GL_TEXTURE_BINDING_2D_MULTISAMPLE) != texture ||
      !glIsEnabled(GL_SCISSOR_TEST)) {
    std::printf("multisample_app: %s: bindings or the scissor test changed across the draw\n", kind);
    return false;
  }
  // Resolve and read, as an app does.
  GLuint resolved = 0, target = 0;
  glGenRenderbuffers(1, &target);
  glBindRenderbuffer(GL_RENDERBUFFER, target);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, kSize, kSize);
  glGenFramebuffers(1, &resolved);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, resolved);
  glFramebufferRenderbuffer(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, target);
  glBlitFramebuffer(0, 0, kSize, kSize, 0, 0, kSize, kSize, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, resolved);
  unsigned char pixel[4] = {};
  glReadPixels(kSize / 2, kSize / 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, pixel);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &resolved);
  glDeleteRenderbuffers(1, &target);
  if (glGetError() != GL_NO_ERROR) return std::printf("multisample_app: %s: the resolve failed\n", kind), false;
  for (int i = 0; i < 4; ++i) {
    if (pixel[i] != colour[i]) {
      std::printf("multisample_app: %s: read %02x%02x%02x%02x\n", kind, pixel[0], pixel[1], pixel[2], pixel[3]);
      return false;
    }
  }
  std::printf("framebuffer %u %02x%02x%02x%02x\n", framebuffer, colour[0], colour[1], colour[2], colour[3]);
  return true;
}

}  // namespace

int main() {
  EGLDisplay display = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  if (!eglInitialize(display, nullptr, nullptr)) return std::puts("multisample_app: eglInitialize failed"), 1;
  const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
                                   EGL_NONE};
  EGLConfig config = nullptr;
  EGLint config_count = 0;
  if (!eglChooseConfig(display, config_attribs, &config, 1, &config_count) || config_count < 1) return 1;
  const EGLint context_attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 1, EGL_NONE};
  EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attribs);
  const EGLint surface_attribs[] = {EGL_WIDTH, kSize, EGL_HEIGHT, kSize, EGL_NONE};
  EGLSurface surface = eglCreatePbufferSurface(display, config, surface_attribs);
  if (!eglMakeCurrent(display, surface, surface, context)) return std::puts("multisample_app: no context"), 1;
  GLuint program = Program();
  if (program == 0) return std::puts("multisample_app: the program did not link"), 1;
  GLuint vertex_array = 0;
  glGenVertexArrays(1, &vertex_array);
  glBindVertexArray(vertex_array);
  const GLint samples = Integer(GL_MAX_SAMPLES) < 4 ? Integer(GL_MAX_SAMPLES) : 4;

  GLuint framebuffers[2] = {}, renderbuffer = 0, texture = 0;
  glGenFramebuffers(2, framebuffers);
  glGenRenderbuffers(1, &renderbuffer);
  glBindRenderbuffer(GL_RENDERBUFFER, renderbuffer);
  glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, GL_RGBA8, kSize, kSize);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffers[0]);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, renderbuffer);
  glGenTextures(1, &texture);
  glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, texture);
  glTexStorage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, samples, GL_RGBA8, kSize, kSize, GL_TRUE);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffers[1]);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D_MULTISAMPLE, texture, 0);
  // Bindings a capture must leave alone: neither object is bound where it is drawn.
  glBindRenderbuffer(GL_RENDERBUFFER, 0);
  glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, 0);
  if (glGetError() != GL_NO_ERROR || glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
    return std::puts("multisample_app: could not make the multisampled framebuffers"), 1;
  }

  const unsigned char red[4] = {255, 0, 0, 255}, green[4] = {0, 255, 0, 255};
  bool ok = DrawAndCheck("renderbuffer", framebuffers[0], program, red) &&
            DrawAndCheck("texture", framebuffers[1], program, green);
  eglSwapBuffers(display, surface);
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglTerminate(display);
  return ok ? 0 : 1;
}
