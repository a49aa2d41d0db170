// gles3_instanced: OpenGL ES 3.0 sample.
//
// A 32x32 field of small cubes ripples like a wave.  Exercises:
//  - a vertex array object holding per-vertex and per-instance attributes,
//    with glVertexAttribDivisor and glDrawElementsInstanced (plus
//    gl_InstanceID in the shader);
//  - per-instance data rewritten every frame through glMapBufferRange;
//  - a std140 uniform buffer object (camera, light, fog, time);
//  - GLSL ES 3.00 with multiple render targets: the scene goes into an FBO
//    with two colour attachments (shaded colour and normals, selected with
//    glDrawBuffers and cleared with glClearBufferfv), which are then copied to
//    the window with glBlitFramebuffer: colour full-screen, normals as an
//    inset in the bottom-right corner.
// Time is frame / 30, never the wall clock, so the output is reproducible.
#include <GLES3/gl3.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "example_math.h"
#include "example_support.h"
#include "shader_util.h"

namespace {

constexpr ex::AppInfo kApp{
    "gles3_instanced",
    "OpenGL ES 3.0 sample: instanced cubes from a VAO with glVertexAttribDivisor,\n"
    "per-frame instance data via glMapBufferRange, a std140 uniform buffer, and\n"
    "multiple render targets composited with glBlitFramebuffer.",
    3,
};

constexpr int kGrid = 32;
constexpr int kInstances = kGrid * kGrid;
constexpr GLuint kFrameDataBinding = 0;

const char* const kVs = R"(#version 300 es
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec4 a_offset_scale;  // per instance: xyz offset, w scale
layout(location = 3) in vec4 a_color;         // per instance, normalised bytes

layout(std140) uniform FrameData {
  mat4 u_view_proj;
  vec4 u_light_dir;
  vec4 u_fog_color;
  vec4 u_params;  // x: time, y: fog start, z: fog end
};

out vec3 v_normal;
out vec4 v_color;
out float v_distance;

void main() {
  float angle = u_params.x * 1.5 + float(gl_InstanceID) * 0.37;
  float c = cos(angle);
  float s = sin(angle);
  mat3 spin = mat3(c, 0.0, -s,
                   0.0, 1.0, 0.0,
                   s, 0.0, c);
  vec3 world = spin * a_position * a_offset_scale.w + a_offset_scale.xyz;
  v_normal = spin * a_normal;
  v_color = a_color;
  gl_Position = u_view_proj * vec4(world, 1.0);
  v_distance = gl_Position.w;
}
)";

const char* const kFs = R"(#version 300 es
precision highp float;

layout(std140) uniform FrameData {
  mat4 u_view_proj;
  vec4 u_light_dir;
  vec4 u_fog_color;
  vec4 u_params;
};

in vec3 v_normal;
in vec4 v_color;
in float v_distance;

layout(location = 0) out vec4 o_color;
layout(location = 1) out vec4 o_normal;

void main() {
  vec3 n = normalize(v_normal);
  float diffuse = max(dot(n, u_light_dir.xyz), 0.0);
  vec3 lit = v_color.rgb * (0.3 + 0.7 * diffuse);
  float fog = clamp((v_distance - u_params.y) / (u_params.z - u_params.y), 0.0, 1.0);
  o_color = vec4(mix(lit, u_fog_color.rgb, fog), 1.0);
  o_normal = vec4(n * 0.5 + 0.5, 1.0);
}
)";

// Matches the std140 layout of FrameData: a mat4 then three vec4s.
struct FrameData {
  float view_proj[16];
  float light_dir[4];
  float fog_color[4];
  float params[4];
};
static_assert(sizeof(FrameData) == 112);

struct Instance {
  float offset_scale[4];
  std::uint8_t color[4];
};
static_assert(sizeof(Instance) == 20);

struct MeshVertex {
  float position[3];
  float normal[3];
};

void build_cube(std::vector<MeshVertex>* vertices, std::vector<GLushort>* indices) {
  static const float faces[6][3][3] = {
      // normal, u, v with u x v = normal
      {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}},  {{-1, 0, 0}, {0, 0, 1}, {0, 1, 0}},
      {{0, 1, 0}, {0, 0, 1}, {1, 0, 0}},  {{0, -1, 0}, {1, 0, 0}, {0, 0, 1}},
      {{0, 0, 1}, {1, 0, 0}, {0, 1, 0}},  {{0, 0, -1}, {0, 1, 0}, {1, 0, 0}},
  };
  static const float corners[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
  for (const auto& f : faces) {
    const auto base = static_cast<GLushort>(vertices->size());
    for (const auto& c : corners) {
      MeshVertex v{};
      for (int i = 0; i < 3; ++i) {
        v.position[i] = f[0][i] + c[0] * f[1][i] + c[1] * f[2][i];
        v.normal[i] = f[0][i];
      }
      vertices->push_back(v);
    }
    for (GLushort i : {0, 1, 2, 0, 2, 3}) indices->push_back(static_cast<GLushort>(base + i));
  }
}

std::uint8_t to_byte(float v) {
  v = v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
  return static_cast<std::uint8_t>(std::lround(v * 255.0f));
}

class InstancedScene : public ex::Scene {
 public:
  void init(const ex::Context& ctx) override {
    program_ = ex::link_program(kVs, kFs, "instanced");
    const GLuint block = glGetUniformBlockIndex(program_, "FrameData");
    if (block == GL_INVALID_INDEX) ex::fail("uniform block FrameData not found");
    GLint block_size = 0;
    glGetActiveUniformBlockiv(program_, block, GL_UNIFORM_BLOCK_DATA_SIZE, &block_size);
    if (block_size != static_cast<GLint>(sizeof(FrameData)))
      ex::fail("FrameData block is %d bytes, expected %zu", block_size, sizeof(FrameData));
    glUniformBlockBinding(program_, block, kFrameDataBinding);

    glGenBuffers(1, &ubo_);
    glBindBuffer(GL_UNIFORM_BUFFER, ubo_);
    glBufferData(GL_UNIFORM_BUFFER, sizeof(FrameData), nullptr, GL_DYNAMIC_DRAW);
    glBindBufferBase(GL_UNIFORM_BUFFER, kFrameDataBinding, ubo_);
    ex::check_gl("creating the uniform buffer");

    // Mesh and instance buffers, all captured by one VAO.
    std::vector<MeshVertex> vertices;
    std::vector<GLushort> indices;
    build_cube(&vertices, &indices);
    index_count_ = static_cast<GLsizei>(indices.size());

    glGenVertexArrays(1, &vao_);
    glBindVertexArray(vao_);
    glGenBuffers(1, &mesh_vbo_);
    glBindBuffer(GL_ARRAY_BUFFER, mesh_vbo_);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(vertices.size() * sizeof(MeshVertex)),
                 vertices.data(), GL_STATIC_DRAW);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(MeshVertex),
                          reinterpret_cast<const void*>(offsetof(MeshVertex, position)));
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, sizeof(MeshVertex),
                          reinterpret_cast<const void*>(offsetof(MeshVertex, normal)));
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);

    glGenBuffers(1, &instance_vbo_);
    glBindBuffer(GL_ARRAY_BUFFER, instance_vbo_);
    glBufferData(GL_ARRAY_BUFFER, kInstances * sizeof(Instance), nullptr, GL_DYNAMIC_DRAW);
    glVertexAttribPointer(2, 4, GL_FLOAT, GL_FALSE, sizeof(Instance),
                          reinterpret_cast<const void*>(offsetof(Instance, offset_scale)));
    glVertexAttribPointer(3, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(Instance),
                          reinterpret_cast<const void*>(offsetof(Instance, color)));
    glEnableVertexAttribArray(2);
    glEnableVertexAttribArray(3);
    glVertexAttribDivisor(2, 1);
    glVertexAttribDivisor(3, 1);

    glGenBuffers(1, &ibo_);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ibo_);  // recorded in the VAO
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(indices.size() * sizeof(GLushort)),
                 indices.data(), GL_STATIC_DRAW);
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    ex::check_gl("creating the vertex array");

    // Offscreen target with two colour attachments and depth.
    glGenRenderbuffers(3, renderbuffers_);
    const GLenum formats[3] = {GL_RGBA8, GL_RGBA8, GL_DEPTH_COMPONENT24};
    for (int i = 0; i < 3; ++i) {
      glBindRenderbuffer(GL_RENDERBUFFER, renderbuffers_[i]);
      glRenderbufferStorage(GL_RENDERBUFFER, formats[i], ctx.width, ctx.height);
    }
    glBindRenderbuffer(GL_RENDERBUFFER, 0);
    glGenFramebuffers(1, &fbo_);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
                              renderbuffers_[0]);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT1, GL_RENDERBUFFER,
                              renderbuffers_[1]);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER,
                              renderbuffers_[2]);
    const GLenum draw_buffers[2] = {GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1};
    glDrawBuffers(2, draw_buffers);
    const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    if (status != GL_FRAMEBUFFER_COMPLETE)
      ex::fail("multiple-render-target framebuffer incomplete (status 0x%04x)", status);
    glBindFramebuffer(GL_FRAMEBUFFER, ctx.default_framebuffer);
    ex::check_gl("creating the multiple-render-target framebuffer");

    glEnable(GL_DEPTH_TEST);
    glEnable(GL_CULL_FACE);
  }

  void draw(const ex::Context& ctx, int frame) override {
    const float t = static_cast<float>(frame) / 30.0f;
    update_instances(t);
    update_frame_data(ctx, frame, t);

    // Scene pass into both colour attachments.
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
    glViewport(0, 0, ctx.width, ctx.height);
    static const GLfloat kSky[4] = {0.62f, 0.72f, 0.85f, 1.0f};
    static const GLfloat kNoNormal[4] = {0.1f, 0.1f, 0.1f, 1.0f};
    static const GLfloat kFarDepth = 1.0f;
    glClearBufferfv(GL_COLOR, 0, kSky);
    glClearBufferfv(GL_COLOR, 1, kNoNormal);
    glClearBufferfv(GL_DEPTH, 0, &kFarDepth);
    glUseProgram(program_);
    glBindVertexArray(vao_);
    glDrawElementsInstanced(GL_TRIANGLES, index_count_, GL_UNSIGNED_SHORT, nullptr, kInstances);
    glBindVertexArray(0);

    // Composite: colour full-frame, normals as a framed inset.
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, ctx.default_framebuffer);
    glReadBuffer(GL_COLOR_ATTACHMENT0);
    glBlitFramebuffer(0, 0, ctx.width, ctx.height, 0, 0, ctx.width, ctx.height,
                      GL_COLOR_BUFFER_BIT, GL_NEAREST);
    const int inset_w = ctx.width / 3, inset_h = ctx.height / 3;
    if (inset_w >= 8 && inset_h >= 8) {
      const int x0 = ctx.width - inset_w - 6, y0 = 6;
      glEnable(GL_SCISSOR_TEST);
      glScissor(x0 - 2, y0 - 2, inset_w + 4, inset_h + 4);
      glClearColor(1.0f, 1.0f, 1.0f, 1.0f);
      glClear(GL_COLOR_BUFFER_BIT);
      glDisable(GL_SCISSOR_TEST);
      glReadBuffer(GL_COLOR_ATTACHMENT1);
      glBlitFramebuffer(0, 0, ctx.width, ctx.height, x0, y0, x0 + inset_w, y0 + inset_h,
                        GL_COLOR_BUFFER_BIT, GL_LINEAR);
    }
    glBindFramebuffer(GL_FRAMEBUFFER, ctx.default_framebuffer);
  }

  void cleanup(const ex::Context&) override {
    glUseProgram(0);
    glDeleteFramebuffers(1, &fbo_);
    glDeleteRenderbuffers(3, renderbuffers_);
    glDeleteVertexArrays(1, &vao_);
    glDeleteBuffers(1, &mesh_vbo_);
    glDeleteBuffers(1, &instance_vbo_);
    glDeleteBuffers(1, &ibo_);
    glDeleteBuffers(1, &ubo_);
    glDeleteProgram(program_);
  }

 private:
  // Rewrites every instance's position, size and colour for time t.
  void update_instances(float t) {
    glBindBuffer(GL_ARRAY_BUFFER, instance_vbo_);
    void* mapped = glMapBufferRange(GL_ARRAY_BUFFER, 0, kInstances * sizeof(Instance),
                                    GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT);
    if (mapped == nullptr) {
      ex::check_gl("mapping the instance buffer");
      ex::fail("glMapBufferRange returned NULL");
    }
    auto* instances = static_cast<Instance*>(mapped);
    for (int iz = 0; iz < kGrid; ++iz)
      for (int ix = 0; ix < kGrid; ++ix) {
        const float x = (static_cast<float>(ix) - (kGrid - 1) * 0.5f) * 0.5f;
        const float z = (static_cast<float>(iz) - (kGrid - 1) * 0.5f) * 0.5f;
        const float d = std::sqrt(x * x + z * z);
        const float h = 0.8f * std::sin(d * 1.1f - t * 2.5f) * std::exp(-d * 0.06f) +
                        0.25f * std::sin(x * 0.6f + t);
        Instance& inst = instances[iz * kGrid + ix];
        inst.offset_scale[0] = x;
        inst.offset_scale[1] = h;
        inst.offset_scale[2] = z;
        inst.offset_scale[3] = 0.16f + 0.04f * std::sin(d * 2.0f + t * 3.0f);
        // Height-mapped palette.
        const float k = h * 0.4f + 0.5f;
        inst.color[0] = to_byte(0.5f + 0.5f * std::cos(6.2832f * (k + 0.00f)));
        inst.color[1] = to_byte(0.5f + 0.5f * std::cos(6.2832f * (k + 0.33f)));
        inst.color[2] = to_byte(0.5f + 0.5f * std::cos(6.2832f * (k + 0.67f)));
        inst.color[3] = 255;
      }
    if (glUnmapBuffer(GL_ARRAY_BUFFER) != GL_TRUE) ex::fail("instance buffer was corrupted");
    glBindBuffer(GL_ARRAY_BUFFER, 0);
  }

  void update_frame_data(const ex::Context& ctx, int frame, float t) {
    const float aspect = static_cast<float>(ctx.width) / static_cast<float>(ctx.height);
    const float orbit = ex::radians(static_cast<float>(frame) * 0.75f);
    const ex::Mat4 view = ex::look_at(11.0f * std::sin(orbit), 6.5f, 11.0f * std::cos(orbit),
                                      0.0f, -0.5f, 0.0f, 0.0f, 1.0f, 0.0f);
    const ex::Mat4 view_proj = ex::perspective(45.0f, aspect, 0.5f, 40.0f) * view;
    FrameData data{};
    for (int i = 0; i < 16; ++i) data.view_proj[i] = view_proj.m[i];
    const float l[3] = {0.45f, 0.8f, 0.4f};
    const float len = std::sqrt(l[0] * l[0] + l[1] * l[1] + l[2] * l[2]);
    for (int i = 0; i < 3; ++i) data.light_dir[i] = l[i] / len;
    data.fog_color[0] = 0.62f;
    data.fog_color[1] = 0.72f;
    data.fog_color[2] = 0.85f;
    data.fog_color[3] = 1.0f;
    data.params[0] = t;
    data.params[1] = 8.0f;   // fog start
    data.params[2] = 24.0f;  // fog end
    glBindBuffer(GL_UNIFORM_BUFFER, ubo_);
    glBufferSubData(GL_UNIFORM_BUFFER, 0, sizeof data, &data);
    glBindBuffer(GL_UNIFORM_BUFFER, 0);
  }

  GLuint program_ = 0;
  GLuint ubo_ = 0, vao_ = 0, mesh_vbo_ = 0, instance_vbo_ = 0, ibo_ = 0;
  GLsizei index_count_ = 0;
  GLuint fbo_ = 0;
  GLuint renderbuffers_[3] = {};
};

}  // namespace

int main(int argc, char** argv) {
  InstancedScene scene;
  return ex::run(kApp, argc, argv, scene);
}
