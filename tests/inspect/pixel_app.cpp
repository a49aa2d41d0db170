// A program whose pixels have known histories, for `strata pixel` and the
// replay's tools: `pixel_app FRAMES` draws FRAMES frames on a 64x64 pbuffer
// with depth and stencil (GL window coordinates, bottom-left origin):
//   pixel (8, 8)    cleared black; a red quad passes the depth test; a green
//                   one behind it fails it; a blue one fails the stencil
//                   test; a yellow one falls outside the scissor box; a
//                   white one passes with blending that keeps what is there;
//                   a quad elsewhere never reaches it. It ends red.
//   pixel (48, 48)  a 32x32 framebuffer object is cleared blue, a magenta
//                   quad covers its left three quarters, and it is blitted
//                   onto the top-right quarter: magenta.
//   pixel (48, 16)  a draw into the bottom-right quarter (its viewport)
//                   samples the framebuffer object's texture: magenta.
//   pixel (8, 56)   in odd frames only, a quad of a program of its own
//                   ("the odd program", fragment shader 'odd'): cyan.
// Prints nothing; exits 1 when GL fails.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>

#include <cstdio>
#include <cstdlib>

namespace {

GLuint Shader(GLenum type, const char* source) {
  GLuint shader = glCreateShader(type);
  glShaderSource(shader, 1, &source, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  return ok ? shader : 0;
}

GLuint Program(const char* vertex, const char* fragment) {
  GLuint program = glCreateProgram();
  glAttachShader(program, Shader(GL_VERTEX_SHADER, vertex));
  glAttachShader(program, Shader(GL_FRAGMENT_SHADER, fragment));
  glBindAttribLocation(program, 0, "position");
  glLinkProgram(program);
  GLint ok = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  return ok ? program : 0;
}

constexpr char kFlatVertex[] =
    "#version 300 es\n"
    "in vec2 position; uniform vec4 rect; uniform float depth;\n"
    "out vec2 uv;\n"
    "void main() { uv = position; gl_Position = vec4(mix(rect.xy, rect.zw, position), depth, 1.0); }\n";
constexpr char kFlatFragment[] =
    "#version 300 es\nprecision mediump float; uniform vec4 colour; out vec4 fragment;\n"
    "void main() { fragment = colour; }\n";
constexpr char kTexturedFragment[] =
    "#version 300 es\nprecision mediump float; uniform sampler2D image; in vec2 uv; out vec4 fragment;\n"
    "void main() { fragment = texture(image, uv); }\n";
constexpr char kOddFragment[] =
    "#version 300 es\nprecision mediump float; out vec4 fragment;\n"
    "void main() { fragment = vec4(0.0, 1.0, 1.0, 1.0); }\n";

struct Quad {
  GLuint program;
  GLint rect, depth, colour;
  void Draw(float x0, float y0, float x1, float y1, float z, float r, float g, float b) const {
    glUseProgram(program);
    glUniform4f(rect, x0, y0, x1, y1);
    glUniform1f(depth, z);
    if (colour >= 0) glUniform4f(colour, r, g, b, 1.0f);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  }
};

Quad QuadOf(GLuint program) {
  return {program, glGetUniformLocation(program, "rect"), glGetUniformLocation(program, "depth"),
          glGetUniformLocation(program, "colour")};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: pixel_app FRAMES\n");
    return 2;
  }
  const int frames = std::atoi(argv[1]);
  EGLDisplay display = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  if (!eglInitialize(display, nullptr, nullptr)) return 1;
  const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
                                   EGL_RED_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_DEPTH_SIZE, 24, EGL_STENCIL_SIZE, 8, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint count = 0;
  if (!eglChooseConfig(display, config_attribs, &config, 1, &count) || count < 1) return 1;
  const EGLint context_attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE};
  EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attribs);
  const EGLint surface_attribs[] = {EGL_WIDTH, 64, EGL_HEIGHT, 64, EGL_NONE};
  EGLSurface surface = eglCreatePbufferSurface(display, config, surface_attribs);
  if (!eglMakeCurrent(display, surface, surface, context)) return 1;

  const Quad flat = QuadOf(Program(kFlatVertex, kFlatFragment));
  const Quad textured = QuadOf(Program(kFlatVertex, kTexturedFragment));
  const Quad odd = QuadOf(Program(kFlatVertex, kOddFragment));
  if (!flat.program || !textured.program || !odd.program) return 1;
  const GLfloat corners[] = {0, 0, 1, 0, 0, 1, 1, 1};
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  glBufferData(GL_ARRAY_BUFFER, sizeof corners, corners, GL_STATIC_DRAW);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(0);

  GLuint texture = 0, framebuffer = 0;
  glGenTextures(1, &texture);
  glBindTexture(GL_TEXTURE_2D, texture);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 32, 32, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glGenFramebuffers(1, &framebuffer);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture, 0);
  if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) return 1;
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glUseProgram(textured.program);
  glUniform1i(glGetUniformLocation(textured.program, "image"), 0);

  for (int frame = 0; frame < frames; ++frame) {
    // The framebuffer object: blue, magenta over x < 24.
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    glViewport(0, 0, 32, 32);
    glClearColor(0, 0, 1, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    flat.Draw(-1, -1, 0.5f, 1, 0, 1, 0, 1);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);

    // The surface.
    glViewport(0, 0, 64, 64);
    glClearColor(0, 0, 0, 1);
    glClearDepthf(1);
    glClearStencil(0);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    // Around pixel (8, 8): NDC -1..-0.5 is pixels 0..15.
    flat.Draw(-1, -1, -0.5f, -0.5f, 0.0f, 1, 0, 0);   // red: passes
    flat.Draw(-1, -1, -0.5f, -0.5f, 0.5f, 0, 1, 0);   // green: behind it, fails depth
    glEnable(GL_STENCIL_TEST);
    glStencilFunc(GL_EQUAL, 1, 0xff);
    flat.Draw(-1, -1, -0.5f, -0.5f, -0.5f, 0, 0, 1);  // blue: fails stencil
    glDisable(GL_STENCIL_TEST);
    glEnable(GL_SCISSOR_TEST);
    glScissor(32, 32, 32, 32);
    flat.Draw(-1, -1, -0.5f, -0.5f, -0.5f, 1, 1, 0);  // yellow: outside the scissor box
    glDisable(GL_SCISSOR_TEST);
    glEnable(GL_BLEND);
    glBlendFunc(GL_ZERO, GL_ONE);
    glDepthMask(GL_FALSE);
    flat.Draw(-1, -1, -0.5f, -0.5f, -0.9f, 1, 1, 1);  // white: passes, blending keeps red
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
    flat.Draw(0.5f, -1, 1, -0.5f, 0, 1, 1, 1);        // white, bottom-right corner: never reaches (8, 8)
    glDisable(GL_DEPTH_TEST);

    // The framebuffer object blitted onto the top-right quarter.
    glBindFramebuffer(GL_READ_FRAMEBUFFER, framebuffer);
    glBlitFramebuffer(0, 0, 32, 32, 32, 32, 64, 64, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);

    // Its texture sampled by a draw whose viewport is the bottom-right quarter.
    glViewport(32, 0, 32, 32);
    glBindTexture(GL_TEXTURE_2D, texture);
    textured.Draw(-1, -1, 1, 1, 0, 0, 0, 0);
    glViewport(0, 0, 64, 64);

    if (frame % 2 == 1) odd.Draw(-1, 0.5f, -0.5f, 1, 0, 0, 0, 0);  // pixels 0..15 x 48..63
    if (glGetError() != GL_NO_ERROR) return 1;
    eglSwapBuffers(display, surface);
  }
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglTerminate(display);
  return 0;
}
