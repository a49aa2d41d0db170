#pragma once
// The parts of a GLES context's state that are lists: its capabilities, its
// indexed buffer targets, its texture targets and texture parameters, each
// with the GLES version that has it (20, 30, 31, 32). `strata state` reads
// them back (inspect/gl_state.cpp), a snapshot writes them as calls
// (snapshot/context_snapshot.cpp): one list for both.

#include <GLES2/gl2ext.h>
#include <GLES3/gl32.h>

namespace strata {

struct VersionedEnum {
  GLenum value;
  int min_version;
};

// How many texture units, vertex attributes and indexed binding points are
// read: what a driver reports, up to these (llvmpipe has 192 units and 90
// uniform buffer bindings), so that a driver's nonsense costs no more.
inline constexpr int kMaxTextureUnitsRead = 256;
inline constexpr int kMaxVertexAttributesRead = 64;
inline constexpr int kMaxIndexedBindingsRead = 256;

// glEnable's capabilities.
inline constexpr VersionedEnum kCapabilities[] = {
    {GL_BLEND, 20},           {GL_CULL_FACE, 20},
    {GL_DEPTH_TEST, 20},      {GL_DITHER, 20},
    {GL_POLYGON_OFFSET_FILL, 20}, {GL_SAMPLE_ALPHA_TO_COVERAGE, 20},
    {GL_SAMPLE_COVERAGE, 20}, {GL_SCISSOR_TEST, 20},
    {GL_STENCIL_TEST, 20},    {GL_PRIMITIVE_RESTART_FIXED_INDEX, 30},
    {GL_RASTERIZER_DISCARD, 30}, {GL_SAMPLE_MASK, 31},
    {GL_DEBUG_OUTPUT, 32},    {GL_DEBUG_OUTPUT_SYNCHRONOUS, 32},
    {GL_SAMPLE_SHADING, 32},
};

// Indexed buffer bindings (glBindBufferRange): the target, how many, and the
// indexed queries of what is bound.
struct IndexedBufferTarget {
  GLenum target, max_count, binding, start, size;
  int min_version;
};
inline constexpr IndexedBufferTarget kIndexedBufferTargets[] = {
    {GL_UNIFORM_BUFFER, GL_MAX_UNIFORM_BUFFER_BINDINGS, GL_UNIFORM_BUFFER_BINDING, GL_UNIFORM_BUFFER_START,
     GL_UNIFORM_BUFFER_SIZE, 30},
    {GL_TRANSFORM_FEEDBACK_BUFFER, GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS, GL_TRANSFORM_FEEDBACK_BUFFER_BINDING,
     GL_TRANSFORM_FEEDBACK_BUFFER_START, GL_TRANSFORM_FEEDBACK_BUFFER_SIZE, 30},
    {GL_SHADER_STORAGE_BUFFER, GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS, GL_SHADER_STORAGE_BUFFER_BINDING,
     GL_SHADER_STORAGE_BUFFER_START, GL_SHADER_STORAGE_BUFFER_SIZE, 31},
    {GL_ATOMIC_COUNTER_BUFFER, GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS, GL_ATOMIC_COUNTER_BUFFER_BINDING,
     GL_ATOMIC_COUNTER_BUFFER_START, GL_ATOMIC_COUNTER_BUFFER_SIZE, 31},
};

// Buffer targets with one binding each (glBindBuffer's), but the element
// array buffer, which is a vertex array's.
inline constexpr VersionedEnum kBufferTargets[] = {
    {GL_ARRAY_BUFFER, 20},           {GL_COPY_READ_BUFFER, 30},        {GL_COPY_WRITE_BUFFER, 30},
    {GL_PIXEL_PACK_BUFFER, 30},      {GL_PIXEL_UNPACK_BUFFER, 30},     {GL_TRANSFORM_FEEDBACK_BUFFER, 30},
    {GL_UNIFORM_BUFFER, 30},         {GL_ATOMIC_COUNTER_BUFFER, 31},   {GL_DISPATCH_INDIRECT_BUFFER, 31},
    {GL_DRAW_INDIRECT_BUFFER, 31},   {GL_SHADER_STORAGE_BUFFER, 31},   {GL_TEXTURE_BUFFER, 32},
};

// Texture targets (GL_TEXTURE_EXTERNAL_OES is an extension's, on any version).
inline constexpr VersionedEnum kTextureTargets[] = {
    {GL_TEXTURE_2D, 20},           {GL_TEXTURE_CUBE_MAP, 20},       {GL_TEXTURE_3D, 30},
    {GL_TEXTURE_2D_ARRAY, 30},     {GL_TEXTURE_2D_MULTISAMPLE, 31}, {GL_TEXTURE_CUBE_MAP_ARRAY, 32},
    {GL_TEXTURE_2D_MULTISAMPLE_ARRAY, 32}, {GL_TEXTURE_BUFFER, 32},  {GL_TEXTURE_EXTERNAL_OES, 20},
};

// Targets whose images are layers (attached with glFramebufferTextureLayer).
inline constexpr bool IsLayeredTarget(GLenum target) {
  return target == GL_TEXTURE_3D || target == GL_TEXTURE_2D_ARRAY || target == GL_TEXTURE_CUBE_MAP_ARRAY ||
         target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY;
}

// Sampling parameters a texture and a sampler object share (glTexParameter,
// glSamplerParameter); floats are set with the f variants.
struct SamplingParameter {
  GLenum pname;
  bool is_float;
  int min_version;
};
inline constexpr SamplingParameter kSamplingParameters[] = {
    {GL_TEXTURE_MIN_FILTER, false, 20},   {GL_TEXTURE_MAG_FILTER, false, 20},   {GL_TEXTURE_WRAP_S, false, 20},
    {GL_TEXTURE_WRAP_T, false, 20},       {GL_TEXTURE_WRAP_R, false, 30},       {GL_TEXTURE_MIN_LOD, true, 30},
    {GL_TEXTURE_MAX_LOD, true, 30},       {GL_TEXTURE_COMPARE_MODE, false, 30}, {GL_TEXTURE_COMPARE_FUNC, false, 30},
};
// Parameters of a texture alone.
inline constexpr SamplingParameter kTextureOnlyParameters[] = {
    {GL_TEXTURE_BASE_LEVEL, false, 30}, {GL_TEXTURE_MAX_LEVEL, false, 30}, {GL_TEXTURE_SWIZZLE_R, false, 30},
    {GL_TEXTURE_SWIZZLE_G, false, 30},  {GL_TEXTURE_SWIZZLE_B, false, 30}, {GL_TEXTURE_SWIZZLE_A, false, 30},
};

}  // namespace strata
