// The cases of piglit tests that Mesa's llvmpipe cannot run through every
// path Strata has, in a GLES 3 context: egl_khr_gl_renderbuffer_image-
// clear-shared-image (desktop GL there) shares a renderbuffer through an EGL
// image and clears each side; egl-invalid-attr (desktop GL there) gives
// eglCreateImageKHR an attribute no extension defines; ext_window_rectangles
// (NVIDIA's driver has it, llvmpipe's GLES does not) sets rectangles and
// reads them back, or, without the extension, gets the driver's error for
// each call. It prints what it saw; natively, through a renderer and
// replayed, the output and the errors must be the same.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>
#include <GLES2/gl2ext.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "test_program.h"

namespace {

constexpr int kSize = 64;

[[noreturn]] void Fail(const char* what) {
  std::fprintf(stderr, "piglit_cases: error: %s\n", what);
  std::exit(1);
}

template <typename F>
F Function(const char* name) {
  auto f = reinterpret_cast<F>(eglGetProcAddress(name));
  if (f == nullptr) Fail(name);
  return f;
}

// The colour in the middle of framebuffer `framebuffer`, as 0xRRGGBBAA.
unsigned Middle(GLuint framebuffer) {
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
  unsigned char rgba[4] = {};
  glReadPixels(kSize / 2, kSize / 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
  return static_cast<unsigned>(rgba[0]) << 24 | rgba[1] << 16 | rgba[2] << 8 | rgba[3];
}

GLuint FramebufferOf(GLuint renderbuffer) {
  GLuint framebuffer = 0;
  glGenFramebuffers(1, &framebuffer);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, renderbuffer);
  return framebuffer;
}

// clear-shared-image: the image made before the renderbuffer was drawn into.
void SharedRenderbuffer(EGLDisplay display, EGLContext context) {
  auto create_image = Function<PFNEGLCREATEIMAGEKHRPROC>("eglCreateImageKHR");
  auto destroy_image = Function<PFNEGLDESTROYIMAGEKHRPROC>("eglDestroyImageKHR");
  auto image_storage = Function<PFNGLEGLIMAGETARGETRENDERBUFFERSTORAGEOESPROC>("glEGLImageTargetRenderbufferStorageOES");
  GLuint renderbuffers[2];
  glGenRenderbuffers(2, renderbuffers);
  glBindRenderbuffer(GL_RENDERBUFFER, renderbuffers[0]);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, kSize, kSize);
  const GLuint first = FramebufferOf(renderbuffers[0]);
  EGLImageKHR image = create_image(display, context, EGL_GL_RENDERBUFFER_KHR,
                                   reinterpret_cast<EGLClientBuffer>(static_cast<uintptr_t>(renderbuffers[0])), nullptr);
  std::printf("image of a renderbuffer: %s, EGL error 0x%04x\n", image != EGL_NO_IMAGE_KHR ? "made" : "none",
              eglGetError());
  glBindRenderbuffer(GL_RENDERBUFFER, renderbuffers[1]);
  image_storage(GL_RENDERBUFFER, image);
  const GLuint second = FramebufferOf(renderbuffers[1]);
  std::printf("second renderbuffer from the image: error 0x%04x, complete %d\n", glGetError(),
              glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  const GLfloat green[4] = {0, 1, 0, 1}, blue[4] = {0, 0, 1, 1};
  glBindFramebuffer(GL_FRAMEBUFFER, first);
  glClearBufferfv(GL_COLOR, 0, green);
  std::printf("cleared the first, the second reads %08x, error 0x%04x\n", Middle(second), glGetError());
  glBindFramebuffer(GL_FRAMEBUFFER, second);
  glClearBufferfv(GL_COLOR, 0, blue);
  std::printf("cleared the second, the first reads %08x, error 0x%04x\n", Middle(first), glGetError());
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  destroy_image(display, image);
  std::printf("image destroyed: EGL error 0x%04x\n", eglGetError());
}

// egl-invalid-attr: 0xFFFF is no attribute of eglCreateImageKHR.
void InvalidAttribute(EGLDisplay display, EGLContext context) {
  auto create_image = Function<PFNEGLCREATEIMAGEKHRPROC>("eglCreateImageKHR");
  GLuint texture = 0;
  glGenTextures(1, &texture);
  glBindTexture(GL_TEXTURE_2D, texture);
  const unsigned char texel[4] = {};
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, texel);
  const EGLint attribs[] = {0xFFFF, 0, EGL_NONE};
  EGLImageKHR image = create_image(display, context, EGL_GL_TEXTURE_2D_KHR,
                                   reinterpret_cast<EGLClientBuffer>(static_cast<uintptr_t>(texture)), attribs);
  std::printf("image with an invalid attribute: %s, EGL error 0x%04x\n", image != EGL_NO_IMAGE_KHR ? "made" : "none",
              eglGetError());
  glDeleteTextures(1, &texture);
}

// ext_window_rectangles: two rectangles set and read back, the mode, and the
// errors of a bad mode and of too many rectangles; without the extension,
// the driver's errors for the same calls.
void WindowRectangles() {
  auto rectangles = Function<PFNGLWINDOWRECTANGLESEXTPROC>("glWindowRectanglesEXT");
  const GLint boxes[] = {1, 2, 10, 20, 30, 31, 5, 6};
  rectangles(GL_INCLUSIVE_EXT, 2, boxes);
  const GLenum set_error = glGetError();
  GLint box[4] = {-1, -1, -1, -1}, count = -1, mode = -1, most = -1;
  glGetIntegeri_v(GL_WINDOW_RECTANGLE_EXT, 1, box);
  const GLenum get_error = glGetError();
  glGetIntegerv(GL_NUM_WINDOW_RECTANGLES_EXT, &count);
  glGetIntegerv(GL_WINDOW_RECTANGLE_MODE_EXT, &mode);
  glGetIntegerv(GL_MAX_WINDOW_RECTANGLES_EXT, &most);
  const GLenum query_error = glGetError();
  std::printf("window rectangles: set error 0x%04x; second %d %d %d %d, error 0x%04x; %d of them, mode 0x%04x, "
              "query error 0x%04x\n",
              set_error, box[0], box[1], box[2], box[3], get_error, count, mode, query_error);
  rectangles(GL_NONE, 0, nullptr);
  std::printf("a bad mode: error 0x%04x\n", glGetError());
  if (most > 0) {
    rectangles(GL_EXCLUSIVE_EXT, most + 1, boxes);  // more than the driver has: GL_INVALID_VALUE, nothing read
    std::printf("one rectangle too many: error 0x%04x\n", glGetError());
  }
  rectangles(GL_EXCLUSIVE_EXT, 0, nullptr);
  std::printf("none left out: error 0x%04x\n", glGetError());
}

}  // namespace

int main() {
  const PbufferContext egl = MakePbufferCurrent(kSize, 0);
  if (egl.failed != nullptr) Fail(egl.failed);
  SharedRenderbuffer(egl.display, egl.context);
  InvalidAttribute(egl.display, egl.context);
  WindowRectangles();
  std::printf("done, error 0x%04x\n", glGetError());
  eglMakeCurrent(egl.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroySurface(egl.display, egl.surface);
  eglDestroyContext(egl.display, egl.context);
  eglTerminate(egl.display);
  return 0;
}
