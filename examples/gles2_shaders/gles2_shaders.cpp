// gles2_shaders: OpenGL ES 2.0 programmable-pipeline sample.
//
// Each frame:
//  1. a "plasma" pattern is rendered into a 128x128 texture through a
//     framebuffer object (render-to-texture);
//  2. that texture fills the background;
//  3. a torus from a vertex buffer + index buffer is drawn lit and textured
//     with a procedurally generated, mipmapped (glGenerateMipmap) texture and
//     a time-based tint uniform;
//  4. two translucent panes showing the plasma texture orbit in front of it,
//     alpha-blended without depth writes.
// Time is frame / 30, never the wall clock, so the output is reproducible.
#include <GLES2/gl2.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <numbers>
#include <vector>

#include "example_math.h"
#include "example_support.h"
#include "shader_util.h"

namespace {

constexpr ex::AppInfo kApp{
    "gles2_shaders",
    "OpenGL ES 2.0 sample: GLSL ES 1.00 shaders with uniforms, a VBO + index buffer,\n"
    "a procedural mipmapped texture, alpha blending and a render-to-texture FBO pass.",
    2,
};

constexpr int kTextureSize = 256;
constexpr int kPlasmaSize = 128;
constexpr float kPi = std::numbers::pi_v<float>;

// --- Shaders (GLSL ES 1.00) ------------------------------------------------

const char* const kPlasmaVs = R"(
attribute vec2 a_position;
varying vec2 v_uv;
void main() {
  v_uv = a_position * 0.5 + 0.5;
  gl_Position = vec4(a_position, 0.0, 1.0);
}
)";

const char* const kPlasmaFs = R"(
precision mediump float;
uniform float u_time;
varying vec2 v_uv;
void main() {
  vec2 p = v_uv * 8.0 - 4.0;
  float v = sin(p.x + u_time);
  v += sin((p.y + u_time) * 0.5);
  v += sin((p.x + p.y + u_time) * 0.5);
  vec2 c = p + vec2(2.0 * sin(u_time * 0.3), 2.0 * cos(u_time * 0.5));
  v += sin(sqrt(dot(c, c) + 1.0) + u_time);
  v *= 0.5;
  gl_FragColor = vec4(0.5 + 0.5 * sin(3.14159 * v),
                      0.5 + 0.5 * sin(3.14159 * v + 2.0944),
                      0.5 + 0.5 * sin(3.14159 * v + 4.1888), 1.0);
}
)";

const char* const kQuadVs = R"(
attribute vec2 a_position;
uniform mat4 u_mvp;
varying vec2 v_uv;
void main() {
  v_uv = a_position * 0.5 + 0.5;
  gl_Position = u_mvp * vec4(a_position, 0.0, 1.0);
}
)";

const char* const kQuadFs = R"(
precision mediump float;
uniform sampler2D u_texture;
uniform vec4 u_tint;
varying vec2 v_uv;
void main() {
  gl_FragColor = texture2D(u_texture, v_uv) * u_tint;
}
)";

const char* const kTorusVs = R"(
attribute vec3 a_position;
attribute vec3 a_normal;
attribute vec2 a_uv;
uniform mat4 u_mvp;
uniform mat4 u_model;
varying vec3 v_normal;
varying vec2 v_uv;
void main() {
  v_normal = (u_model * vec4(a_normal, 0.0)).xyz;
  v_uv = a_uv;
  gl_Position = u_mvp * vec4(a_position, 1.0);
}
)";

const char* const kTorusFs = R"(
precision mediump float;
uniform sampler2D u_texture;
uniform vec3 u_light_dir;
uniform vec4 u_tint;
varying vec3 v_normal;
varying vec2 v_uv;
void main() {
  vec3 n = normalize(v_normal);
  float diffuse = max(dot(n, u_light_dir), 0.0);
  vec3 h = normalize(u_light_dir + vec3(0.0, 0.0, 1.0));
  float spec = pow(max(dot(n, h), 0.0), 32.0);
  vec3 base = texture2D(u_texture, v_uv).rgb * u_tint.rgb;
  gl_FragColor = vec4(base * (0.2 + 0.8 * diffuse) + vec3(0.5) * spec, 1.0);
}
)";

// --- Geometry and textures -------------------------------------------------

struct TorusVertex {
  float position[3];
  float normal[3];
  float uv[2];
};

void build_torus(float major, float minor, int rings, int sides,
                 std::vector<TorusVertex>* vertices, std::vector<GLushort>* indices) {
  for (int i = 0; i <= rings; ++i) {
    const float u = static_cast<float>(i) / static_cast<float>(rings);
    const float a = u * 2.0f * kPi;
    for (int j = 0; j <= sides; ++j) {
      const float v = static_cast<float>(j) / static_cast<float>(sides);
      const float b = v * 2.0f * kPi;
      TorusVertex vert{};
      const float ring = major + minor * std::cos(b);
      vert.position[0] = ring * std::cos(a);
      vert.position[1] = minor * std::sin(b);
      vert.position[2] = ring * std::sin(a);
      vert.normal[0] = std::cos(b) * std::cos(a);
      vert.normal[1] = std::sin(b);
      vert.normal[2] = std::cos(b) * std::sin(a);
      vert.uv[0] = u * 6.0f;
      vert.uv[1] = v * 2.0f;
      vertices->push_back(vert);
    }
  }
  const int stride = sides + 1;
  for (int i = 0; i < rings; ++i)
    for (int j = 0; j < sides; ++j) {
      const auto k0 = static_cast<GLushort>(i * stride + j);
      const auto k1 = static_cast<GLushort>((i + 1) * stride + j);
      for (GLushort k : {k0, static_cast<GLushort>(k0 + 1), k1, k1,
                         static_cast<GLushort>(k0 + 1), static_cast<GLushort>(k1 + 1)})
        indices->push_back(k);
    }
}

// Tiles with a per-tile colour from an integer hash, dark grout and a
// diagonal highlight: plenty of detail for the mipmaps to filter.
std::vector<std::uint8_t> make_tile_texture(int size) {
  std::vector<std::uint8_t> pixels(static_cast<std::size_t>(size * size) * 4);
  constexpr int kTile = 32;
  for (int y = 0; y < size; ++y)
    for (int x = 0; x < size; ++x) {
      const unsigned tx = static_cast<unsigned>(x / kTile), ty = static_cast<unsigned>(y / kTile);
      unsigned h = tx * 73856093u ^ ty * 19349663u;
      h = (h ^ (h >> 13)) * 0x5bd1e995u;
      h ^= h >> 15;
      int r = 110 + static_cast<int>(h & 0x7f);
      int g = 110 + static_cast<int>((h >> 8) & 0x7f);
      int b = 110 + static_cast<int>((h >> 16) & 0x7f);
      const int lx = x % kTile, ly = y % kTile;
      if (lx < 2 || ly < 2) r = g = b = 40;                    // grout
      else if ((lx + ly) % 16 < 2) r = g = b = 245;            // highlight
      std::uint8_t* p = &pixels[static_cast<std::size_t>(y * size + x) * 4];
      p[0] = static_cast<std::uint8_t>(r);
      p[1] = static_cast<std::uint8_t>(g);
      p[2] = static_cast<std::uint8_t>(b);
      p[3] = 255;
    }
  return pixels;
}

// --- Scene ------------------------------------------------------------------

class ShaderScene : public ex::Scene {
 public:
  void init(const ex::Context&) override {
    static const char* const kQuadAttribs[] = {"a_position", nullptr};
    static const char* const kTorusAttribs[] = {"a_position", "a_normal", "a_uv", nullptr};
    plasma_.program = ex::link_program(kPlasmaVs, kPlasmaFs, "plasma", kQuadAttribs);
    plasma_.time = ex::uniform_location(plasma_.program, "u_time");
    quad_.program = ex::link_program(kQuadVs, kQuadFs, "quad", kQuadAttribs);
    quad_.mvp = ex::uniform_location(quad_.program, "u_mvp");
    quad_.texture = ex::uniform_location(quad_.program, "u_texture");
    quad_.tint = ex::uniform_location(quad_.program, "u_tint");
    torus_.program = ex::link_program(kTorusVs, kTorusFs, "torus", kTorusAttribs);
    torus_.mvp = ex::uniform_location(torus_.program, "u_mvp");
    torus_.model = ex::uniform_location(torus_.program, "u_model");
    torus_.texture = ex::uniform_location(torus_.program, "u_texture");
    torus_.light_dir = ex::uniform_location(torus_.program, "u_light_dir");
    torus_.tint = ex::uniform_location(torus_.program, "u_tint");

    // Vertex + index buffers.
    std::vector<TorusVertex> vertices;
    std::vector<GLushort> indices;
    build_torus(1.0f, 0.42f, 64, 24, &vertices, &indices);
    torus_index_count_ = static_cast<GLsizei>(indices.size());
    glGenBuffers(1, &torus_vbo_);
    glBindBuffer(GL_ARRAY_BUFFER, torus_vbo_);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(vertices.size() * sizeof(TorusVertex)),
                 vertices.data(), GL_STATIC_DRAW);
    glGenBuffers(1, &torus_ibo_);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, torus_ibo_);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(indices.size() * sizeof(GLushort)),
                 indices.data(), GL_STATIC_DRAW);
    static const GLfloat kQuad[] = {-1, -1, 1, -1, -1, 1, 1, 1};
    glGenBuffers(1, &quad_vbo_);
    glBindBuffer(GL_ARRAY_BUFFER, quad_vbo_);
    glBufferData(GL_ARRAY_BUFFER, sizeof kQuad, kQuad, GL_STATIC_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    ex::check_gl("creating buffers");

    // Procedural texture with a full mipmap chain.
    const std::vector<std::uint8_t> pixels = make_tile_texture(kTextureSize);
    glGenTextures(1, &tile_texture_);
    glBindTexture(GL_TEXTURE_2D, tile_texture_);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, kTextureSize, kTextureSize, 0, GL_RGBA,
                 GL_UNSIGNED_BYTE, pixels.data());
    glGenerateMipmap(GL_TEXTURE_2D);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
    ex::check_gl("creating the tile texture");

    // Render target for the plasma pass.
    glGenTextures(1, &plasma_texture_);
    glBindTexture(GL_TEXTURE_2D, plasma_texture_);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, kPlasmaSize, kPlasmaSize, 0, GL_RGBA,
                 GL_UNSIGNED_BYTE, nullptr);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glGenFramebuffers(1, &plasma_fbo_);
    glBindFramebuffer(GL_FRAMEBUFFER, plasma_fbo_);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, plasma_texture_,
                           0);
    const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    if (status != GL_FRAMEBUFFER_COMPLETE)
      ex::fail("render-to-texture framebuffer incomplete (status 0x%04x)", status);
    glBindTexture(GL_TEXTURE_2D, 0);
    ex::check_gl("creating the render-to-texture framebuffer");

    glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDepthFunc(GL_LEQUAL);
    glEnable(GL_CULL_FACE);
  }

  void draw(const ex::Context& ctx, int frame) override {
    const float t = static_cast<float>(frame) / 30.0f;

    // 1. Render-to-texture pass.
    glBindFramebuffer(GL_FRAMEBUFFER, plasma_fbo_);
    glViewport(0, 0, kPlasmaSize, kPlasmaSize);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_BLEND);
    glUseProgram(plasma_.program);
    glUniform1f(plasma_.time, t);
    draw_quad();

    // 2. Back to the window: background from the plasma texture.
    glBindFramebuffer(GL_FRAMEBUFFER, ctx.default_framebuffer);
    glViewport(0, 0, ctx.width, ctx.height);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, plasma_texture_);
    glUseProgram(quad_.program);
    glUniform1i(quad_.texture, 0);
    const ex::Mat4 identity = ex::Mat4::identity();
    glUniformMatrix4fv(quad_.mvp, 1, GL_FALSE, identity.m);
    glUniform4f(quad_.tint, 0.35f, 0.35f, 0.45f, 1.0f);
    draw_quad();

    // 3. Lit, textured torus.
    const float aspect = static_cast<float>(ctx.width) / static_cast<float>(ctx.height);
    const ex::Mat4 proj = ex::perspective(50.0f, aspect, 0.5f, 20.0f);
    const ex::Mat4 view = ex::translate(0.0f, 0.0f, -4.2f);
    const ex::Mat4 model = ex::rotate(static_cast<float>(frame) * 1.5f, 0.0f, 1.0f, 0.0f) *
                           ex::rotate(60.0f + static_cast<float>(frame) * 2.0f, 1.0f, 0.0f, 0.3f);
    const ex::Mat4 mvp = proj * view * model;
    glEnable(GL_DEPTH_TEST);
    glDepthMask(GL_TRUE);
    glUseProgram(torus_.program);
    glUniformMatrix4fv(torus_.mvp, 1, GL_FALSE, mvp.m);
    glUniformMatrix4fv(torus_.model, 1, GL_FALSE, model.m);
    glUniform3f(torus_.light_dir, 0.38f, 0.57f, 0.73f);  // normalised
    glUniform4f(torus_.tint, 0.75f + 0.25f * std::sin(t), 0.75f + 0.25f * std::sin(t + 2.1f),
                0.75f + 0.25f * std::sin(t + 4.2f), 1.0f);
    glUniform1i(torus_.texture, 0);
    glBindTexture(GL_TEXTURE_2D, tile_texture_);
    glBindBuffer(GL_ARRAY_BUFFER, torus_vbo_);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, torus_ibo_);
    const auto stride = static_cast<GLsizei>(sizeof(TorusVertex));
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, stride,
                          reinterpret_cast<const void*>(offsetof(TorusVertex, position)));
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, stride,
                          reinterpret_cast<const void*>(offsetof(TorusVertex, normal)));
    glVertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, stride,
                          reinterpret_cast<const void*>(offsetof(TorusVertex, uv)));
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
    glEnableVertexAttribArray(2);
    glDrawElements(GL_TRIANGLES, torus_index_count_, GL_UNSIGNED_SHORT, nullptr);
    glDisableVertexAttribArray(1);
    glDisableVertexAttribArray(2);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);

    // 4. Translucent panes, blended over the scene without writing depth.
    glEnable(GL_BLEND);
    glDepthMask(GL_FALSE);
    glDisable(GL_CULL_FACE);
    glUseProgram(quad_.program);
    glBindTexture(GL_TEXTURE_2D, plasma_texture_);
    for (int i = 0; i < 2; ++i) {
      // Orbit in the screen plane, in front of the torus, spinning.
      const float angle = static_cast<float>(frame) * 2.5f + static_cast<float>(i) * 180.0f;
      const ex::Mat4 pane = ex::rotate(angle, 0.0f, 0.0f, 1.0f) * ex::translate(1.1f, 0.0f, 1.0f) *
                            ex::rotate(static_cast<float>(frame) * -4.0f, 0.0f, 0.0f, 1.0f) *
                            ex::scale(0.4f, 0.4f, 1.0f);
      const ex::Mat4 pane_mvp = proj * view * pane;
      glUniformMatrix4fv(quad_.mvp, 1, GL_FALSE, pane_mvp.m);
      if (i == 0)
        glUniform4f(quad_.tint, 1.0f, 0.6f, 0.4f, 0.55f);
      else
        glUniform4f(quad_.tint, 0.4f, 0.7f, 1.0f, 0.55f);
      draw_quad();
    }
    glDepthMask(GL_TRUE);
    glEnable(GL_CULL_FACE);
    glDisable(GL_BLEND);
  }

  void cleanup(const ex::Context&) override {
    glUseProgram(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glDeleteBuffers(1, &torus_vbo_);
    glDeleteBuffers(1, &torus_ibo_);
    glDeleteBuffers(1, &quad_vbo_);
    glDeleteTextures(1, &tile_texture_);
    glDeleteTextures(1, &plasma_texture_);
    glDeleteFramebuffers(1, &plasma_fbo_);
    glDeleteProgram(plasma_.program);
    glDeleteProgram(quad_.program);
    glDeleteProgram(torus_.program);
  }

 private:
  void draw_quad() {
    glBindBuffer(GL_ARRAY_BUFFER, quad_vbo_);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
    glEnableVertexAttribArray(0);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  }

  struct {
    GLuint program = 0;
    GLint time = -1;
  } plasma_;
  struct {
    GLuint program = 0;
    GLint mvp = -1, texture = -1, tint = -1;
  } quad_;
  struct {
    GLuint program = 0;
    GLint mvp = -1, model = -1, texture = -1, light_dir = -1, tint = -1;
  } torus_;
  GLuint torus_vbo_ = 0, torus_ibo_ = 0, quad_vbo_ = 0;
  GLsizei torus_index_count_ = 0;
  GLuint tile_texture_ = 0, plasma_texture_ = 0, plasma_fbo_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  ShaderScene scene;
  return ex::run(kApp, argc, argv, scene);
}
