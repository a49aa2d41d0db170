// A GLES 2 or 3.2 program that sets every piece of context state `strata
// state` reads to a value other than a fresh context's, for the snapshot's
// round trip (snapshot_round_trip_test.py): `every_state_app 2|3`.
//
// Frame 0 makes the objects and sets the state. Frame 1 holds checkpoints,
// each a glFlush the test reads the state before: the first sees the state
// as frame 0 left it; the calls between the next ones bind other objects
// (another program, the default vertex array, another framebuffer, the
// default transform feedback) or begin queries, so that the reader, which
// reads what is bound, sees the objects' own state too.
//
// Every GL error is a failure (exit 1, naming the step), so the state the
// test expects to have been set was set.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl32.h>

#include <GLES2/gl2ext.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

bool failed = false;

void Check(const char* step) {
  for (GLenum error = glGetError(); error != GL_NO_ERROR; error = glGetError()) {
    std::fprintf(stderr, "every_state_app: GL error 0x%x at %s\n", error, step);
    failed = true;
  }
}

GLuint Shader(GLenum type, const char* source) {
  const GLuint shader = glCreateShader(type);
  glShaderSource(shader, 1, &source, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[2048] = {};
    glGetShaderInfoLog(shader, sizeof log, nullptr, log);
    std::fprintf(stderr, "every_state_app: a shader does not compile:\n%s\n", log);
    failed = true;
  }
  return shader;
}

GLuint Program(GLuint vertex, GLuint fragment) {
  const GLuint program = glCreateProgram();
  glAttachShader(program, vertex);
  glAttachShader(program, fragment);
  glLinkProgram(program);
  GLint ok = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[2048] = {};
    glGetProgramInfoLog(program, sizeof log, nullptr, log);
    std::fprintf(stderr, "every_state_app: a program does not link:\n%s\n", log);
    failed = true;
  }
  return program;
}

GLint Location(GLuint program, const char* name) {
  const GLint location = glGetUniformLocation(program, name);
  if (location < 0) {
    std::fprintf(stderr, "every_state_app: uniform %s is not active\n", name);
    failed = true;
  }
  return location;
}

GLint Integer(GLenum pname) {
  GLint value = 0;
  glGetIntegerv(pname, &value);
  return value;
}

// Every capability a context has, flipped from its initial value.
void FlipCapabilities(bool gles3) {
  std::vector<GLenum> capabilities = {GL_BLEND,           GL_CULL_FACE,       GL_DEPTH_TEST,
                                      GL_DITHER,          GL_POLYGON_OFFSET_FILL, GL_SAMPLE_ALPHA_TO_COVERAGE,
                                      GL_SAMPLE_COVERAGE, GL_SCISSOR_TEST,    GL_STENCIL_TEST};
  if (gles3) {
    capabilities.insert(capabilities.end(), {GL_PRIMITIVE_RESTART_FIXED_INDEX, GL_RASTERIZER_DISCARD, GL_SAMPLE_MASK,
                                             GL_DEBUG_OUTPUT, GL_DEBUG_OUTPUT_SYNCHRONOUS, GL_SAMPLE_SHADING});
  }
  for (GLenum capability : capabilities) {
    if (glIsEnabled(capability)) {
      glDisable(capability);
    } else {
      glEnable(capability);
    }
  }
  Check("capabilities");
}

// Fixed-function values both versions have.
void SetValues(bool gles3) {
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
  glStencilFuncSeparate(GL_FRONT, GL_LEQUAL, 5, 0x0f);
  glStencilFuncSeparate(GL_BACK, GL_GREATER, 6, 0xf0);
  glStencilOpSeparate(GL_FRONT, GL_INCR, GL_DECR, GL_INVERT);
  glStencilOpSeparate(GL_BACK, GL_REPLACE, GL_INCR_WRAP, GL_DECR_WRAP);
  glStencilMaskSeparate(GL_FRONT, 0x3c);
  glStencilMaskSeparate(GL_BACK, 0xc3);
  glLineWidth(2.0f);
  glPolygonOffset(1.5f, 2.5f);
  glBlendFuncSeparate(GL_SRC_COLOR, GL_ONE_MINUS_SRC_ALPHA, GL_DST_ALPHA, GL_CONSTANT_COLOR);
  glBlendEquationSeparate(GL_FUNC_SUBTRACT, gles3 ? GL_MAX : GL_FUNC_REVERSE_SUBTRACT);
  glBlendColor(0.2f, 0.4f, 0.6f, 0.8f);
  glSampleCoverage(0.5f, GL_TRUE);
  glHint(GL_GENERATE_MIPMAP_HINT, GL_NICEST);
  if (gles3) glHint(GL_FRAGMENT_SHADER_DERIVATIVE_HINT, GL_FASTEST);
  Check("fixed-function values");
}

// Pixel store last: the uploads before it are laid out by the defaults.
void SetPixelStore(bool gles3) {
  glPixelStorei(GL_PACK_ALIGNMENT, 2);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 8);
  if (gles3) {
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 7);
    glPixelStorei(GL_UNPACK_IMAGE_HEIGHT, 9);
    glPixelStorei(GL_UNPACK_SKIP_ROWS, 1);
    glPixelStorei(GL_UNPACK_SKIP_PIXELS, 2);
    glPixelStorei(GL_UNPACK_SKIP_IMAGES, 3);
    glPixelStorei(GL_PACK_ROW_LENGTH, 11);
    glPixelStorei(GL_PACK_SKIP_ROWS, 4);
    glPixelStorei(GL_PACK_SKIP_PIXELS, 5);
  }
  Check("pixel store");
}

// Parameters other than the defaults, for a texture bound at `target`.
void SetTextureParameters(GLenum target, bool gles3) {
  const bool multisampled = target == GL_TEXTURE_2D_MULTISAMPLE || target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY;
  if (!multisampled) {
    glTexParameteri(target, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_LINEAR);
    glTexParameteri(target, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(target, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(target, GL_TEXTURE_WRAP_T, GL_MIRRORED_REPEAT);
  }
  if (!gles3) return;
  if (!multisampled) {
    glTexParameteri(target, GL_TEXTURE_WRAP_R, GL_CLAMP_TO_EDGE);
    glTexParameterf(target, GL_TEXTURE_MIN_LOD, -5.0f);
    glTexParameterf(target, GL_TEXTURE_MAX_LOD, 7.0f);
    glTexParameteri(target, GL_TEXTURE_BASE_LEVEL, 1);
    glTexParameteri(target, GL_TEXTURE_MAX_LEVEL, 5);
    glTexParameteri(target, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
    glTexParameteri(target, GL_TEXTURE_COMPARE_FUNC, GL_LESS);
  }
  glTexParameteri(target, GL_TEXTURE_SWIZZLE_R, GL_GREEN);
  glTexParameteri(target, GL_TEXTURE_SWIZZLE_G, GL_BLUE);
  glTexParameteri(target, GL_TEXTURE_SWIZZLE_B, GL_ALPHA);
  glTexParameteri(target, GL_TEXTURE_SWIZZLE_A, GL_RED);
}

void SetSamplerParameters(GLuint sampler, GLenum wrap) {
  glSamplerParameteri(sampler, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_NEAREST);
  glSamplerParameteri(sampler, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glSamplerParameteri(sampler, GL_TEXTURE_WRAP_S, wrap);
  glSamplerParameteri(sampler, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glSamplerParameteri(sampler, GL_TEXTURE_WRAP_R, GL_MIRRORED_REPEAT);
  glSamplerParameterf(sampler, GL_TEXTURE_MIN_LOD, -3.0f);
  glSamplerParameterf(sampler, GL_TEXTURE_MAX_LOD, 9.0f);
  glSamplerParameteri(sampler, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
  glSamplerParameteri(sampler, GL_TEXTURE_COMPARE_FUNC, GL_NOTEQUAL);
}

std::vector<GLubyte> Texels(int count, int seed) {
  std::vector<GLubyte> texels(static_cast<size_t>(count) * 4);
  for (size_t i = 0; i < texels.size(); ++i) texels[i] = static_cast<GLubyte>(i * 37 + seed * 11);
  return texels;
}

GLuint Buffer(GLenum target, GLsizeiptr size, GLenum usage, int seed) {
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBuffer(target, buffer);
  std::vector<GLubyte> bytes(static_cast<size_t>(size));
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<GLubyte>(i * 7 + seed);
  glBufferData(target, size, bytes.data(), usage);
  return buffer;
}

// A 2D texture with three levels (8x8, 4x4, 2x2).
GLuint MipmappedTexture(int seed) {
  GLuint texture = 0;
  glGenTextures(1, &texture);
  glBindTexture(GL_TEXTURE_2D, texture);
  for (int level = 0, size = 8; level < 3; ++level, size /= 2) {
    glTexImage2D(GL_TEXTURE_2D, level, GL_RGBA, size, size, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 Texels(size * size, seed + level).data());
  }
  return texture;
}

GLuint CubeTexture(int seed) {
  GLuint texture = 0;
  glGenTextures(1, &texture);
  glBindTexture(GL_TEXTURE_CUBE_MAP, texture);
  for (GLenum face = 0; face < 6; ++face) {
    glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + face, 0, GL_RGBA, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 Texels(16, seed + static_cast<int>(face)).data());
  }
  return texture;
}

// ---- GLES 2 ----

const char* kVertex2 = R"(
attribute vec4 position;
attribute vec3 normal;
attribute vec2 coords;
attribute vec4 extra;
uniform float u_float; uniform vec2 u_vec2; uniform vec3 u_vec3; uniform vec4 u_vec4;
uniform int u_int; uniform ivec2 u_ivec2; uniform ivec3 u_ivec3; uniform ivec4 u_ivec4;
uniform bool u_bool; uniform bvec2 u_bvec2; uniform bvec3 u_bvec3; uniform bvec4 u_bvec4;
uniform mat2 u_mat2; uniform mat3 u_mat3; uniform mat4 u_mat4;
uniform float u_floats[3];
struct Light { vec3 color; int kind; };
uniform Light u_light;
varying vec4 v_color;
void main() {
  float s = u_float + u_vec2.y + u_vec3.z + u_vec4.w;
  s += float(u_int + u_ivec2.y + u_ivec3.z + u_ivec4.w);
  if (u_bool) s += 1.0;
  if (u_bvec2.y) s += 2.0;
  if (u_bvec3.z) s += 3.0;
  if (u_bvec4.w) s += 4.0;
  s += (u_mat2 * vec2(1.0)).x + (u_mat3 * vec3(1.0)).y + (u_mat4 * vec4(1.0)).z;
  s += u_floats[0] + u_floats[1] + u_floats[2] + u_light.color.x + float(u_light.kind);
  v_color = vec4(s) + vec4(normal, 1.0) + vec4(coords, 0.0, 1.0) + extra;
  gl_Position = position;
}
)";
const char* kFragment2 = R"(
#extension GL_OES_EGL_image_external : require
precision mediump float;
uniform sampler2D s_2d;
uniform samplerCube s_cube;
uniform samplerExternalOES s_external;
varying vec4 v_color;
void main() {
  gl_FragColor = v_color * texture2D(s_2d, vec2(0.5)) + textureCube(s_cube, vec3(1.0)) +
                 texture2D(s_external, vec2(0.5));
}
)";
const char* kVertex2B = R"(
attribute vec2 corner;
uniform vec2 offset;
void main() { gl_Position = vec4(corner + offset, 0.0, 1.0); }
)";
const char* kFragment2B = R"(
precision mediump float;
uniform vec4 tint;
void main() { gl_FragColor = tint; }
)";

const GLfloat kClientVertices[] = {-1, -1, 0, 1, 1, -1, 0, 1, -1, 1, 0, 1, 1, 1, 0, 1};

struct Gles2Objects {
  GLuint program_b = 0, framebuffer = 0;
};

void Uniforms2(GLuint program) {
  glUseProgram(program);
  glUniform1f(Location(program, "u_float"), 1.5f);
  glUniform2f(Location(program, "u_vec2"), 2.5f, 3.5f);
  glUniform3f(Location(program, "u_vec3"), 4.5f, 5.5f, 6.5f);
  glUniform4f(Location(program, "u_vec4"), 7.5f, 8.5f, 9.5f, 10.5f);
  glUniform1i(Location(program, "u_int"), -3);
  glUniform2i(Location(program, "u_ivec2"), 4, -5);
  glUniform3i(Location(program, "u_ivec3"), 6, 7, -8);
  glUniform4i(Location(program, "u_ivec4"), 9, 10, 11, -12);
  glUniform1i(Location(program, "u_bool"), 1);
  glUniform2i(Location(program, "u_bvec2"), 0, 1);
  glUniform3i(Location(program, "u_bvec3"), 1, 0, 1);
  glUniform4i(Location(program, "u_bvec4"), 0, 1, 1, 0);
  const GLfloat matrix[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  glUniformMatrix2fv(Location(program, "u_mat2"), 1, GL_FALSE, matrix);
  glUniformMatrix3fv(Location(program, "u_mat3"), 1, GL_FALSE, matrix + 1);
  glUniformMatrix4fv(Location(program, "u_mat4"), 1, GL_FALSE, matrix);
  const GLfloat floats[] = {0.25f, 0.5f, 0.75f};
  glUniform1fv(Location(program, "u_floats"), 3, floats);
  glUniform3f(Location(program, "u_light.color"), 0.1f, 0.2f, 0.3f);
  glUniform1i(Location(program, "u_light.kind"), 2);
  glUniform1i(Location(program, "s_2d"), 1);
  glUniform1i(Location(program, "s_cube"), 2);
  glUniform1i(Location(program, "s_external"), 3);
  Check("uniforms");
}

Gles2Objects SetUp2() {
  Gles2Objects o;
  FlipCapabilities(false);
  SetValues(false);

  // Textures: a mipmapped 2D one and a cube map on units 0 and 2, an external
  // one (no image: only its binding) on unit 3, the 2D one again on the last unit.
  const GLuint texture_2d = MipmappedTexture(1);
  SetTextureParameters(GL_TEXTURE_2D, false);
  const GLuint cube = CubeTexture(2);
  SetTextureParameters(GL_TEXTURE_CUBE_MAP, false);
  GLuint external = 0;
  glGenTextures(1, &external);
  const GLint units = Integer(GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS);
  glActiveTexture(GL_TEXTURE2);
  glBindTexture(GL_TEXTURE_CUBE_MAP, cube);
  glBindTexture(GL_TEXTURE_2D, texture_2d);
  glActiveTexture(GL_TEXTURE3);
  glBindTexture(GL_TEXTURE_EXTERNAL_OES, external);
  glActiveTexture(GL_TEXTURE0 + static_cast<GLenum>(units - 1));
  glBindTexture(GL_TEXTURE_2D, texture_2d);
  Check("textures");

  // A framebuffer: a texture level, a depth and a stencil renderbuffer.
  GLuint target = 0, renderbuffers[2] = {};
  glGenTextures(1, &target);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, target);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 16, 16, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glBindTexture(GL_TEXTURE_2D, 0);
  glGenRenderbuffers(2, renderbuffers);
  glBindRenderbuffer(GL_RENDERBUFFER, renderbuffers[0]);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT16, 16, 16);
  glBindRenderbuffer(GL_RENDERBUFFER, renderbuffers[1]);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_STENCIL_INDEX8, 16, 16);
  glGenFramebuffers(1, &o.framebuffer);
  glBindFramebuffer(GL_FRAMEBUFFER, o.framebuffer);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, target, 0);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, renderbuffers[0]);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_STENCIL_ATTACHMENT, GL_RENDERBUFFER, renderbuffers[1]);
  Check("framebuffer");

  // Programs: one with a uniform of every GLSL ES 1.00 type, its shaders
  // kept attached; another whose shaders are deleted after the link.
  const GLuint program = Program(Shader(GL_VERTEX_SHADER, kVertex2), Shader(GL_FRAGMENT_SHADER, kFragment2));
  Uniforms2(program);
  const GLuint vertex_b = Shader(GL_VERTEX_SHADER, kVertex2B), fragment_b = Shader(GL_FRAGMENT_SHADER, kFragment2B);
  o.program_b = Program(vertex_b, fragment_b);
  glDetachShader(o.program_b, vertex_b);
  glDetachShader(o.program_b, fragment_b);
  glDeleteShader(vertex_b);
  glDeleteShader(fragment_b);
  glUseProgram(o.program_b);
  glUniform2f(Location(o.program_b, "offset"), 0.125f, -0.25f);
  glUniform4f(Location(o.program_b, "tint"), 0.9f, 0.8f, 0.7f, 0.6f);
  glUseProgram(program);
  Check("programs");

  // Vertex attributes: a client array, arrays from a buffer (normalized
  // bytes, an offset and a stride), current values of the ones not enabled.
  const GLint position = glGetAttribLocation(program, "position"), normal = glGetAttribLocation(program, "normal");
  const GLint coords = glGetAttribLocation(program, "coords"), extra = glGetAttribLocation(program, "extra");
  const GLuint vertices = Buffer(GL_ARRAY_BUFFER, 256, GL_DYNAMIC_DRAW, 3);
  glVertexAttribPointer(static_cast<GLuint>(normal), 3, GL_BYTE, GL_TRUE, 12, reinterpret_cast<const void*>(4));
  glEnableVertexAttribArray(static_cast<GLuint>(normal));
  const GLint attributes = Integer(GL_MAX_VERTEX_ATTRIBS);
  glVertexAttribPointer(static_cast<GLuint>(attributes - 1), 2, GL_UNSIGNED_SHORT, GL_FALSE, 0,
                        reinterpret_cast<const void*>(8));
  glEnableVertexAttribArray(static_cast<GLuint>(attributes - 1));
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  glVertexAttribPointer(static_cast<GLuint>(position), 4, GL_FLOAT, GL_FALSE, 0, kClientVertices);
  glEnableVertexAttribArray(static_cast<GLuint>(position));
  glVertexAttrib2f(static_cast<GLuint>(coords), 0.5f, -0.5f);
  glVertexAttrib4f(static_cast<GLuint>(extra), 1.0f, 2.0f, 3.0f, 4.0f);
  const GLuint elements = Buffer(GL_ELEMENT_ARRAY_BUFFER, 64, GL_STREAM_DRAW, 4);
  (void)elements;
  // The client array is read at a draw (the trace records its memory there).
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDrawArrays(GL_POINTS, 0, 4);
  glBindFramebuffer(GL_FRAMEBUFFER, o.framebuffer);
  glBindBuffer(GL_ARRAY_BUFFER, vertices);
  glBindRenderbuffer(GL_RENDERBUFFER, renderbuffers[0]);
  glActiveTexture(GL_TEXTURE5);
  SetPixelStore(false);
  Check("vertex attributes");
  return o;
}

void Checkpoints2(const Gles2Objects& o) {
  glFlush();  // 1: as frame 0 left it
  glUseProgram(o.program_b);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glFlush();  // 2: the other program, the default framebuffer
  Check("checkpoints");
}

// ---- GLES 3.2 ----

const char* kVertex3 = R"(#version 320 es
layout(location = 0) in vec4 position;
layout(location = 1) in ivec2 ipos;
layout(location = 2) in uvec3 upos;
layout(location = 3) in vec3 normal;
layout(location = 4) in vec2 coords;
layout(location = 5) in vec4 extra;
uniform float u_float; uniform vec2 u_vec2; uniform vec3 u_vec3; uniform vec4 u_vec4;
uniform int u_int; uniform ivec2 u_ivec2; uniform ivec3 u_ivec3; uniform ivec4 u_ivec4;
uniform uint u_uint; uniform uvec2 u_uvec2; uniform uvec3 u_uvec3; uniform uvec4 u_uvec4;
uniform bool u_bool; uniform bvec2 u_bvec2; uniform bvec3 u_bvec3; uniform bvec4 u_bvec4;
uniform mat2 u_mat2; uniform mat3 u_mat3; uniform mat4 u_mat4;
uniform mat2x3 u_mat2x3; uniform mat2x4 u_mat2x4; uniform mat3x2 u_mat3x2;
uniform mat3x4 u_mat3x4; uniform mat4x2 u_mat4x2; uniform mat4x3 u_mat4x3;
uniform float u_floats[3];
uniform ivec2 u_ivecs[2];
struct Light { vec3 color; int kind; };
uniform Light u_light;
uniform Block { vec4 in_block; };
out vec4 v_color;
void main() {
  float s = u_float + u_vec2.y + u_vec3.z + u_vec4.w;
  s += float(u_int + u_ivec2.y + u_ivec3.z + u_ivec4.w);
  s += float(u_uint + u_uvec2.y + u_uvec3.z + u_uvec4.w);
  if (u_bool) s += 1.0;
  if (u_bvec2.y) s += 2.0;
  if (u_bvec3.z) s += 3.0;
  if (u_bvec4.w) s += 4.0;
  s += (u_mat2 * vec2(1.0)).x + (u_mat3 * vec3(1.0)).y + (u_mat4 * vec4(1.0)).z;
  s += (u_mat2x3 * vec2(1.0)).z + (u_mat2x4 * vec2(1.0)).w + (u_mat3x2 * vec3(1.0)).y;
  s += (u_mat3x4 * vec3(1.0)).w + (u_mat4x2 * vec4(1.0)).y + (u_mat4x3 * vec4(1.0)).z;
  s += u_floats[0] + u_floats[1] + u_floats[2] + float(u_ivecs[0].x + u_ivecs[1].y);
  s += u_light.color.x + float(u_light.kind) + in_block.x;
  s += float(ipos.x) + float(upos.y) + normal.z + coords.x + extra.w;
  v_color = vec4(s);
  gl_Position = position;
}
)";
const char* kFragment3 = R"(#version 320 es
precision highp float;
precision highp int;
uniform sampler2D s_2d;
uniform samplerCube s_cube;
uniform highp sampler3D s_3d;
uniform highp sampler2DArray s_array;
uniform highp sampler2DShadow s_shadow;
uniform highp isampler2D s_i2d;
uniform highp usampler3D s_u3d;
uniform highp sampler2DMS s_ms;
uniform highp samplerCubeArray s_cube_array;
uniform highp samplerBuffer s_buffer;
uniform highp sampler2DMSArray s_ms_array;
uniform vec4 f_tint;
in vec4 v_color;
layout(location = 0) out vec4 color;
void main() {
  vec4 c = v_color * f_tint;
  c += texture(s_2d, vec2(0.5)) + texture(s_cube, vec3(1.0)) + texture(s_3d, vec3(0.5));
  c += texture(s_array, vec3(0.5)) + vec4(texture(s_shadow, vec3(0.5)));
  c += vec4(texture(s_i2d, vec2(0.5))) + vec4(texture(s_u3d, vec3(0.5)));
  c += texelFetch(s_ms, ivec2(0), 0) + texture(s_cube_array, vec4(1.0)) + texelFetch(s_buffer, 0);
  c += texelFetch(s_ms_array, ivec3(0), 0);
  color = c;
}
)";
const char* kVertex3B = R"(#version 300 es
layout(location = 3) in vec2 corner;
uniform vec2 offset;
out vec2 captured;
void main() { captured = corner * 2.0; gl_Position = vec4(corner + offset, 0.0, 1.0); }
)";
const char* kFragment3B = R"(#version 300 es
precision mediump float;
uniform uvec2 mask;
out vec4 color;
void main() { color = vec4(mask, 0.0, 1.0); }
)";

struct Gles3Objects {
  GLuint program_b = 0, draw_framebuffer = 0, read_framebuffer = 0, queries[2] = {};
};

void Uniforms3(GLuint program) {
  glUseProgram(program);
  glUniform1f(Location(program, "u_float"), 1.5f);
  glUniform2f(Location(program, "u_vec2"), 2.5f, 3.5f);
  glUniform3f(Location(program, "u_vec3"), 4.5f, 5.5f, 6.5f);
  glUniform4f(Location(program, "u_vec4"), 7.5f, 8.5f, 9.5f, 10.5f);
  glUniform1i(Location(program, "u_int"), -3);
  glUniform2i(Location(program, "u_ivec2"), 4, -5);
  glUniform3i(Location(program, "u_ivec3"), 6, 7, -8);
  glUniform4i(Location(program, "u_ivec4"), 9, 10, 11, -12);
  glUniform1ui(Location(program, "u_uint"), 13u);
  glUniform2ui(Location(program, "u_uvec2"), 14u, 4000000000u);
  glUniform3ui(Location(program, "u_uvec3"), 16u, 17u, 18u);
  glUniform4ui(Location(program, "u_uvec4"), 19u, 20u, 21u, 22u);
  glUniform1i(Location(program, "u_bool"), 1);
  glUniform2i(Location(program, "u_bvec2"), 0, 1);
  glUniform3i(Location(program, "u_bvec3"), 1, 0, 1);
  glUniform4i(Location(program, "u_bvec4"), 0, 1, 1, 0);
  GLfloat matrix[16];
  for (int i = 0; i < 16; ++i) matrix[i] = static_cast<GLfloat>(i + 1) * 0.5f;
  glUniformMatrix2fv(Location(program, "u_mat2"), 1, GL_FALSE, matrix);
  glUniformMatrix3fv(Location(program, "u_mat3"), 1, GL_FALSE, matrix + 1);
  glUniformMatrix4fv(Location(program, "u_mat4"), 1, GL_FALSE, matrix);
  glUniformMatrix2x3fv(Location(program, "u_mat2x3"), 1, GL_FALSE, matrix + 2);
  glUniformMatrix2x4fv(Location(program, "u_mat2x4"), 1, GL_FALSE, matrix + 3);
  glUniformMatrix3x2fv(Location(program, "u_mat3x2"), 1, GL_FALSE, matrix + 4);
  glUniformMatrix3x4fv(Location(program, "u_mat3x4"), 1, GL_FALSE, matrix + 2);
  glUniformMatrix4x2fv(Location(program, "u_mat4x2"), 1, GL_FALSE, matrix + 5);
  glUniformMatrix4x3fv(Location(program, "u_mat4x3"), 1, GL_FALSE, matrix + 1);
  const GLfloat floats[] = {0.25f, 0.5f, 0.75f};
  glUniform1fv(Location(program, "u_floats"), 3, floats);
  const GLint ivecs[] = {3, -4, 5, -6};
  glUniform2iv(Location(program, "u_ivecs"), 2, ivecs);
  glUniform3f(Location(program, "u_light.color"), 0.1f, 0.2f, 0.3f);
  glUniform1i(Location(program, "u_light.kind"), 2);
  glUniformBlockBinding(program, glGetUniformBlockIndex(program, "Block"), 3);
  const char* samplers[] = {"s_2d", "s_cube", "s_3d", "s_array", "s_shadow", "s_i2d",
                            "s_u3d", "s_ms", "s_cube_array", "s_buffer", "s_ms_array"};
  for (int i = 0; i < 11; ++i) glUniform1i(Location(program, samplers[i]), i + 1);
  glUniform4f(Location(program, "f_tint"), 0.5f, 0.25f, 0.125f, 1.0f);
  Check("uniforms");
}

// The vertex arrays of the bound vertex array object: every kind of layout.
void AttributeArrays3(GLuint buffer, GLuint elements, bool named) {
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 28, reinterpret_cast<const void*>(4));
  glEnableVertexAttribArray(0);
  glVertexAttribIPointer(1, 2, GL_SHORT, 8, reinterpret_cast<const void*>(2));
  glEnableVertexAttribArray(1);
  glVertexAttribDivisor(1, 2);
  glVertexAttribIPointer(2, 3, GL_UNSIGNED_BYTE, 0, reinterpret_cast<const void*>(16));  // disabled
  glVertexAttribPointer(3, 3, GL_BYTE, GL_TRUE, 6, reinterpret_cast<const void*>(named ? 12 : 24));
  glEnableVertexAttribArray(3);
  glVertexAttribDivisor(3, named ? 1 : 3);
  const GLint last = Integer(GL_MAX_VERTEX_ATTRIBS) - 1;
  glVertexAttribPointer(static_cast<GLuint>(last), 4, GL_HALF_FLOAT, GL_FALSE, 16, reinterpret_cast<const void*>(32));
  glEnableVertexAttribArray(static_cast<GLuint>(last));
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, elements);
  if (!named) {
    // A client array on the default vertex array object, read by a draw.
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glVertexAttribPointer(5, 4, GL_FLOAT, GL_FALSE, 0, kClientVertices);
    glEnableVertexAttribArray(5);
  }
}

Gles3Objects SetUp3() {
  Gles3Objects o;
  FlipCapabilities(true);
  SetValues(true);  // rasterizer discard is on: the draws here reach no framebuffer

  // Buffers, one per binding point (and their contents).
  const GLint uniform_alignment = Integer(GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT);
  const GLint storage_alignment = Integer(GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT);
  const GLuint vertices = Buffer(GL_ARRAY_BUFFER, 512, GL_DYNAMIC_DRAW, 1);
  const GLuint elements = Buffer(GL_ELEMENT_ARRAY_BUFFER, 64, GL_STATIC_DRAW, 2);
  const GLuint default_elements = Buffer(GL_ELEMENT_ARRAY_BUFFER, 32, GL_STATIC_DRAW, 3);
  const GLuint uniforms = Buffer(GL_UNIFORM_BUFFER, 4 * uniform_alignment, GL_DYNAMIC_DRAW, 4);
  const GLuint feedback = Buffer(GL_TRANSFORM_FEEDBACK_BUFFER, 256, GL_DYNAMIC_COPY, 5);
  const GLuint storage = Buffer(GL_SHADER_STORAGE_BUFFER, 4 * storage_alignment, GL_DYNAMIC_READ, 6);
  const GLuint counters = Buffer(GL_ATOMIC_COUNTER_BUFFER, 64, GL_STREAM_READ, 7);
  const GLuint copy_read = Buffer(GL_COPY_READ_BUFFER, 16, GL_STATIC_READ, 8);
  const GLuint copy_write = Buffer(GL_COPY_WRITE_BUFFER, 16, GL_STATIC_COPY, 9);
  const GLuint pack = Buffer(GL_PIXEL_PACK_BUFFER, 64, GL_STREAM_COPY, 10);
  const GLuint unpack = Buffer(GL_PIXEL_UNPACK_BUFFER, 64, GL_STREAM_DRAW, 11);
  const GLuint dispatch = Buffer(GL_DISPATCH_INDIRECT_BUFFER, 16, GL_STATIC_DRAW, 12);
  const GLuint indirect = Buffer(GL_DRAW_INDIRECT_BUFFER, 32, GL_STATIC_DRAW, 13);
  const GLuint texels = Buffer(GL_TEXTURE_BUFFER, 64, GL_STATIC_DRAW, 14);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);  // the uploads below read client memory
  Check("buffers");

  // Textures: one of every target, each with parameters of its own.
  const GLuint texture_2d = MipmappedTexture(1);
  SetTextureParameters(GL_TEXTURE_2D, true);
  const GLuint cube = CubeTexture(2);
  SetTextureParameters(GL_TEXTURE_CUBE_MAP, true);
  GLuint t[10] = {};
  glGenTextures(10, t);
  glBindTexture(GL_TEXTURE_3D, t[0]);
  glTexStorage3D(GL_TEXTURE_3D, 2, GL_RGBA8, 4, 4, 2);
  glTexSubImage3D(GL_TEXTURE_3D, 0, 0, 0, 0, 4, 4, 2, GL_RGBA, GL_UNSIGNED_BYTE, Texels(32, 3).data());
  SetTextureParameters(GL_TEXTURE_3D, true);
  glBindTexture(GL_TEXTURE_2D_ARRAY, t[1]);
  glTexStorage3D(GL_TEXTURE_2D_ARRAY, 1, GL_RGBA8, 4, 4, 3);
  glTexSubImage3D(GL_TEXTURE_2D_ARRAY, 0, 0, 0, 0, 4, 4, 3, GL_RGBA, GL_UNSIGNED_BYTE, Texels(48, 4).data());
  SetTextureParameters(GL_TEXTURE_2D_ARRAY, true);
  glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, t[2]);
  glTexStorage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, 4, GL_RGBA8, 8, 8, GL_TRUE);
  SetTextureParameters(GL_TEXTURE_2D_MULTISAMPLE, true);
  glBindTexture(GL_TEXTURE_CUBE_MAP_ARRAY, t[3]);
  glTexStorage3D(GL_TEXTURE_CUBE_MAP_ARRAY, 1, GL_RGBA8, 4, 4, 6);
  glTexSubImage3D(GL_TEXTURE_CUBE_MAP_ARRAY, 0, 0, 0, 0, 4, 4, 6, GL_RGBA, GL_UNSIGNED_BYTE, Texels(96, 5).data());
  SetTextureParameters(GL_TEXTURE_CUBE_MAP_ARRAY, true);
  glBindTexture(GL_TEXTURE_2D_MULTISAMPLE_ARRAY, t[4]);
  glTexStorage3DMultisample(GL_TEXTURE_2D_MULTISAMPLE_ARRAY, 2, GL_RGBA8, 4, 4, 2, GL_FALSE);
  SetTextureParameters(GL_TEXTURE_2D_MULTISAMPLE_ARRAY, true);
  glBindTexture(GL_TEXTURE_BUFFER, t[5]);
  glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA8, texels);
  glBindTexture(GL_TEXTURE_EXTERNAL_OES, t[6]);
  // Formats a snapshot cannot read back: depth, integer, compressed (their uploads are kept).
  glBindTexture(GL_TEXTURE_2D, t[7]);
  std::vector<GLuint> depth(16, 0x7fffffffu);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT24, 4, 4, 0, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT, depth.data());
  SetTextureParameters(GL_TEXTURE_2D, true);
  glBindTexture(GL_TEXTURE_2D, t[8]);
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8UI, 2, 2);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 2, 2, GL_RGBA_INTEGER, GL_UNSIGNED_BYTE, Texels(4, 6).data());
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glBindTexture(GL_TEXTURE_2D, t[9]);
  const GLubyte etc2[8] = {0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0};
  glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGB8_ETC2, 4, 4, 0, sizeof etc2, etc2);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  Check("textures");

  // Bound: every target on unit 0 (the first textures), others on units up to the last.
  const GLint units = Integer(GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, texture_2d);
  glBindTexture(GL_TEXTURE_CUBE_MAP, cube);
  glActiveTexture(GL_TEXTURE3);
  glBindTexture(GL_TEXTURE_2D, t[7]);
  glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, t[2]);
  glBindTexture(GL_TEXTURE_2D_MULTISAMPLE_ARRAY, t[4]);
  glActiveTexture(GL_TEXTURE7);
  glBindTexture(GL_TEXTURE_2D, t[8]);
  glBindTexture(GL_TEXTURE_BUFFER, t[5]);
  glBindTexture(GL_TEXTURE_EXTERNAL_OES, t[6]);
  glActiveTexture(GL_TEXTURE0 + static_cast<GLenum>(units / 2));
  glBindTexture(GL_TEXTURE_2D, t[9]);
  glBindTexture(GL_TEXTURE_CUBE_MAP, cube);
  glActiveTexture(GL_TEXTURE0 + static_cast<GLenum>(units - 1));
  glBindTexture(GL_TEXTURE_3D, t[0]);
  glBindTexture(GL_TEXTURE_2D_ARRAY, t[1]);
  glBindTexture(GL_TEXTURE_CUBE_MAP_ARRAY, t[3]);
  GLuint samplers[2] = {};
  glGenSamplers(2, samplers);
  SetSamplerParameters(samplers[0], GL_CLAMP_TO_EDGE);
  SetSamplerParameters(samplers[1], GL_MIRRORED_REPEAT);
  glBindSampler(0, samplers[0]);
  glBindSampler(7, samplers[1]);
  glBindSampler(static_cast<GLuint>(units - 1), samplers[0]);
  Check("texture units");

  // Framebuffers: one to draw into (texture levels and layers, a
  // renderbuffer, a depth-stencil renderbuffer), one to read from (a cube
  // face), each with its draw and read buffers.
  GLuint target = 0, renderbuffers[2] = {}, framebuffers[2] = {};
  glGenTextures(1, &target);
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_2D, target);
  glTexStorage2D(GL_TEXTURE_2D, 2, GL_RGBA8, 16, 16);
  glBindTexture(GL_TEXTURE_2D, 0);
  glGenRenderbuffers(2, renderbuffers);
  glBindRenderbuffer(GL_RENDERBUFFER, renderbuffers[0]);
  glRenderbufferStorageMultisample(GL_RENDERBUFFER, 4, GL_RGBA8, 16, 16);
  glBindRenderbuffer(GL_RENDERBUFFER, renderbuffers[1]);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, 16, 16);
  glGenFramebuffers(2, framebuffers);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffers[0]);
  glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, target, 1);
  glFramebufferRenderbuffer(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT1, GL_RENDERBUFFER, renderbuffers[0]);
  glFramebufferTextureLayer(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT2, t[1], 0, 2);
  glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT3, GL_TEXTURE_2D, texture_2d, 2);
  glFramebufferRenderbuffer(GL_DRAW_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, renderbuffers[1]);
  const GLenum draw_buffers[] = {GL_NONE, GL_COLOR_ATTACHMENT1, GL_NONE, GL_COLOR_ATTACHMENT3};
  glDrawBuffers(4, draw_buffers);
  glReadBuffer(GL_COLOR_ATTACHMENT2);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, framebuffers[1]);
  glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_CUBE_MAP_NEGATIVE_Z, cube, 0);
  glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT1, GL_TEXTURE_2D, texture_2d, 1);
  glReadBuffer(GL_COLOR_ATTACHMENT1);
  o.draw_framebuffer = framebuffers[0];
  o.read_framebuffer = framebuffers[1];
  Check("framebuffers");

  // Programs: one with a uniform of every GLSL ES 3.20 type, its shaders
  // attached; one whose shaders are gone, with transform feedback varyings.
  const GLuint program = Program(Shader(GL_VERTEX_SHADER, kVertex3), Shader(GL_FRAGMENT_SHADER, kFragment3));
  Uniforms3(program);
  const GLuint vertex_b = Shader(GL_VERTEX_SHADER, kVertex3B), fragment_b = Shader(GL_FRAGMENT_SHADER, kFragment3B);
  o.program_b = glCreateProgram();
  glAttachShader(o.program_b, vertex_b);
  glAttachShader(o.program_b, fragment_b);
  const char* varyings[] = {"captured"};
  glTransformFeedbackVaryings(o.program_b, 1, varyings, GL_SEPARATE_ATTRIBS);
  glLinkProgram(o.program_b);
  glDetachShader(o.program_b, vertex_b);
  glDetachShader(o.program_b, fragment_b);
  glDeleteShader(vertex_b);
  glDeleteShader(fragment_b);
  glUseProgram(o.program_b);
  glUniform2f(Location(o.program_b, "offset"), 0.125f, -0.25f);
  glUniform2ui(Location(o.program_b, "mask"), 7u, 9u);
  glUseProgram(program);
  GLuint pipeline = 0;
  glGenProgramPipelines(1, &pipeline);
  glBindProgramPipeline(pipeline);
  Check("programs");

  // Vertex arrays: a named one, and the default one with a client array;
  // current values of attributes no array feeds.
  GLuint vertex_array = 0;
  glGenVertexArrays(1, &vertex_array);
  AttributeArrays3(vertices, default_elements, false);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);  // the other one is incomplete (mixed sample counts)
  glDrawArrays(GL_POINTS, 0, 4);  // reads the client array (rasterizer discard is on)
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, o.draw_framebuffer);
  glBindVertexArray(vertex_array);
  AttributeArrays3(vertices, elements, true);
  glVertexAttrib2f(4, 0.5f, -0.5f);
  glVertexAttrib4f(5, 1.0f, 2.0f, 3.0f, 4.0f);
  Check("vertex arrays");

  // Transform feedback: a named object with its own buffer bindings, and the default one's.
  glBindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 1, feedback, 16, 64);
  GLuint transform_feedback = 0;
  glGenTransformFeedbacks(1, &transform_feedback);
  glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, transform_feedback);
  glBindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 0, feedback, 64, 128);
  glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER,
                   static_cast<GLuint>(Integer(GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS) - 1), feedback);
  Check("transform feedback");

  // Indexed buffer bindings up to the last index, then every generic binding.
  glBindBufferRange(GL_UNIFORM_BUFFER, 0, uniforms, uniform_alignment, 2 * uniform_alignment);
  glBindBufferBase(GL_UNIFORM_BUFFER, static_cast<GLuint>(Integer(GL_MAX_UNIFORM_BUFFER_BINDINGS) - 1), uniforms);
  glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 2, storage, storage_alignment, storage_alignment);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, static_cast<GLuint>(Integer(GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS) - 1),
                   storage);
  glBindBufferRange(GL_ATOMIC_COUNTER_BUFFER, 1, counters, 8, 16);
  glBindBufferBase(GL_ATOMIC_COUNTER_BUFFER, static_cast<GLuint>(Integer(GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS) - 1),
                   counters);
  glBindBuffer(GL_ARRAY_BUFFER, vertices);
  glBindBuffer(GL_COPY_READ_BUFFER, copy_read);
  glBindBuffer(GL_COPY_WRITE_BUFFER, copy_write);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, pack);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, unpack);
  glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, counters);
  glBindBuffer(GL_UNIFORM_BUFFER, copy_write);
  glBindBuffer(GL_ATOMIC_COUNTER_BUFFER, uniforms);
  glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, dispatch);
  glBindBuffer(GL_DRAW_INDIRECT_BUFFER, indirect);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, pack);
  glBindBuffer(GL_TEXTURE_BUFFER, texels);
  Check("buffer bindings");

  glGenQueries(2, o.queries);
  // The default framebuffer reads no buffer.
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  glReadBuffer(GL_NONE);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, o.read_framebuffer);
  glBindRenderbuffer(GL_RENDERBUFFER, renderbuffers[0]);
  glActiveTexture(GL_TEXTURE5);
  SetPixelStore(true);
  return o;
}

void Checkpoints3(const Gles3Objects& o) {
  glFlush();  // 1: as frame 0 left it
  glUseProgram(o.program_b);
  glBindVertexArray(0);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, o.read_framebuffer);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  glBindTransformFeedback(GL_TRANSFORM_FEEDBACK, 0);
  glFlush();  // 2: the other program, the default vertex array and transform feedback, the read framebuffer drawn into
  glBeginQuery(GL_ANY_SAMPLES_PASSED, o.queries[0]);
  glBeginQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, o.queries[1]);
  glFlush();  // 3: the queries the snapshot made, in use
  glEndQuery(GL_ANY_SAMPLES_PASSED);
  glEndQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN);
  Check("checkpoints");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 || (std::strcmp(argv[1], "2") != 0 && std::strcmp(argv[1], "3") != 0)) {
    std::fprintf(stderr, "usage: every_state_app 2|3\n");
    return 2;
  }
  const bool gles3 = argv[1][0] == '3';
  EGLDisplay display = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  if (!eglInitialize(display, nullptr, nullptr)) return std::puts("every_state_app: eglInitialize failed"), 1;
  const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, gles3 ? EGL_OPENGL_ES3_BIT : EGL_OPENGL_ES2_BIT,
                                   EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RED_SIZE, 8, EGL_ALPHA_SIZE, 8,
                                   EGL_DEPTH_SIZE, 16, EGL_STENCIL_SIZE, 8, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint count = 0;
  if (!eglChooseConfig(display, config_attribs, &config, 1, &count) || count < 1) {
    return std::puts("every_state_app: no config"), 1;
  }
  const EGLint gles2_attribs[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
  const EGLint gles3_attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 2, EGL_NONE};
  EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, gles3 ? gles3_attribs : gles2_attribs);
  const EGLint surface_attribs[] = {EGL_WIDTH, 64, EGL_HEIGHT, 48, EGL_NONE};
  EGLSurface surface = eglCreatePbufferSurface(display, config, surface_attribs);
  if (!eglMakeCurrent(display, surface, surface, context)) return std::puts("every_state_app: no context"), 1;

  if (gles3) {
    const Gles3Objects objects = SetUp3();
    eglSwapBuffers(display, surface);
    Checkpoints3(objects);
  } else {
    const Gles2Objects objects = SetUp2();
    eglSwapBuffers(display, surface);
    Checkpoints2(objects);
  }
  eglSwapBuffers(display, surface);
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglTerminate(display);
  return failed ? 1 : 0;
}
