// A GLES 1.1 program that sets every piece of fixed-function state `strata
// state` reads to a value other than a fresh context's, for the snapshot's
// round trip (snapshot_round_trip_test.py).
//
// Frame 0 sets the state (and draws once, so that the client arrays' memory
// is in the trace). Frame 1 holds checkpoints, each a glFlush the test reads
// the state before: the first sees the state as frame 0 left it; before the
// second, every matrix stack is popped, so the matrices below the tops are
// read too. Every GL error is a failure (exit 1, naming the step).
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES/gl.h>
#include <GLES/glext.h>

#include <cstdio>
#include <initializer_list>

namespace {

bool failed = false;

void Check(const char* step) {
  for (GLenum error = glGetError(); error != GL_NO_ERROR; error = glGetError()) {
    std::fprintf(stderr, "every_state_gles1_app: GL error 0x%x at %s\n", error, step);
    failed = true;
  }
}

GLint Integer(GLenum pname) {
  GLint value = 0;
  glGetIntegerv(pname, &value);
  return value;
}

const GLfloat kCoordinates[] = {0, 0, 1, 0, 0, 1, 1, 1};

// A matrix of its own for each stack level and unit.
void LoadMatrix(float seed) {
  GLfloat m[16];
  for (int i = 0; i < 16; ++i) m[i] = seed + static_cast<float>(i) * 0.25f;
  glLoadMatrixf(m);
}

void Lights() {
  const GLint lights = Integer(GL_MAX_LIGHTS);
  for (GLint i = 0; i < lights; ++i) {
    const GLenum light = GL_LIGHT0 + static_cast<GLenum>(i);
    const float f = static_cast<float>(i) * 0.0625f;
    const GLfloat ambient[] = {0.1f + f, 0.2f, 0.3f, 0.4f}, diffuse[] = {0.5f, 0.6f + f, 0.7f, 0.8f};
    const GLfloat specular[] = {0.9f, 0.8f, 0.7f + f, 0.6f}, position[] = {1.0f, 2.0f + f, 3.0f, 0.0f};
    const GLfloat direction[] = {0.0f, -1.0f, -f};
    glLightfv(light, GL_AMBIENT, ambient);
    glLightfv(light, GL_DIFFUSE, diffuse);
    glLightfv(light, GL_SPECULAR, specular);
    glLightfv(light, GL_POSITION, position);
    glLightfv(light, GL_SPOT_DIRECTION, direction);
    glLightf(light, GL_SPOT_EXPONENT, 2.0f + f);
    glLightf(light, GL_SPOT_CUTOFF, 45.0f + f);
    glLightf(light, GL_CONSTANT_ATTENUATION, 0.5f + f);
    glLightf(light, GL_LINEAR_ATTENUATION, 0.25f + f);
    glLightf(light, GL_QUADRATIC_ATTENUATION, 0.125f + f);
  }
  const GLfloat ambient[] = {0.3f, 0.2f, 0.1f, 1.0f}, diffuse[] = {0.4f, 0.5f, 0.6f, 0.7f};
  const GLfloat specular[] = {0.7f, 0.6f, 0.5f, 0.4f}, emission[] = {0.05f, 0.1f, 0.15f, 0.2f};
  glMaterialfv(GL_FRONT_AND_BACK, GL_AMBIENT, ambient);
  glMaterialfv(GL_FRONT_AND_BACK, GL_DIFFUSE, diffuse);
  glMaterialfv(GL_FRONT_AND_BACK, GL_SPECULAR, specular);
  glMaterialfv(GL_FRONT_AND_BACK, GL_EMISSION, emission);
  glMaterialf(GL_FRONT_AND_BACK, GL_SHININESS, 17.0f);
  const GLfloat model_ambient[] = {0.4f, 0.3f, 0.2f, 0.1f};
  glLightModelfv(GL_LIGHT_MODEL_AMBIENT, model_ambient);
  glLightModelf(GL_LIGHT_MODEL_TWO_SIDE, 1.0f);
  Check("lights and material");
}

void Values() {
  glViewport(3, 5, 40, 30);
  glScissor(2, 4, 20, 10);
  glDepthRangef(0.25f, 0.75f);
  glClearColor(0.1f, 0.2f, 0.3f, 0.4f);
  glClearDepthf(0.5f);
  glClearStencil(3);
  glColorMask(GL_TRUE, GL_FALSE, GL_TRUE, GL_FALSE);
  glDepthMask(GL_FALSE);
  glDepthFunc(GL_GEQUAL);
  glCullFace(GL_FRONT);
  glFrontFace(GL_CW);
  glStencilFunc(GL_LEQUAL, 5, 0x0f);
  glStencilOp(GL_INCR, GL_DECR, GL_INVERT);
  glStencilMask(0x3c);
  glLineWidth(2.0f);
  glPolygonOffset(1.5f, 2.5f);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE);
  glAlphaFunc(GL_GREATER, 0.25f);
  glLogicOp(GL_XOR);
  glShadeModel(GL_FLAT);
  glPointSize(3.0f);
  glFogf(GL_FOG_MODE, GL_EXP2);
  glFogf(GL_FOG_DENSITY, 0.5f);
  glFogf(GL_FOG_START, 2.0f);
  glFogf(GL_FOG_END, 4.0f);
  const GLfloat fog[] = {0.2f, 0.4f, 0.6f, 0.8f};
  glFogfv(GL_FOG_COLOR, fog);
  glColor4f(0.1f, 0.2f, 0.3f, 0.4f);
  glNormal3f(0.5f, 0.6f, 0.7f);
  glSampleCoverage(0.5f, GL_TRUE);
  glHint(GL_GENERATE_MIPMAP_HINT, GL_NICEST);
  glPointParameterf(GL_POINT_SIZE_MIN, 2.0f);
  glPointParameterf(GL_POINT_SIZE_MAX, 6.0f);
  glPointParameterf(GL_POINT_FADE_THRESHOLD_SIZE, 1.5f);
  const GLfloat attenuation[] = {1.0f, 0.5f, 0.25f};
  glPointParameterfv(GL_POINT_DISTANCE_ATTENUATION, attenuation);
  glHint(GL_PERSPECTIVE_CORRECTION_HINT, GL_NICEST);
  glHint(GL_POINT_SMOOTH_HINT, GL_FASTEST);
  glHint(GL_LINE_SMOOTH_HINT, GL_NICEST);
  glHint(GL_FOG_HINT, GL_FASTEST);
  Check("values");
}

// Three units with textures, environments, coordinates and matrices of
// their own, and the last unit with a texture.
void TextureUnits(GLuint* textures) {
  glGenTextures(3, textures);
  const GLubyte texels[16] = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 0, 128};
  for (int i = 0; i < 3; ++i) {
    glBindTexture(GL_TEXTURE_2D, textures[i]);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 2, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  }
  const GLenum sources[] = {GL_TEXTURE, GL_PREVIOUS, GL_CONSTANT};
  for (GLint unit = 0; unit < 3; ++unit) {
    glActiveTexture(GL_TEXTURE0 + static_cast<GLenum>(unit));
    glClientActiveTexture(GL_TEXTURE0 + static_cast<GLenum>(unit));
    glBindTexture(GL_TEXTURE_2D, textures[unit]);
    if (unit != 1) glEnable(GL_TEXTURE_2D);
    glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_COMBINE);
    glTexEnvi(GL_TEXTURE_ENV, GL_COMBINE_RGB, unit == 0 ? GL_ADD_SIGNED : GL_INTERPOLATE);
    glTexEnvi(GL_TEXTURE_ENV, GL_COMBINE_ALPHA, unit == 0 ? GL_SUBTRACT : GL_MODULATE);
    glTexEnvi(GL_TEXTURE_ENV, GL_SRC0_RGB, sources[unit]);
    glTexEnvi(GL_TEXTURE_ENV, GL_SRC1_RGB, sources[(unit + 1) % 3]);
    glTexEnvi(GL_TEXTURE_ENV, GL_SRC2_RGB, sources[(unit + 2) % 3]);
    glTexEnvi(GL_TEXTURE_ENV, GL_SRC0_ALPHA, sources[(unit + 1) % 3]);
    glTexEnvi(GL_TEXTURE_ENV, GL_SRC1_ALPHA, sources[(unit + 2) % 3]);
    glTexEnvi(GL_TEXTURE_ENV, GL_SRC2_ALPHA, GL_PRIMARY_COLOR);
    glTexEnvi(GL_TEXTURE_ENV, GL_OPERAND0_RGB, GL_ONE_MINUS_SRC_COLOR);
    glTexEnvi(GL_TEXTURE_ENV, GL_OPERAND1_RGB, GL_SRC_ALPHA);
    glTexEnvi(GL_TEXTURE_ENV, GL_OPERAND2_RGB, GL_SRC_COLOR);
    glTexEnvi(GL_TEXTURE_ENV, GL_OPERAND0_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glTexEnvi(GL_TEXTURE_ENV, GL_OPERAND1_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glTexEnvi(GL_TEXTURE_ENV, GL_OPERAND2_ALPHA, GL_SRC_ALPHA);
    glTexEnvf(GL_TEXTURE_ENV, GL_RGB_SCALE, 2.0f);
    glTexEnvf(GL_TEXTURE_ENV, GL_ALPHA_SCALE, 4.0f);
    const GLfloat color[] = {0.25f, 0.5f, 0.75f, static_cast<float>(unit) * 0.25f};
    glTexEnvfv(GL_TEXTURE_ENV, GL_TEXTURE_ENV_COLOR, color);
    glMultiTexCoord4f(GL_TEXTURE0 + static_cast<GLenum>(unit), 0.5f, 0.25f, static_cast<float>(unit), 2.0f);
    glMatrixMode(GL_TEXTURE);
    LoadMatrix(static_cast<float>(unit) + 10.0f);
    glPushMatrix();
    LoadMatrix(static_cast<float>(unit) + 20.0f);
  }
  const GLint units = Integer(GL_MAX_TEXTURE_UNITS);
  glActiveTexture(GL_TEXTURE0 + static_cast<GLenum>(units - 1));
  glBindTexture(GL_TEXTURE_2D, textures[2]);
  Check("texture units");
}

// Client arrays: from buffers (offsets) and, unit 0's coordinates, from the program's memory.
void ClientArrays(GLuint* buffers) {
  glGenBuffers(3, buffers);
  GLubyte bytes[256];
  for (int i = 0; i < 256; ++i) bytes[i] = static_cast<GLubyte>(i);
  glBindBuffer(GL_ARRAY_BUFFER, buffers[0]);
  glBufferData(GL_ARRAY_BUFFER, sizeof bytes, bytes, GL_STATIC_DRAW);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, buffers[1]);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, 64, bytes, GL_DYNAMIC_DRAW);
  glBindBuffer(GL_ARRAY_BUFFER, buffers[2]);
  glBufferData(GL_ARRAY_BUFFER, 128, bytes, GL_DYNAMIC_DRAW);
  glBindBuffer(GL_ARRAY_BUFFER, buffers[0]);
  glVertexPointer(3, GL_SHORT, 8, reinterpret_cast<const void*>(4));
  glColorPointer(4, GL_UNSIGNED_BYTE, 12, reinterpret_cast<const void*>(16));
  glPointSizePointerOES(GL_FLOAT, 20, reinterpret_cast<const void*>(8));
  glNormalPointer(GL_SHORT, 8, reinterpret_cast<const void*>(6));
  glClientActiveTexture(GL_TEXTURE2);
  glTexCoordPointer(3, GL_BYTE, 6, reinterpret_cast<const void*>(2));
  glEnableClientState(GL_TEXTURE_COORD_ARRAY);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  glClientActiveTexture(GL_TEXTURE0);
  glTexCoordPointer(2, GL_FLOAT, 0, kCoordinates);
  glEnableClientState(GL_TEXTURE_COORD_ARRAY);
  for (GLenum array : {GL_VERTEX_ARRAY, GL_NORMAL_ARRAY, GL_COLOR_ARRAY, GL_POINT_SIZE_ARRAY_OES}) {
    glEnableClientState(array);
  }
  glBindBuffer(GL_ARRAY_BUFFER, buffers[2]);
  Check("client arrays");
}

// Every capability, flipped from its initial value.
void FlipCapabilities() {
  const GLenum capabilities[] = {
      GL_ALPHA_TEST,    GL_BLEND,          GL_COLOR_LOGIC_OP,   GL_COLOR_MATERIAL,  GL_CULL_FACE,
      GL_DEPTH_TEST,    GL_DITHER,         GL_FOG,              GL_LIGHTING,        GL_LINE_SMOOTH,
      GL_MULTISAMPLE,   GL_NORMALIZE,      GL_POINT_SMOOTH,     GL_POINT_SPRITE_OES, GL_POLYGON_OFFSET_FILL,
      GL_RESCALE_NORMAL, GL_SAMPLE_ALPHA_TO_COVERAGE, GL_SAMPLE_ALPHA_TO_ONE, GL_SAMPLE_COVERAGE,
      GL_SCISSOR_TEST,  GL_STENCIL_TEST,   GL_CLIP_PLANE0,      GL_CLIP_PLANE1,     GL_CLIP_PLANE2,
      GL_CLIP_PLANE3,   GL_CLIP_PLANE4,    GL_CLIP_PLANE5};
  for (GLenum capability : capabilities) {
    if (glIsEnabled(capability)) {
      glDisable(capability);
    } else {
      glEnable(capability);
    }
  }
  const GLint lights = Integer(GL_MAX_LIGHTS);
  for (GLint i = 0; i < lights; ++i) glEnable(GL_LIGHT0 + static_cast<GLenum>(i));
  Check("capabilities");
}

}  // namespace

int main() {
  EGLDisplay display = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  if (!eglInitialize(display, nullptr, nullptr)) return std::puts("every_state_gles1_app: eglInitialize failed"), 1;
  const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
                                   EGL_RED_SIZE, 8, EGL_DEPTH_SIZE, 16, EGL_STENCIL_SIZE, 8, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint count = 0;
  if (!eglChooseConfig(display, config_attribs, &config, 1, &count) || count < 1) {
    return std::puts("every_state_gles1_app: no config"), 1;
  }
  const EGLint context_attribs[] = {EGL_CONTEXT_CLIENT_VERSION, 1, EGL_NONE};
  EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attribs);
  const EGLint surface_attribs[] = {EGL_WIDTH, 64, EGL_HEIGHT, 48, EGL_NONE};
  EGLSurface surface = eglCreatePbufferSurface(display, config, surface_attribs);
  if (!eglMakeCurrent(display, surface, surface, context)) return std::puts("every_state_gles1_app: no context"), 1;

  Lights();
  Values();
  GLuint textures[3], buffers[3];
  TextureUnits(textures);
  ClientArrays(buffers);
  glDrawArrays(GL_POINTS, 0, 4);  // the client arrays' memory goes into the trace here
  glMatrixMode(GL_PROJECTION);
  LoadMatrix(30.0f);
  glPushMatrix();
  LoadMatrix(40.0f);
  glMatrixMode(GL_MODELVIEW);
  LoadMatrix(50.0f);
  glPushMatrix();
  LoadMatrix(60.0f);
  glPushMatrix();
  LoadMatrix(70.0f);
  glMatrixMode(GL_PROJECTION);
  FlipCapabilities();
  glPixelStorei(GL_PACK_ALIGNMENT, 2);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 8);
  glActiveTexture(GL_TEXTURE1);
  glClientActiveTexture(GL_TEXTURE2);
  Check("frame 0");
  eglSwapBuffers(display, surface);

  glFlush();  // 1: as frame 0 left it
  glPopMatrix();
  glMatrixMode(GL_MODELVIEW);
  glPopMatrix();
  glMatrixMode(GL_TEXTURE);
  glPopMatrix();
  glFlush();  // 2: the matrices below the stacks' tops
  Check("checkpoints");
  eglSwapBuffers(display, surface);
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglTerminate(display);
  return failed ? 1 : 0;
}
