#pragma once
// GLES 1.1's fixed-function state that comes as lists: its capabilities,
// client arrays, the parameters of a light and of the material, and a
// texture unit's environment. `strata state` reads them back
// (inspect/gl_state_fixed_function.cpp), a snapshot writes them as calls
// (snapshot/gles1_snapshot.cpp): one list for both.

#include <GLES/gl.h>
#include <GLES/glext.h>

namespace strata {

// glEnable's capabilities (GL_LIGHTi and GL_TEXTURE_2D go per light and per unit).
inline constexpr GLenum kFixedFunctionCapabilities[] = {
    GL_ALPHA_TEST,    GL_BLEND,          GL_COLOR_LOGIC_OP,   GL_COLOR_MATERIAL,  GL_CULL_FACE,
    GL_DEPTH_TEST,    GL_DITHER,         GL_FOG,              GL_LIGHTING,        GL_LINE_SMOOTH,
    GL_MULTISAMPLE,   GL_NORMALIZE,      GL_POINT_SMOOTH,     GL_POINT_SPRITE_OES, GL_POLYGON_OFFSET_FILL,
    GL_RESCALE_NORMAL, GL_SAMPLE_ALPHA_TO_COVERAGE, GL_SAMPLE_ALPHA_TO_ONE, GL_SAMPLE_COVERAGE,
    GL_SCISSOR_TEST,  GL_STENCIL_TEST,   GL_CLIP_PLANE0,      GL_CLIP_PLANE1,     GL_CLIP_PLANE2,
    GL_CLIP_PLANE3,   GL_CLIP_PLANE4,    GL_CLIP_PLANE5};

// glEnableClientState's arrays (GL_TEXTURE_COORD_ARRAY goes per unit).
inline constexpr GLenum kClientArrays[] = {GL_VERTEX_ARRAY, GL_NORMAL_ARRAY, GL_COLOR_ARRAY, GL_POINT_SIZE_ARRAY_OES};

// How a client array is laid out and where it points, by glGet* (size 0:
// its function takes no size; normals have 3 components, point sizes 1).
struct ClientArrayQueries {
  GLenum array, size, type, stride, buffer, pointer;
  GLint fixed_size;
};
inline constexpr ClientArrayQueries kClientArrayQueries[] = {
    {GL_VERTEX_ARRAY, GL_VERTEX_ARRAY_SIZE, GL_VERTEX_ARRAY_TYPE, GL_VERTEX_ARRAY_STRIDE,
     GL_VERTEX_ARRAY_BUFFER_BINDING, GL_VERTEX_ARRAY_POINTER, 0},
    {GL_NORMAL_ARRAY, 0, GL_NORMAL_ARRAY_TYPE, GL_NORMAL_ARRAY_STRIDE, GL_NORMAL_ARRAY_BUFFER_BINDING,
     GL_NORMAL_ARRAY_POINTER, 3},
    {GL_COLOR_ARRAY, GL_COLOR_ARRAY_SIZE, GL_COLOR_ARRAY_TYPE, GL_COLOR_ARRAY_STRIDE, GL_COLOR_ARRAY_BUFFER_BINDING,
     GL_COLOR_ARRAY_POINTER, 0},
    {GL_POINT_SIZE_ARRAY_OES, 0, GL_POINT_SIZE_ARRAY_TYPE_OES, GL_POINT_SIZE_ARRAY_STRIDE_OES,
     GL_POINT_SIZE_ARRAY_BUFFER_BINDING_OES, GL_POINT_SIZE_ARRAY_POINTER_OES, 1},
};
// The texture coordinates of the client's active unit.
inline constexpr ClientArrayQueries kTexCoordArrayQueries = {
    GL_TEXTURE_COORD_ARRAY,        GL_TEXTURE_COORD_ARRAY_SIZE,           GL_TEXTURE_COORD_ARRAY_TYPE,
    GL_TEXTURE_COORD_ARRAY_STRIDE, GL_TEXTURE_COORD_ARRAY_BUFFER_BINDING, GL_TEXTURE_COORD_ARRAY_POINTER, 0};

struct FixedFunctionParameter {
  GLenum pname;
  int count;
};
// glLightfv's parameters.
inline constexpr FixedFunctionParameter kLightParameters[] = {
    {GL_AMBIENT, 4},  {GL_DIFFUSE, 4},       {GL_SPECULAR, 4},          {GL_POSITION, 4},
    {GL_SPOT_DIRECTION, 3}, {GL_SPOT_EXPONENT, 1}, {GL_SPOT_CUTOFF, 1}, {GL_CONSTANT_ATTENUATION, 1},
    {GL_LINEAR_ATTENUATION, 1}, {GL_QUADRATIC_ATTENUATION, 1}};
// glMaterialfv's (GLES 1.1 has one material for both faces).
inline constexpr FixedFunctionParameter kMaterialParameters[] = {
    {GL_AMBIENT, 4}, {GL_DIFFUSE, 4}, {GL_SPECULAR, 4}, {GL_EMISSION, 4}, {GL_SHININESS, 1}};
// glTexEnvi's enum-valued parameters of GL_TEXTURE_ENV.
inline constexpr GLenum kTextureEnvironmentEnums[] = {
    GL_TEXTURE_ENV_MODE, GL_COMBINE_RGB,    GL_COMBINE_ALPHA,  GL_SRC0_RGB,       GL_SRC1_RGB,
    GL_SRC2_RGB,         GL_SRC0_ALPHA,     GL_SRC1_ALPHA,     GL_SRC2_ALPHA,     GL_OPERAND0_RGB,
    GL_OPERAND1_RGB,     GL_OPERAND2_RGB,   GL_OPERAND0_ALPHA, GL_OPERAND1_ALPHA, GL_OPERAND2_ALPHA};
// ... and its float-valued ones (GL_TEXTURE_ENV_COLOR is a vector of four).
inline constexpr GLenum kTextureEnvironmentFloats[] = {GL_RGB_SCALE, GL_ALPHA_SCALE};

}  // namespace strata
