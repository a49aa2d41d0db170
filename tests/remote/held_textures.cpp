// A GLES 3 program whose texture calls a remote client may hold back or drop
// (remote/deferred_textures.h): textures made, bound, set up and deleted
// before anything reads them; textures set up before their storage and then
// drawn with; names made and never bound; the same texture bound again; a
// texture deleted while bound; wrong targets and invalid parameters among
// them. It prints what an app can observe: GL errors, glIsTexture, the
// bindings of two units, a texture parameter, and a checksum of each frame,
// drawn with a 2x2 texture stretched over the frame and past its edges (so
// the filters and wraps show). Natively and through a renderer, with calls
// held back or not, the output must be the same.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>
#include <GLES2/gl2ext.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "test_program.h"

namespace {

[[noreturn]] void Fail(const char* what) {
  std::fprintf(stderr, "held_textures: error: %s\n", what);
  std::exit(1);
}

constexpr int kSize = 64;

GLuint Program() {
  const char* vs =
      "#version 300 es\nlayout(location = 0) in vec2 p; out vec2 uv;\n"
      "void main() { uv = p + 0.5; gl_Position = vec4(p, 0.0, 1.0); }";
  const char* fs =
      "#version 300 es\nprecision mediump float; uniform sampler2D image; in vec2 uv; out vec4 o;\n"
      "void main() { o = texture(image, uv) + vec4(0.0, 0.0, 0.0, 1.0); }";
  GLuint program = LinkedProgram(CompiledShader(GL_VERTEX_SHADER, vs), CompiledShader(GL_FRAGMENT_SHADER, fs));
  if (program == 0) Fail("link failed");
  return program;
}

// A 2x2 image of four colours.
void Image() {
  const uint8_t texels[] = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255};
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 2, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
}

GLint Integer(GLenum pname) {
  GLint value = -1;
  glGetIntegerv(pname, &value);
  return value;
}

void Draw() {
  glClear(GL_COLOR_BUFFER_BIT);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

// What an app can see; `name` is asked with glIsTexture.
void Say(const char* what, GLuint name) {
  const GLenum error = glGetError();
  const GLboolean is_texture = glIsTexture(name);
  const GLint unit = Integer(GL_ACTIVE_TEXTURE), bound_2d = Integer(GL_TEXTURE_BINDING_2D);
  const GLint bound_cube = Integer(GL_TEXTURE_BINDING_CUBE_MAP), bound_3d = Integer(GL_TEXTURE_BINDING_3D);
  glActiveTexture(GL_TEXTURE1);
  const GLint bound_2d_unit1 = Integer(GL_TEXTURE_BINDING_2D);
  glActiveTexture(static_cast<GLenum>(unit));
  std::printf("%s: error 0x%04x, is texture %d, unit %d, 2d %d, cube %d, 3d %d, unit 1 2d %d, frame %08x\n", what,
              error, is_texture, unit - GL_TEXTURE0, bound_2d, bound_cube, bound_3d, bound_2d_unit1,
              FrameChecksum(kSize));
}

}  // namespace

int main() {
  const PbufferContext egl = MakePbufferCurrent(kSize, 0);
  if (egl.failed != nullptr) Fail(egl.failed);

  glUseProgram(Program());
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  const GLfloat quad[] = {-1, -1, 1, -1, -1, 1, 1, 1};
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(0);
  glClearColor(0.1f, 0.2f, 0.3f, 1.0f);
  Draw();
  Say("start", 1);

  // Made, bound, set up and deleted, as a streaming app's pattern: nothing of them can be seen.
  GLuint last = 0;
  for (int i = 0; i < 500; ++i) {
    glGenTextures(1, &last);
    glBindTexture(GL_TEXTURE_2D, last);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameterf(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glDeleteTextures(1, &last);
  }
  Draw();
  Say("made and dropped", last);

  // Set up before its storage, then drawn with: the parameters must arrive.
  GLuint a = 0;
  glGenTextures(1, &a);
  glBindTexture(GL_TEXTURE_2D, a);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);  // the last one counts
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_MIRRORED_REPEAT);
  Image();
  Draw();
  Say("set up, then given storage", a);

  // The same with glTexParameterf.
  GLuint b = 0;
  glGenTextures(1, &b);
  glBindTexture(GL_TEXTURE_2D, b);
  glTexParameterf(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameterf(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameterf(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameterf(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
  Image();
  Draw();
  Say("set up as floats", b);

  // Names made and never bound are no textures; one bound and left is.
  GLuint c[3] = {};
  glGenTextures(3, c);
  Say("made, not bound", c[0]);
  glBindTexture(GL_TEXTURE_2D, c[1]);
  glBindTexture(GL_TEXTURE_2D, a);
  Say("bound once, then another", c[1]);
  glGenTextures(3, c);
  glBindTexture(GL_TEXTURE_2D, c[2]);
  glBindTexture(GL_TEXTURE_2D, b);
  glDeleteTextures(3, c);
  Draw();
  Say("three made, one bound, all deleted", c[2]);

  // Bound in turn between draws, and the same one again.
  for (GLuint texture : {a, b, a, a, b, b}) {
    glBindTexture(GL_TEXTURE_2D, texture);
    Draw();
  }
  Say("bound in turn", b);
  glBindTexture(GL_TEXTURE_2D, a);
  glBindTexture(GL_TEXTURE_2D, b);
  glBindTexture(GL_TEXTURE_2D, a);
  Draw();
  Say("bound back", a);

  // A texture bound to one target, then to another: GL_INVALID_OPERATION.
  GLuint d = 0;
  glGenTextures(1, &d);
  glBindTexture(GL_TEXTURE_2D, d);
  glBindTexture(GL_TEXTURE_CUBE_MAP, d);
  Say("wrong target", d);
  glBindTexture(GL_TEXTURE_CUBE_MAP, 0);

  // Made, sent, then first bound to a target the client does not follow:
  // binding it to 2D afterwards fails each time, and 2D keeps its texture.
  GLuint k = 0;
  glGenTextures(1, &k);
  Say("made, then sent", k);
  glBindTexture(GL_TEXTURE_EXTERNAL_OES, k);
  glBindTexture(GL_TEXTURE_EXTERNAL_OES, 0);
  glBindTexture(GL_TEXTURE_2D, b);
  glBindTexture(GL_TEXTURE_2D, k);  // GL_INVALID_OPERATION
  Say("external, then 2D", k);
  glBindTexture(GL_TEXTURE_2D, k);  // again
  Say("external, then 2D again", k);
  glDeleteTextures(1, &k);

  // Invalid parameters on a texture the client holds: their errors show.
  GLuint e = 0;
  glGenTextures(1, &e);
  glBindTexture(GL_TEXTURE_2D, e);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_REPEAT);  // GL_INVALID_ENUM
  Say("invalid filter", e);
  glTexParameteri(GL_TEXTURE_2D, 0x1234, GL_LINEAR);  // GL_INVALID_ENUM
  Say("invalid parameter", e);
  glTexParameterf(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, 9729.5f);  // not an enum: GL_INVALID_ENUM
  Say("a fraction", e);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
  GLint filter = 0;
  glGetTexParameteriv(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, &filter);
  std::printf("queried filter 0x%04x\n", filter);
  glDeleteTextures(1, &e);
  Say("deleted after a query", e);

  // Deleting a texture bound on two units unbinds it from both.
  glBindTexture(GL_TEXTURE_2D, a);
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_2D, a);
  glActiveTexture(GL_TEXTURE0);
  glDeleteTextures(1, &a);
  Draw();
  Say("deleted while bound on two units", a);

  // One made and bound over another, deleted: the binding is 0, not the one before.
  glBindTexture(GL_TEXTURE_2D, b);
  GLuint f = 0;
  glGenTextures(1, &f);
  glBindTexture(GL_TEXTURE_2D, f);
  glDeleteTextures(1, &f);
  Draw();
  Say("made over another and deleted", f);
  glBindTexture(GL_TEXTURE_2D, b);

  // More than the client holds at once: a hundred in one call, seventy one by one.
  std::vector<GLuint> many(100);
  glGenTextures(100, many.data());
  for (GLuint texture : many) {
    glBindTexture(GL_TEXTURE_2D, texture);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  }
  Say("a hundred bound", many[99]);
  glDeleteTextures(100, many.data());
  std::vector<GLuint> seventy(70);
  for (GLuint& texture : seventy) {
    glGenTextures(1, &texture);
    glBindTexture(GL_TEXTURE_2D, texture);
  }
  glBindTexture(GL_TEXTURE_2D, b);
  glDeleteTextures(70, seventy.data());
  Draw();
  Say("seventy one by one", seventy[3]);

  // Other targets: a cube map with a GLES 3 wrap, a 3D texture, on another unit.
  glActiveTexture(GL_TEXTURE1);
  GLuint g[2] = {};
  glGenTextures(2, g);
  glBindTexture(GL_TEXTURE_CUBE_MAP, g[0]);
  glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_WRAP_R, GL_CLAMP_TO_EDGE);
  glBindTexture(GL_TEXTURE_3D, g[1]);
  glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  Say("cube and 3D on unit 1", g[0]);
  glDeleteTextures(1, &g[0]);
  Say("cube deleted", g[1]);
  glActiveTexture(GL_TEXTURE0);

  // A unit past those every driver has (the driver decides whether it exists).
  glActiveTexture(GL_TEXTURE0 + 200);
  GLuint h = 0;
  glGenTextures(1, &h);
  glBindTexture(GL_TEXTURE_2D, h);
  glDeleteTextures(1, &h);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, b);
  Draw();
  Say("a unit past the guaranteed", h);

  eglMakeCurrent(egl.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglTerminate(egl.display);
  return 0;
}
