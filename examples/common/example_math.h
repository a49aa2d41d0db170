// Minimal column-major 4x4 matrix helpers for the GLES 2/3 samples
// (same memory layout glUniformMatrix4fv expects with transpose = GL_FALSE).
#pragma once

#include <cmath>
#include <numbers>

namespace ex {

struct Mat4 {
  float m[16];  // m[column * 4 + row]

  static Mat4 identity() {
    Mat4 r{};
    r.m[0] = r.m[5] = r.m[10] = r.m[15] = 1.0f;
    return r;
  }

  friend Mat4 operator*(const Mat4& a, const Mat4& b) {
    Mat4 r{};
    for (int c = 0; c < 4; ++c)
      for (int row = 0; row < 4; ++row) {
        float sum = 0.0f;
        for (int k = 0; k < 4; ++k) sum += a.m[k * 4 + row] * b.m[c * 4 + k];
        r.m[c * 4 + row] = sum;
      }
    return r;
  }
};

inline float radians(float degrees) { return degrees * std::numbers::pi_v<float> / 180.0f; }

inline Mat4 translate(float x, float y, float z) {
  Mat4 r = Mat4::identity();
  r.m[12] = x;
  r.m[13] = y;
  r.m[14] = z;
  return r;
}

inline Mat4 scale(float x, float y, float z) {
  Mat4 r{};
  r.m[0] = x;
  r.m[5] = y;
  r.m[10] = z;
  r.m[15] = 1.0f;
  return r;
}

// Rotation by `degrees` around the axis (x, y, z), like glRotatef.
inline Mat4 rotate(float degrees, float x, float y, float z) {
  const float len = std::sqrt(x * x + y * y + z * z);
  x /= len;
  y /= len;
  z /= len;
  const float c = std::cos(radians(degrees));
  const float s = std::sin(radians(degrees));
  const float t = 1.0f - c;
  Mat4 r = Mat4::identity();
  r.m[0] = t * x * x + c;
  r.m[1] = t * x * y + s * z;
  r.m[2] = t * x * z - s * y;
  r.m[4] = t * x * y - s * z;
  r.m[5] = t * y * y + c;
  r.m[6] = t * y * z + s * x;
  r.m[8] = t * x * z + s * y;
  r.m[9] = t * y * z - s * x;
  r.m[10] = t * z * z + c;
  return r;
}

// Like gluPerspective: vertical field of view in degrees.
inline Mat4 perspective(float fovy_degrees, float aspect, float near_z, float far_z) {
  const float f = 1.0f / std::tan(radians(fovy_degrees) * 0.5f);
  Mat4 r{};
  r.m[0] = f / aspect;
  r.m[5] = f;
  r.m[10] = (far_z + near_z) / (near_z - far_z);
  r.m[11] = -1.0f;
  r.m[14] = 2.0f * far_z * near_z / (near_z - far_z);
  return r;
}

inline Mat4 look_at(float ex, float ey, float ez, float cx, float cy, float cz, float ux,
                    float uy, float uz) {
  float fx = cx - ex, fy = cy - ey, fz = cz - ez;
  float fl = std::sqrt(fx * fx + fy * fy + fz * fz);
  fx /= fl;
  fy /= fl;
  fz /= fl;
  float sx = fy * uz - fz * uy, sy = fz * ux - fx * uz, sz = fx * uy - fy * ux;
  const float sl = std::sqrt(sx * sx + sy * sy + sz * sz);
  sx /= sl;
  sy /= sl;
  sz /= sl;
  const float vx = sy * fz - sz * fy, vy = sz * fx - sx * fz, vz = sx * fy - sy * fx;
  Mat4 r = Mat4::identity();
  r.m[0] = sx;
  r.m[4] = sy;
  r.m[8] = sz;
  r.m[1] = vx;
  r.m[5] = vy;
  r.m[9] = vz;
  r.m[2] = -fx;
  r.m[6] = -fy;
  r.m[10] = -fz;
  r.m[12] = -(sx * ex + sy * ey + sz * ez);
  r.m[13] = -(vx * ex + vy * ey + vz * ez);
  r.m[14] = fx * ex + fy * ey + fz * ez;
  return r;
}

}  // namespace ex
