// A GLES 3.1 program that makes objects of every kind a remote client names
// itself (remote/client_names.h) and asks the GL about them: bindings,
// attached shaders, attachments, glIs*; then asks limits, strings and errors
// over and over (remote/client_answers.cpp). It prints only what must hold however
// names are handed out (a query gives back the name the app was given; names
// are distinct; a name the app made up stays its own), the errors, and a
// checksum of the frame. Natively and through a renderer, with names made on
// the client or by the renderer, the output must be the same.
//
// glCreateShaderProgramv makes a shader of its own on the host, so from then
// on the host's program names differ from the client's: the queries below
// only answer right when the renderer maps names both ways.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl31.h>
#include <GLES2/gl2ext.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "test_program.h"

namespace {

[[noreturn]] void Fail(const char* what) {
  std::fprintf(stderr, "client_names: error: %s\n", what);
  std::exit(1);
}

constexpr int kSize = 32;
std::set<GLuint> g_seen;  // every name handed out, of all kinds

void Check(const char* what, bool ok) { std::printf("%s: %s, error 0x%04x\n", what, ok ? "yes" : "NO", glGetError()); }

GLint Integer(GLenum pname) {
  GLint value = -1;
  glGetIntegerv(pname, &value);
  return value;
}

GLuint Shader(GLenum type, const char* source) {
  const GLuint shader = CompiledShader(type, source);
  if (shader == 0) Fail("a shader did not compile");
  return shader;
}

// KHR_debug's labels name an object by its kind and name: each label lands on
// the object the app named and comes back from it, and a deleted name is
// refused. The program and shader names differ between client and host here.
void CheckLabels(GLuint program, GLuint shader, GLuint separate) {
  auto object_label = reinterpret_cast<PFNGLOBJECTLABELKHRPROC>(eglGetProcAddress("glObjectLabelKHR"));
  auto get_object_label = reinterpret_cast<PFNGLGETOBJECTLABELKHRPROC>(eglGetProcAddress("glGetObjectLabelKHR"));
  if (object_label == nullptr || get_object_label == nullptr) Fail("no glObjectLabelKHR");
  object_label(GL_PROGRAM_KHR, program, -1, "the program");
  object_label(GL_SHADER_KHR, shader, -1, "the shader");
  object_label(GL_PROGRAM_KHR, separate, 3, "sep-arable");
  char label[32] = {};
  GLsizei length = -1;
  get_object_label(GL_PROGRAM_KHR, program, sizeof label, &length, label);
  bool same = length == 11 && std::string(label) == "the program";
  get_object_label(GL_SHADER_KHR, shader, sizeof label, &length, label);
  same = same && length == 10 && std::string(label) == "the shader";
  get_object_label(GL_PROGRAM_KHR, separate, sizeof label, &length, label);
  same = same && length == 3 && std::string(label) == "sep";
  Check("labels land on the app's objects", same);
  const GLuint gone = glCreateShader(GL_FRAGMENT_SHADER);
  glDeleteShader(gone);
  object_label(GL_SHADER_KHR, gone, -1, "gone");
  Check("a deleted shader takes no label", glGetError() == GL_INVALID_VALUE);
}


}  // namespace

int main() {
  const PbufferContext egl = MakePbufferCurrent(kSize, 1);
  if (egl.failed != nullptr) Fail(egl.failed);
  const auto display = egl.display;
  const auto config = egl.config;
  const auto context = egl.context;
  const auto surface = egl.surface;

  // A separable program first: the host makes a shader for it that the app never sees.
  const char* separable = "#version 310 es\nprecision mediump float; out vec4 o; void main() { o = vec4(1.0); }";
  GLuint separate = glCreateShaderProgramv(GL_FRAGMENT_SHADER, 1, &separable);
  GLint linked = 0;
  glGetProgramiv(separate, GL_LINK_STATUS, &linked);
  Check("separable program linked", separate != 0 && linked && glIsProgram(separate));
  Check("invalid shader type gives 0", glCreateShader(0x1234) == 0);  // GL_INVALID_ENUM

  // Deleted at once: a driver may hand their names out again, the client does not.
  for (int i = 0; i < 3; ++i) glDeleteShader(glCreateShader(GL_VERTEX_SHADER));
  GLuint program = glCreateProgram();
  GLuint vs = Shader(GL_VERTEX_SHADER,
                     "#version 310 es\nlayout(location = 0) in vec2 p; out vec2 uv;\n"
                     "void main() { uv = p * 0.5 + 0.5; gl_Position = vec4(p, 0.0, 1.0); }");
  GLuint fs = Shader(GL_FRAGMENT_SHADER,
                     "#version 310 es\nprecision mediump float; in vec2 uv; uniform sampler2D image; out vec4 o;\n"
                     "void main() { o = texture(image, uv) + vec4(uv, 0.0, 0.0); }");
  glAttachShader(program, vs);
  glAttachShader(program, fs);
  glLinkProgram(program);
  glGetProgramiv(program, GL_LINK_STATUS, &linked);
  if (!linked) Fail("link failed");
  g_seen = {separate, program, vs, fs};
  Check("program and shader names distinct", g_seen.size() == 4 && !g_seen.count(0));
  glUseProgram(program);
  Check("current program is the app's", Integer(GL_CURRENT_PROGRAM) == static_cast<GLint>(program));
  GLuint attached[4] = {};
  GLsizei attached_count = 0;
  glGetAttachedShaders(program, 4, &attached_count, attached);
  std::set<GLuint> attached_set(attached, attached + attached_count);
  Check("attached shaders are the app's", attached_set == std::set<GLuint>{vs, fs});
  CheckLabels(program, vs, separate);

  // Textures, and a name the app makes up (GLES binds create it).
  GLuint textures[3];
  glGenTextures(3, textures);
  glBindTexture(GL_TEXTURE_2D, textures[1]);
  Check("texture binding is the app's", Integer(GL_TEXTURE_BINDING_2D) == static_cast<GLint>(textures[1]));
  const GLuint made_up = 1000;
  glBindTexture(GL_TEXTURE_2D, made_up);
  GLuint after_made_up = 0;
  glGenTextures(1, &after_made_up);
  Check("a made-up name is never handed out", after_made_up != made_up && glIsTexture(made_up) &&
                                                  Integer(GL_TEXTURE_BINDING_2D) == static_cast<GLint>(made_up));
  Check("generated textures exist once bound", glIsTexture(textures[1]) && !glIsTexture(textures[2]));

  // A framebuffer with a renderbuffer, then a texture, attached.
  GLuint framebuffer = 0, renderbuffer = 0;
  glGenFramebuffers(1, &framebuffer);
  glGenRenderbuffers(1, &renderbuffer);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
  glBindRenderbuffer(GL_RENDERBUFFER, renderbuffer);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, kSize, kSize);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, renderbuffer);
  GLint attachment = -1;
  glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME,
                                        &attachment);
  Check("attached renderbuffer is the app's", attachment == static_cast<GLint>(renderbuffer));
  Check("framebuffer binding is the app's", Integer(GL_FRAMEBUFFER_BINDING) == static_cast<GLint>(framebuffer) &&
                                                Integer(GL_RENDERBUFFER_BINDING) == static_cast<GLint>(renderbuffer));
  glBindTexture(GL_TEXTURE_2D, textures[2]);
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, kSize, kSize);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, textures[2], 0);
  glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME,
                                        &attachment);
  Check("attached texture is the app's", attachment == static_cast<GLint>(textures[2]) &&
                                             glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);

  // A vertex array and its buffer.
  GLuint vertex_array = 0, buffer = 0;
  glGenVertexArrays(1, &vertex_array);
  glGenBuffers(1, &buffer);
  glBindVertexArray(vertex_array);
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  const GLfloat quad[] = {-1, -1, 1, -1, -1, 1, 1, 1};
  glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glEnableVertexAttribArray(0);
  GLint attribute_buffer = -1;
  glGetVertexAttribiv(0, GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING, &attribute_buffer);
  Check("vertex array and its buffer are the app's",
        Integer(GL_VERTEX_ARRAY_BINDING) == static_cast<GLint>(vertex_array) &&
            attribute_buffer == static_cast<GLint>(buffer) && glIsVertexArray(vertex_array) && glIsBuffer(buffer));

  // A query while it runs, a sampler while bound.
  GLuint query = 0, sampler = 0;
  glGenQueries(1, &query);
  glGenSamplers(1, &sampler);
  glBeginQuery(GL_ANY_SAMPLES_PASSED, query);
  GLint current_query = -1;
  glGetQueryiv(GL_ANY_SAMPLES_PASSED, GL_CURRENT_QUERY, &current_query);
  glEndQuery(GL_ANY_SAMPLES_PASSED);
  glBindSampler(0, sampler);
  glSamplerParameteri(sampler, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  Check("query and sampler are the app's", current_query == static_cast<GLint>(query) &&
                                               Integer(GL_SAMPLER_BINDING) == static_cast<GLint>(sampler) &&
                                               glIsQuery(query) && glIsSampler(sampler));

  // Made and deleted in turn, as a streaming app does: never a name twice in use.
  GLuint last = 0;
  bool distinct = true;
  for (int i = 0; i < 200; ++i) {
    GLuint texture = 0;
    glGenTextures(1, &texture);
    distinct = distinct && texture != 0 && glIsTexture(texture) == GL_FALSE;
    glBindTexture(GL_TEXTURE_2D, texture);
    const uint8_t texel[4] = {static_cast<uint8_t>(i), 40, 200, 255};
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, texel);
    if (last != 0) glDeleteTextures(1, &last);
    last = texture;
  }
  Check("textures made in turn are new", distinct && glIsTexture(last) &&
                                             Integer(GL_TEXTURE_BINDING_2D) == static_cast<GLint>(last));

  // The frame: the last texture over the quad, into the surface.
  glBindSampler(0, 0);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glUniform1i(glGetUniformLocation(program, "image"), 0);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  std::printf("frame %08x, error 0x%04x\n", FrameChecksum(kSize), glGetError());

  // A second context of the same share group sees the shared objects, not the others.
  const EGLint shared_attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE};
  EGLContext second = eglCreateContext(display, config, context, shared_attribs);
  if (second == EGL_NO_CONTEXT || !eglMakeCurrent(display, surface, surface, second)) Fail("a shared context");
  GLuint second_texture = 0, second_framebuffer = 0;
  glGenTextures(1, &second_texture);
  glBindTexture(GL_TEXTURE_2D, second_texture);
  glGenFramebuffers(1, &second_framebuffer);
  glBindFramebuffer(GL_FRAMEBUFFER, second_framebuffer);
  Check("shared objects seen from the second context",
        glIsProgram(program) && glIsTexture(last) && glIsBuffer(buffer) && !glIsVertexArray(vertex_array) &&
            Integer(GL_FRAMEBUFFER_BINDING) == static_cast<GLint>(second_framebuffer));
  Check("a texture of the second context is new", second_texture != last && second_texture != made_up &&
                                                       std::none_of(textures, textures + 3, [&](GLuint t) {
                                                         return t == second_texture;
                                                       }));
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  if (!eglMakeCurrent(display, surface, surface, context)) Fail("eglMakeCurrent back");
  Check("the first context sees the second's texture", glIsTexture(second_texture) == GL_TRUE);

  // Asked again and again: limits, strings and errors a client may answer itself.
  const GLint max_texture = Integer(GL_MAX_TEXTURE_SIZE);
  const GLubyte* renderer = glGetString(GL_RENDERER);
  const GLubyte* extension = glGetStringi(GL_EXTENSIONS, 0);
  bool same = max_texture > 0 && renderer != nullptr && extension != nullptr;
  for (int i = 0; i < 100; ++i) {
    same = same && Integer(GL_MAX_TEXTURE_SIZE) == max_texture && glGetError() == GL_NO_ERROR &&
           glGetError() == GL_NO_ERROR && glGetString(GL_RENDERER) == renderer &&
           glGetStringi(GL_EXTENSIONS, 0) == extension;
  }
  Check("limits and strings stay", same);
  GLint value = 0;
  glGetIntegerv(0x1234, &value);  // GL_INVALID_ENUM
  Check("a wrong pname is an error every time",
        glGetError() == GL_INVALID_ENUM && (glGetIntegerv(0x1234, &value), glGetError() == GL_INVALID_ENUM));
  Check("a string that does not exist", glGetStringi(GL_EXTENSIONS, 100000) == nullptr);
  glUseProgram(0);
  glDeleteProgram(separate);
  glDeleteProgram(program);
  glDeleteShader(vs);
  glDeleteShader(fs);
  Check("deleted programs are gone", !glIsProgram(separate) && !glIsShader(vs));
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroyContext(display, second);
  eglDestroyContext(display, context);
  eglTerminate(display);
  return 0;
}
