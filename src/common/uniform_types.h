#pragma once
// What a uniform of a given GL type holds: how many values, and of which
// scalar type. The tracer sizes glUniform* data with it (stream/
// driver_capture_state.cpp), `strata state` reads uniforms back with it
// (inspect/gl_state.cpp).

#include <GLES3/gl32.h>

#include <cstddef>

namespace strata {

inline size_t UniformTypeComponents(GLenum type) {
  switch (type) {
    case GL_FLOAT_VEC2:
    case GL_INT_VEC2:
    case GL_UNSIGNED_INT_VEC2:
    case GL_BOOL_VEC2:
      return 2;
    case GL_FLOAT_VEC3:
    case GL_INT_VEC3:
    case GL_UNSIGNED_INT_VEC3:
    case GL_BOOL_VEC3:
      return 3;
    case GL_FLOAT_VEC4:
    case GL_INT_VEC4:
    case GL_UNSIGNED_INT_VEC4:
    case GL_BOOL_VEC4:
    case GL_FLOAT_MAT2:
      return 4;
    case GL_FLOAT_MAT2x3:
    case GL_FLOAT_MAT3x2:
      return 6;
    case GL_FLOAT_MAT2x4:
    case GL_FLOAT_MAT4x2:
      return 8;
    case GL_FLOAT_MAT3:
      return 9;
    case GL_FLOAT_MAT3x4:
    case GL_FLOAT_MAT4x3:
      return 12;
    case GL_FLOAT_MAT4:
      return 16;
    default:
      return 1;  // scalars, samplers, images, atomic counters
  }
}

// Which glGetUniform* reads it back: floats, unsigned ints, or ints (ints,
// bools, samplers and images, whose value is a unit).
enum class UniformScalar { kFloat, kUnsigned, kInt };
inline UniformScalar UniformTypeScalar(GLenum type) {
  switch (type) {
    case GL_FLOAT:
    case GL_FLOAT_VEC2:
    case GL_FLOAT_VEC3:
    case GL_FLOAT_VEC4:
    case GL_FLOAT_MAT2:
    case GL_FLOAT_MAT3:
    case GL_FLOAT_MAT4:
    case GL_FLOAT_MAT2x3:
    case GL_FLOAT_MAT3x2:
    case GL_FLOAT_MAT2x4:
    case GL_FLOAT_MAT4x2:
    case GL_FLOAT_MAT3x4:
    case GL_FLOAT_MAT4x3:
      return UniformScalar::kFloat;
    case GL_UNSIGNED_INT:
    case GL_UNSIGNED_INT_VEC2:
    case GL_UNSIGNED_INT_VEC3:
    case GL_UNSIGNED_INT_VEC4:
      return UniformScalar::kUnsigned;
    default:
      return UniformScalar::kInt;
  }
}

// Samplers of 2D textures (what a render-to-texture pass usually feeds).
inline bool IsTwoDimensionalSampler(GLenum type) {
  return type == GL_SAMPLER_2D || type == GL_SAMPLER_2D_SHADOW || type == GL_INT_SAMPLER_2D ||
         type == GL_UNSIGNED_INT_SAMPLER_2D;
}

// Image uniforms: a shader with one may write memory (imageStore).
inline bool IsImageUniform(GLenum type) {
  switch (type) {
    case GL_IMAGE_2D:
    case GL_IMAGE_3D:
    case GL_IMAGE_CUBE:
    case GL_IMAGE_2D_ARRAY:
    case GL_INT_IMAGE_2D:
    case GL_INT_IMAGE_3D:
    case GL_INT_IMAGE_CUBE:
    case GL_INT_IMAGE_2D_ARRAY:
    case GL_UNSIGNED_INT_IMAGE_2D:
    case GL_UNSIGNED_INT_IMAGE_3D:
    case GL_UNSIGNED_INT_IMAGE_CUBE:
    case GL_UNSIGNED_INT_IMAGE_2D_ARRAY:
    case GL_IMAGE_BUFFER:
    case GL_INT_IMAGE_BUFFER:
    case GL_UNSIGNED_INT_IMAGE_BUFFER:
    case GL_IMAGE_CUBE_MAP_ARRAY:
    case GL_INT_IMAGE_CUBE_MAP_ARRAY:
    case GL_UNSIGNED_INT_IMAGE_CUBE_MAP_ARRAY:
      return true;
    default:
      return false;
  }
}

}  // namespace strata
