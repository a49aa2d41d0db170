// gles1_cube: OpenGL ES 1.1 fixed-function sample.
//
// A lit, textured, vertex-coloured cube spins in the middle of the frame while
// a smaller untextured cube orbits it.  Exercises client-side vertex arrays
// (glVertexPointer / glNormalPointer / glColorPointer / glTexCoordPointer),
// glDrawElements, lighting and materials (GL_COLOR_MATERIAL), the matrix
// stacks (glMatrixMode, glFrustumf, glPushMatrix, glRotatef, glScalef),
// depth testing, back-face culling and a mipmapped texture built with
// GL_GENERATE_MIPMAP.
#include <GLES/gl.h>

#include <array>
#include <cstdint>
#include <vector>

#include "example_support.h"

namespace {

constexpr ex::AppInfo kApp{
    "gles1_cube",
    "OpenGL ES 1.1 fixed-function sample: a lit, textured, vertex-coloured cube\n"
    "drawn from client-side arrays, with an orbiting untextured cube.",
    1,
};

struct Vertex {
  GLfloat position[3];
  GLfloat normal[3];
  GLubyte color[4];
  GLfloat uv[2];
};

struct Face {
  GLfloat n[3], u[3], v[3];  // outward normal and two edges with u x v = n
  GLubyte color[3];
};

// 24 vertices (4 per face, so every face has its own normal) and 36 indices.
void build_cube(std::vector<Vertex>* vertices, std::vector<GLubyte>* indices) {
  static const Face faces[6] = {
      {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {230, 60, 50}},    // +X red
      {{-1, 0, 0}, {0, 0, 1}, {0, 1, 0}, {60, 200, 80}},   // -X green
      {{0, 1, 0}, {0, 0, 1}, {1, 0, 0}, {70, 110, 240}},   // +Y blue
      {{0, -1, 0}, {1, 0, 0}, {0, 0, 1}, {240, 210, 60}},  // -Y yellow
      {{0, 0, 1}, {1, 0, 0}, {0, 1, 0}, {220, 80, 220}},   // +Z magenta
      {{0, 0, -1}, {0, 1, 0}, {1, 0, 0}, {60, 210, 220}},  // -Z cyan
  };
  static const GLfloat corners[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
  for (const Face& f : faces) {
    const auto base = static_cast<GLubyte>(vertices->size());
    for (int c = 0; c < 4; ++c) {
      Vertex v{};
      for (int i = 0; i < 3; ++i) {
        v.position[i] = f.n[i] + corners[c][0] * f.u[i] + corners[c][1] * f.v[i];
        v.normal[i] = f.n[i];
      }
      // Slightly brighter towards one corner so the colour array is visible.
      const int boost = c * 10;
      for (int i = 0; i < 3; ++i)
        v.color[i] = static_cast<GLubyte>(f.color[i] + boost > 255 ? 255 : f.color[i] + boost);
      v.color[3] = 255;
      v.uv[0] = corners[c][0] * 0.5f + 0.5f;
      v.uv[1] = corners[c][1] * 0.5f + 0.5f;
      vertices->push_back(v);
    }
    for (GLubyte i : {0, 1, 2, 0, 2, 3}) indices->push_back(static_cast<GLubyte>(base + i));
  }
}

// 64x64 light checkerboard with a dark frame and a ring: modulated with the
// vertex colours and lighting.
std::vector<std::uint8_t> make_texture(int size) {
  std::vector<std::uint8_t> pixels(static_cast<std::size_t>(size * size) * 4);
  for (int y = 0; y < size; ++y)
    for (int x = 0; x < size; ++x) {
      int value = ((x / 8 + y / 8) % 2) ? 255 : 200;
      if (x < 3 || y < 3 || x >= size - 3 || y >= size - 3) value = 60;
      const int dx = 2 * x - size + 1, dy = 2 * y - size + 1;
      const int r2 = dx * dx + dy * dy;
      if (r2 > 34 * 34 && r2 < 42 * 42) value = 90;
      std::uint8_t* p = &pixels[static_cast<std::size_t>(y * size + x) * 4];
      p[0] = p[1] = p[2] = static_cast<std::uint8_t>(value);
      p[3] = 255;
    }
  return pixels;
}

class CubeScene : public ex::Scene {
 public:
  void init(const ex::Context& ctx) override {
    build_cube(&vertices_, &indices_);

    glGenTextures(1, &texture_);
    glBindTexture(GL_TEXTURE_2D, texture_);
    glTexParameteri(GL_TEXTURE_2D, GL_GENERATE_MIPMAP, GL_TRUE);  // GLES 1.1
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    const std::vector<std::uint8_t> pixels = make_texture(kTextureSize);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, kTextureSize, kTextureSize, 0, GL_RGBA,
                 GL_UNSIGNED_BYTE, pixels.data());
    glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_MODULATE);
    ex::check_gl("creating the texture");

    glClearColor(0.08f, 0.09f, 0.14f, 1.0f);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
    glEnable(GL_CULL_FACE);
    glCullFace(GL_BACK);
    glShadeModel(GL_SMOOTH);

    // One white directional light, fixed in eye space.
    glEnable(GL_LIGHTING);
    glEnable(GL_LIGHT0);
    glEnable(GL_NORMALIZE);  // the orbiting cube is scaled
    const GLfloat ambient[] = {0.25f, 0.25f, 0.25f, 1.0f};
    const GLfloat diffuse[] = {0.9f, 0.9f, 0.85f, 1.0f};
    const GLfloat specular[] = {0.6f, 0.6f, 0.6f, 1.0f};
    glLightfv(GL_LIGHT0, GL_AMBIENT, ambient);
    glLightfv(GL_LIGHT0, GL_DIFFUSE, diffuse);
    glLightfv(GL_LIGHT0, GL_SPECULAR, specular);
    const GLfloat mat_specular[] = {0.5f, 0.5f, 0.5f, 1.0f};
    glMaterialfv(GL_FRONT_AND_BACK, GL_SPECULAR, mat_specular);
    glMaterialf(GL_FRONT_AND_BACK, GL_SHININESS, 24.0f);
    // The colour array drives the ambient and diffuse material.
    glEnable(GL_COLOR_MATERIAL);

    glMatrixMode(GL_PROJECTION);
    glLoadIdentity();
    const GLfloat aspect = static_cast<GLfloat>(ctx.width) / static_cast<GLfloat>(ctx.height);
    glFrustumf(-0.5f * aspect, 0.5f * aspect, -0.5f, 0.5f, 1.0f, 30.0f);
    glMatrixMode(GL_MODELVIEW);
    glLoadIdentity();
    const GLfloat light_dir[] = {0.4f, 0.7f, 1.0f, 0.0f};  // w = 0: directional
    glLightfv(GL_LIGHT0, GL_POSITION, light_dir);

    glEnableClientState(GL_VERTEX_ARRAY);
    glEnableClientState(GL_NORMAL_ARRAY);
    glEnableClientState(GL_COLOR_ARRAY);
    const Vertex* v = vertices_.data();
    glVertexPointer(3, GL_FLOAT, sizeof(Vertex), v->position);
    glNormalPointer(GL_FLOAT, sizeof(Vertex), v->normal);
    glColorPointer(4, GL_UNSIGNED_BYTE, sizeof(Vertex), v->color);
    glTexCoordPointer(2, GL_FLOAT, sizeof(Vertex), v->uv);
    ex::check_gl("setting up fixed-function state");
  }

  void draw(const ex::Context& ctx, int frame) override {
    glViewport(0, 0, ctx.width, ctx.height);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    const auto f = static_cast<GLfloat>(frame);

    glLoadIdentity();
    glTranslatef(0.0f, 0.0f, -7.0f);

    // Large textured cube.
    glPushMatrix();
    glRotatef(25.0f + f * 2.0f, 1.0f, 0.0f, 0.0f);
    glRotatef(f * 3.0f, 0.0f, 1.0f, 0.0f);
    glRotatef(f * 0.5f, 0.0f, 0.0f, 1.0f);
    glEnable(GL_TEXTURE_2D);
    glEnableClientState(GL_TEXTURE_COORD_ARRAY);
    glDrawElements(GL_TRIANGLES, static_cast<GLsizei>(indices_.size()), GL_UNSIGNED_BYTE,
                   indices_.data());
    glPopMatrix();

    // Small orbiting cube: colour array only.
    glPushMatrix();
    glRotatef(20.0f, 1.0f, 0.0f, 0.0f);
    glRotatef(f * -4.0f, 0.0f, 1.0f, 0.0f);
    glTranslatef(2.6f, 0.0f, 0.0f);
    glRotatef(f * 6.0f, 1.0f, 1.0f, 0.0f);
    glScalef(0.35f, 0.35f, 0.35f);
    glDisable(GL_TEXTURE_2D);
    glDisableClientState(GL_TEXTURE_COORD_ARRAY);
    glDrawElements(GL_TRIANGLES, static_cast<GLsizei>(indices_.size()), GL_UNSIGNED_BYTE,
                   indices_.data());
    glPopMatrix();
  }

  void cleanup(const ex::Context&) override {
    glDisableClientState(GL_VERTEX_ARRAY);
    glDisableClientState(GL_NORMAL_ARRAY);
    glDisableClientState(GL_COLOR_ARRAY);
    glDeleteTextures(1, &texture_);
  }

 private:
  static constexpr int kTextureSize = 64;
  std::vector<Vertex> vertices_;
  std::vector<GLubyte> indices_;
  GLuint texture_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  CubeScene scene;
  return ex::run(kApp, argc, argv, scene);
}
