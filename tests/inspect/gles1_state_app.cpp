// A GLES 1.1 app for the trim tests that keeps state across frames where
// gles1_cube does not: vertex and element data in buffer objects (pointers as
// offsets), a modelview stack two deep while each frame draws, fog, a
// texture environment that combines, and a light that only the first frame
// sets. Each frame draws the same mesh turned a little further; frames are
// pbuffer swaps, for `strata trace --capture swap`.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES/gl.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

int main(int argc, char** argv) {
  int frames = 6;
  if (argc == 3 && std::strcmp(argv[1], "--frames") == 0) frames = std::atoi(argv[2]);
  EGLDisplay display = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  if (!eglInitialize(display, nullptr, nullptr)) return std::puts("gles1_state_app: eglInitialize failed"), 1;
  const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
                                   EGL_RED_SIZE, 8, EGL_DEPTH_SIZE, 16, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint config_count = 0;
  if (!eglChooseConfig(display, config_attribs, &config, 1, &config_count) || config_count < 1) return 1;
  const EGLint context_attribs[] = {EGL_CONTEXT_CLIENT_VERSION, 1, EGL_NONE};
  EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attribs);
  const EGLint surface_attribs[] = {EGL_WIDTH, 64, EGL_HEIGHT, 64, EGL_NONE};
  EGLSurface surface = eglCreatePbufferSurface(display, config, surface_attribs);
  if (!eglMakeCurrent(display, surface, surface, context)) return std::puts("gles1_state_app: no context"), 1;

  // A fan of triangles: position (3), normal (3), texture coordinates (2).
  std::vector<GLfloat> vertices;
  std::vector<GLushort> indices;
  const int kSpokes = 12;
  vertices.insert(vertices.end(), {0, 0, 0, 0, 0, 1, 0.5f, 0.5f});
  for (int i = 0; i <= kSpokes; ++i) {
    const float x = static_cast<float>(i % 4) / 3.0f * 2 - 1, y = static_cast<float>(i / 4) / 3.0f * 2 - 1;
    vertices.insert(vertices.end(), {x, y, (i & 1) * 0.3f, x * 0.3f, y * 0.3f, 1, (x + 1) / 2, (y + 1) / 2});
    if (i > 0) indices.insert(indices.end(), {0, static_cast<GLushort>(i), static_cast<GLushort>(i + 1)});
  }
  GLuint buffers[2];
  glGenBuffers(2, buffers);
  glBindBuffer(GL_ARRAY_BUFFER, buffers[0]);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(vertices.size() * sizeof(GLfloat)), nullptr, GL_STATIC_DRAW);
  glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(vertices.size() * sizeof(GLfloat)), vertices.data());
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, buffers[1]);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(indices.size() * sizeof(GLushort)), indices.data(),
               GL_STATIC_DRAW);
  const GLsizei stride = 8 * sizeof(GLfloat);
  glVertexPointer(3, GL_FLOAT, stride, nullptr);
  glNormalPointer(GL_FLOAT, stride, reinterpret_cast<const void*>(3 * sizeof(GLfloat)));
  glTexCoordPointer(2, GL_FLOAT, stride, reinterpret_cast<const void*>(6 * sizeof(GLfloat)));
  glEnableClientState(GL_VERTEX_ARRAY);
  glEnableClientState(GL_NORMAL_ARRAY);
  glEnableClientState(GL_TEXTURE_COORD_ARRAY);
  glBindBuffer(GL_ARRAY_BUFFER, 0);

  GLubyte texels[4 * 4 * 4];
  for (int i = 0; i < 16; ++i) {
    const GLubyte on = ((i ^ (i / 4)) & 1) ? 255 : 60;
    texels[i * 4] = on, texels[i * 4 + 1] = 255 - on, texels[i * 4 + 2] = 128, texels[i * 4 + 3] = 255;
  }
  GLuint texture = 0;
  glGenTextures(1, &texture);
  glBindTexture(GL_TEXTURE_2D, texture);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
  glEnable(GL_TEXTURE_2D);
  glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_COMBINE);
  glTexEnvi(GL_TEXTURE_ENV, GL_COMBINE_RGB, GL_ADD_SIGNED);
  glTexEnvf(GL_TEXTURE_ENV, GL_RGB_SCALE, 2.0f);

  glEnable(GL_FOG);
  glFogf(GL_FOG_MODE, GL_LINEAR);
  glFogf(GL_FOG_START, 1.0f);
  glFogf(GL_FOG_END, 4.0f);
  const GLfloat fog_colour[] = {0.2f, 0.1f, 0.4f, 1};
  glFogfv(GL_FOG_COLOR, fog_colour);
  glEnable(GL_DEPTH_TEST);
  glClearColor(0.05f, 0.05f, 0.1f, 1);

  glMatrixMode(GL_PROJECTION);
  glFrustumf(-1, 1, -1, 1, 1, 6);
  glMatrixMode(GL_MODELVIEW);
  glTranslatef(0, 0, -2.5f);
  glPushMatrix();  // the frames draw one level down, from here on
  for (int frame = 0; frame < frames; ++frame) {
    if (frame == 0) {
      glEnable(GL_LIGHTING);
      glEnable(GL_LIGHT1);
      const GLfloat position[] = {1, 1, 2, 0}, diffuse[] = {1, 0.8f, 0.6f, 1};
      glLightfv(GL_LIGHT1, GL_POSITION, position);  // in eye space of the stack's top then
      glLightfv(GL_LIGHT1, GL_DIFFUSE, diffuse);
    }
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glLoadIdentity();
    glTranslatef(0, 0, -2.5f);
    glRotatef(20.0f + 15.0f * static_cast<float>(frame), 0.3f, 1, 0);
    glDrawElements(GL_TRIANGLES, static_cast<GLsizei>(indices.size()), GL_UNSIGNED_SHORT, nullptr);
    // A pbuffer's swap flushes nothing: without this, frames pile up unrendered
    // in llvmpipe for as long as the app runs (an attach test runs it for seconds).
    glFinish();
    if (!eglSwapBuffers(display, surface)) return std::puts("gles1_state_app: swap failed"), 1;
  }
  GLint depth = 0;
  glGetIntegerv(GL_MODELVIEW_STACK_DEPTH, &depth);
  std::printf("gles1_state_app: %d frames, modelview stack %d deep, error 0x%x\n", frames, depth, glGetError());
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglTerminate(display);
  return 0;
}
