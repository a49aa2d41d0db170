// A GLES app for the trace tests that prints, as hex, the bytes it passes to
// and reads back through pointers: the config list eglChooseConfig wrote,
// glGetIntegerv/glGetFloatv answers, the names glGen* made, the texture and
// buffer data it uploaded, and the pixels glReadPixels returned. The test
// compares these with the bytes the trace holds for the same calls, so the
// expected values come from the app itself, not from Strata.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>

#include <cstdint>
#include <cstdio>
#include <vector>

namespace {

void Print(const char* key, const void* data, size_t size) {
  std::printf("%s ", key);
  for (size_t i = 0; i < size; ++i) std::printf("%02x", static_cast<const uint8_t*>(data)[i]);
  std::printf("\n");
}

std::vector<uint8_t> Pattern(size_t size, uint32_t seed) {
  std::vector<uint8_t> bytes(size);
  for (uint8_t& b : bytes) {
    seed = seed * 1664525u + 1013904223u;
    b = static_cast<uint8_t>(seed >> 24);
  }
  return bytes;
}

}  // namespace

int main() {
  EGLDisplay display = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  if (!eglInitialize(display, nullptr, nullptr)) return std::puts("pointer_data_app: eglInitialize failed"), 1;
  const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
                                   EGL_RED_SIZE, 8, EGL_NONE};
  EGLConfig configs[4] = {};
  EGLint config_count = 0;
  if (!eglChooseConfig(display, config_attribs, configs, 4, &config_count) || config_count < 1) return 1;
  Print("eglChooseConfig.attrib_list", config_attribs, sizeof config_attribs);
  Print("eglChooseConfig.configs", configs, sizeof(EGLConfig) * config_count);
  Print("eglChooseConfig.num_config", &config_count, sizeof config_count);

  const EGLint context_attribs[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
  EGLContext context = eglCreateContext(display, configs[0], EGL_NO_CONTEXT, context_attribs);
  const EGLint surface_attribs[] = {EGL_WIDTH, 64, EGL_HEIGHT, 64, EGL_NONE};
  EGLSurface surface = eglCreatePbufferSurface(display, configs[0], surface_attribs);
  if (!eglMakeCurrent(display, surface, surface, context)) return std::puts("pointer_data_app: no context"), 1;

  glViewport(3, 5, 40, 30);
  GLint viewport[4] = {};
  glGetIntegerv(GL_VIEWPORT, viewport);
  Print("glGetIntegerv.GL_VIEWPORT", viewport, sizeof viewport);
  GLint max_texture_size = 0;
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_texture_size);
  Print("glGetIntegerv.GL_MAX_TEXTURE_SIZE", &max_texture_size, sizeof max_texture_size);
  glClearColor(0.25f, 0.5f, 0.75f, 1.0f);
  GLfloat clear_color[4] = {};
  glGetFloatv(GL_COLOR_CLEAR_VALUE, clear_color);
  Print("glGetFloatv.GL_COLOR_CLEAR_VALUE", clear_color, sizeof clear_color);

  GLuint textures[3] = {};
  glGenTextures(3, textures);
  Print("glGenTextures.textures", textures, sizeof textures);
  GLuint buffers[2] = {};
  glGenBuffers(2, buffers);
  Print("glGenBuffers.buffers", buffers, sizeof buffers);
  GLuint framebuffer = 0;
  glGenFramebuffers(1, &framebuffer);
  Print("glGenFramebuffers.framebuffers", &framebuffer, sizeof framebuffer);

  const std::vector<uint8_t> buffer_data = Pattern(96, 7);
  glBindBuffer(GL_ARRAY_BUFFER, buffers[0]);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(buffer_data.size()), buffer_data.data(), GL_STATIC_DRAW);
  Print("glBufferData.data", buffer_data.data(), buffer_data.size());

  // An 8x8 RGBA texture, read back through a framebuffer: RGBA8 comes back exactly.
  const std::vector<uint8_t> texels = Pattern(8 * 8 * 4, 11);
  glBindTexture(GL_TEXTURE_2D, textures[1]);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 8, 8, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels.data());
  Print("glTexImage2D.pixels", texels.data(), texels.size());
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, textures[1], 0);
  std::vector<uint8_t> read(8 * 8 * 4);
  glReadPixels(0, 0, 8, 8, GL_RGBA, GL_UNSIGNED_BYTE, read.data());
  Print("glReadPixels.pixels", read.data(), read.size());
  if (glGetError() != GL_NO_ERROR) return std::puts("pointer_data_app: a GL call failed"), 1;

  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glClear(GL_COLOR_BUFFER_BIT);
  eglSwapBuffers(display, surface);
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroySurface(display, surface);
  eglDestroyContext(display, context);
  eglTerminate(display);
  return 0;
}
