// Helpers that size the data behind pointers for the capture rules of
// api/annotations.txt. Queries go to the layer below the tracer (Next), so
// they are never traced themselves; they are chosen so that they cannot raise
// a GL error the application did not cause (no pname the context lacks).

#include "layers/trace/capture_sizes.h"

#include <EGL/egl.h>
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "layers/trace/next_functions.h"

namespace strata::trace {
namespace {

// Enums some headers lack (desktop GL or newer extensions); the GL never
// reuses an enum value for another meaning, so they are safe in the table.
constexpr GLenum kPolygonMode = 0x0B40;             // GL_POLYGON_MODE(_NV): front, back
constexpr GLenum kPointSizeRange = 0x0B12;          // desktop GL_POINT_SIZE_RANGE
constexpr GLenum kLineWidthRange = 0x0B22;          // desktop GL_LINE_WIDTH_RANGE
constexpr GLenum kDepthBounds = 0x8891;             // GL_DEPTH_BOUNDS_EXT
constexpr GLenum kTextureSwizzleRgba = 0x8E46;      // GL_TEXTURE_SWIZZLE_RGBA
constexpr GLenum kPatchDefaultInnerLevel = 0x8E73;  // desktop GL
constexpr GLenum kPatchDefaultOuterLevel = 0x8E74;  // desktop GL
constexpr GLenum kMultisampleLineWidthRange = 0x9381;
constexpr GLenum kDeviceUuid = 0x9597;  // GL_DEVICE_UUID_EXT (GL_UUID_SIZE_EXT bytes)
constexpr GLenum kDriverUuid = 0x9598;  // GL_DRIVER_UUID_EXT
constexpr GLenum kDeviceLuid = 0x9599;  // GL_DEVICE_LUID_EXT (GL_LUID_SIZE_EXT bytes)
constexpr GLenum kViewportBoundsRange = 0x825D;  // GL_VIEWPORT_BOUNDS_RANGE(_OES)

GLint GetInteger(GLenum pname, GLint fallback) {
  auto get = Next<PFNGLGETINTEGERVPROC>(api::glGetIntegerv);
  if (get == nullptr) return fallback;
  GLint value = fallback;
  get(pname, &value);
  return value;
}

bool HasExtension(const char* list, const char* name) {
  if (list == nullptr) return false;
  const size_t n = std::strlen(name);
  for (const char* p = list; (p = std::strstr(p, name)) != nullptr; p += n) {
    const bool starts = p == list || p[-1] == ' ';
    const bool ends = p[n] == '\0' || p[n] == ' ';
    if (starts && ends) return true;
  }
  return false;
}

// What the current context supports of the pixel-store state. GLES 2 knows
// only GL_UNPACK_ALIGNMENT / GL_PACK_ALIGNMENT unless EXT_unpack_subimage /
// NV_pack_subimage add the rest; asking for the others would raise an error.
struct PixelStoreCaps {
  bool unpack_subimage = false;  // UNPACK_ROW_LENGTH, SKIP_ROWS, SKIP_PIXELS
  bool unpack_3d = false;        // UNPACK_IMAGE_HEIGHT, SKIP_IMAGES
  bool pack_subimage = false;    // PACK_ROW_LENGTH, SKIP_ROWS, SKIP_PIXELS
};

PixelStoreCaps CurrentCaps() {
  struct Cache {
    EGLContext context = EGL_NO_CONTEXT;
    const GLubyte* version = nullptr;
    PixelStoreCaps caps;
  };
  thread_local Cache cache;
  auto get_string = Next<PFNGLGETSTRINGPROC>(api::glGetString);
  if (get_string == nullptr) return {};
  const GLubyte* version = get_string(GL_VERSION);
  if (version == nullptr) return {};  // no current context
  auto current = Next<PFNEGLGETCURRENTCONTEXTPROC>(api::eglGetCurrentContext);
  EGLContext context = current != nullptr ? current() : EGL_NO_CONTEXT;
  if (context == cache.context && version == cache.version && context != EGL_NO_CONTEXT) return cache.caps;

  PixelStoreCaps caps;
  const char* v = reinterpret_cast<const char*>(version);
  const char* digits = std::strpbrk(v, "0123456789");
  const int major = digits != nullptr ? std::atoi(digits) : 2;
  const bool es = std::strstr(v, "OpenGL ES") != nullptr;
  if (!es || major >= 3) {
    caps = {true, true, true};  // GLES 3 (or desktop GL) has them all
  } else {
    const char* ext = reinterpret_cast<const char*>(get_string(GL_EXTENSIONS));
    caps.unpack_subimage = HasExtension(ext, "GL_EXT_unpack_subimage");
    caps.pack_subimage = HasExtension(ext, "GL_NV_pack_subimage");
  }
  cache = {context, version, caps};
  return caps;
}

// Layout of one pixel: `size` bytes per element, `elements` per pixel; a
// packed type is a single element holding all components.
struct PixelLayout {
  size_t size = 0;
  size_t elements = 0;
  size_t bytes() const { return size * elements; }
};

size_t FormatComponents(GLenum format) {
  switch (format) {
    case GL_RED:
    case GL_RED_INTEGER:
    case GL_ALPHA:
    case GL_LUMINANCE:
    case GL_DEPTH_COMPONENT:
    case GL_STENCIL_INDEX:
      return 1;
    case GL_RG:
    case GL_RG_INTEGER:
    case GL_LUMINANCE_ALPHA:
    case GL_DEPTH_STENCIL:
      return 2;
    case GL_RGB:
    case GL_RGB_INTEGER:
    case GL_SRGB_EXT:
      return 3;
    case GL_RGBA:
    case GL_RGBA_INTEGER:
    case GL_BGRA_EXT:
    case GL_SRGB_ALPHA_EXT:
      return 4;
    default:
      return 4;  // unknown: the largest plausible
  }
}

PixelLayout Layout(GLenum format, GLenum type) {
  switch (type) {
    // Packed: one element per pixel.
    case GL_UNSIGNED_SHORT_5_6_5:
    case GL_UNSIGNED_SHORT_4_4_4_4:
    case GL_UNSIGNED_SHORT_5_5_5_1:
    case GL_UNSIGNED_SHORT_4_4_4_4_REV_EXT:
    case GL_UNSIGNED_SHORT_1_5_5_5_REV_EXT:
      return {2, 1};
    case GL_UNSIGNED_INT_2_10_10_10_REV:
    case GL_UNSIGNED_INT_10F_11F_11F_REV:
    case GL_UNSIGNED_INT_5_9_9_9_REV:
    case GL_UNSIGNED_INT_24_8:
      return {4, 1};
    case GL_FLOAT_32_UNSIGNED_INT_24_8_REV:
      return {8, 1};
    // One element per component.
    case GL_UNSIGNED_BYTE:
    case GL_BYTE:
      return {1, FormatComponents(format)};
    case GL_UNSIGNED_SHORT:
    case GL_SHORT:
    case GL_HALF_FLOAT:
    case GL_HALF_FLOAT_OES:
      return {2, FormatComponents(format)};
    case GL_UNSIGNED_INT:
    case GL_INT:
    case GL_FLOAT:
      return {4, FormatComponents(format)};
    default:
      return {4, FormatComponents(format)};  // unknown: the largest plausible
  }
}

struct PixelStore {
  GLint row_length = 0;
  GLint image_height = 0;
  GLint skip_pixels = 0;
  GLint skip_rows = 0;
  GLint skip_images = 0;
  GLint alignment = 4;
};

size_t NonNegative(GLint v) { return v > 0 ? static_cast<size_t>(v) : 0; }

// Bytes from the start of the client memory to the end of the last pixel the
// GL reads or writes (GLES 3.2 section 8.4.4.1, "Unpacking"); the last row
// is not padded to the alignment.
size_t ImageBytes(GLsizei width, GLsizei height, GLsizei depth, GLenum format, GLenum type, const PixelStore& store) {
  if (width <= 0 || height <= 0 || depth <= 0) return 0;
  const PixelLayout layout = Layout(format, type);
  const size_t group = layout.bytes();
  const size_t row_pixels = store.row_length > 0 ? static_cast<size_t>(store.row_length) : static_cast<size_t>(width);
  const size_t rows = store.image_height > 0 ? static_cast<size_t>(store.image_height) : static_cast<size_t>(height);
  size_t alignment = NonNegative(store.alignment);
  if (alignment == 0) alignment = 1;
  size_t row_stride = group * row_pixels;
  if (layout.size < alignment) row_stride = (row_stride + alignment - 1) / alignment * alignment;
  const size_t image_stride = row_stride * rows;
  return (NonNegative(store.skip_images) + static_cast<size_t>(depth) - 1) * image_stride +
         (NonNegative(store.skip_rows) + static_cast<size_t>(height) - 1) * row_stride +
         (NonNegative(store.skip_pixels) + static_cast<size_t>(width)) * group;
}

PixelStore UnpackStore(bool three_d) {
  PixelStore store;
  const PixelStoreCaps caps = CurrentCaps();
  store.alignment = GetInteger(GL_UNPACK_ALIGNMENT, 4);
  if (caps.unpack_subimage) {
    store.row_length = GetInteger(GL_UNPACK_ROW_LENGTH, 0);
    store.skip_pixels = GetInteger(GL_UNPACK_SKIP_PIXELS, 0);
    store.skip_rows = GetInteger(GL_UNPACK_SKIP_ROWS, 0);
  }
  if (three_d && caps.unpack_3d) {
    store.image_height = GetInteger(GL_UNPACK_IMAGE_HEIGHT, 0);
    store.skip_images = GetInteger(GL_UNPACK_SKIP_IMAGES, 0);
  }
  return store;
}

size_t UniformTypeComponents(GLenum type) {
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

}  // namespace

size_t c_string_bytes(const char* s) { return s == nullptr ? 0 : std::strlen(s) + 1; }

size_t counted_string_bytes(GLsizei length, const char* s) {
  if (s == nullptr) return 0;
  return length < 0 ? std::strlen(s) + 1 : static_cast<size_t>(length);
}

size_t out_string_bytes(GLsizei buf_size, const GLsizei* length, const char* s) {
  if (s == nullptr || buf_size <= 0) return 0;
  const size_t capacity = static_cast<size_t>(buf_size);
  if (length != nullptr) {
    const size_t written = *length > 0 ? static_cast<size_t>(*length) : 0;
    return std::min(written, capacity - 1) + 1;
  }
  return strnlen(s, capacity - 1) + 1;
}

size_t out_elements(GLsizei max_count, const GLsizei* count) {
  if (max_count <= 0) return 0;
  const size_t capacity = static_cast<size_t>(max_count);
  if (count == nullptr) return capacity;
  return std::min(NonNegative(*count), capacity);
}

size_t bounded_count(GLsizei buf_size, const GLsizei* length) { return out_elements(buf_size, length); }

size_t bounded_bytes(size_t bytes, GLsizei buf_size) { return std::min(bytes, NonNegative(buf_size)); }

size_t pixel_bytes(GLenum format, GLenum type) { return Layout(format, type).bytes(); }

size_t unpack_image_bytes(GLsizei width, GLsizei height, GLsizei depth, GLenum format, GLenum type) {
  if (width <= 0 || height <= 0 || depth <= 0) return 0;
  return ImageBytes(width, height, depth, format, type, UnpackStore(true));
}

size_t unpack_image_2d_bytes(GLsizei width, GLsizei height, GLenum format, GLenum type) {
  if (width <= 0 || height <= 0) return 0;
  return ImageBytes(width, height, 1, format, type, UnpackStore(false));
}

size_t pack_image_bytes(GLsizei width, GLsizei height, GLenum format, GLenum type) {
  if (width <= 0 || height <= 0) return 0;
  PixelStore store;
  store.alignment = GetInteger(GL_PACK_ALIGNMENT, 4);
  if (CurrentCaps().pack_subimage) {
    store.row_length = GetInteger(GL_PACK_ROW_LENGTH, 0);
    store.skip_pixels = GetInteger(GL_PACK_SKIP_PIXELS, 0);
    store.skip_rows = GetInteger(GL_PACK_SKIP_ROWS, 0);
  }
  return ImageBytes(width, height, 1, format, type, store);
}

size_t index_bytes(GLsizei count, GLenum type) {
  if (count <= 0) return 0;
  switch (type) {
    case GL_UNSIGNED_BYTE:
      return static_cast<size_t>(count);
    case GL_UNSIGNED_SHORT:
      return static_cast<size_t>(count) * 2;
    case GL_UNSIGNED_INT:
      return static_cast<size_t>(count) * 4;
    default:
      return 0;  // GL_INVALID_ENUM: nothing is read
  }
}

size_t get_value_count(GLenum pname) {
  switch (pname) {
    case GL_ALIASED_LINE_WIDTH_RANGE:
    case GL_ALIASED_POINT_SIZE_RANGE:
    case GL_MAX_VIEWPORT_DIMS:
    case GL_DEPTH_RANGE:
    case GL_SAMPLE_POSITION:
    case kViewportBoundsRange:
    case kMultisampleLineWidthRange:
    case kPolygonMode:
    case kPointSizeRange:
    case kLineWidthRange:
    case kDepthBounds:
    case kPatchDefaultInnerLevel:
      return 2;
    case GL_MAX_COMPUTE_WORK_GROUP_COUNT:  // 3 through glGetIntegerv; see get_indexed_value_count
    case GL_MAX_COMPUTE_WORK_GROUP_SIZE:
    case GL_COMPUTE_WORK_GROUP_SIZE:  // glGetProgramiv
      return 3;
    case GL_VIEWPORT:
    case GL_SCISSOR_BOX:
    case GL_COLOR_CLEAR_VALUE:
    case GL_COLOR_WRITEMASK:
    case GL_BLEND_COLOR:
    case GL_TEXTURE_BORDER_COLOR:
    case GL_CURRENT_VERTEX_ATTRIB:
    case kTextureSwizzleRgba:
    case kPatchDefaultOuterLevel:
      return 4;
    case GL_PRIMITIVE_BOUNDING_BOX:
      return 8;
    case kDeviceLuid:
      return 8;
    case kDeviceUuid:
    case kDriverUuid:
      return 16;
    case GL_COMPRESSED_TEXTURE_FORMATS:
      return NonNegative(GetInteger(GL_NUM_COMPRESSED_TEXTURE_FORMATS, 0));
    case GL_PROGRAM_BINARY_FORMATS:
      return NonNegative(GetInteger(GL_NUM_PROGRAM_BINARY_FORMATS, 0));
    case GL_SHADER_BINARY_FORMATS:
      return NonNegative(GetInteger(GL_NUM_SHADER_BINARY_FORMATS, 0));
    default:
      return 1;
  }
}

size_t get_indexed_value_count(GLenum target) {
  switch (target) {
    case GL_MAX_COMPUTE_WORK_GROUP_COUNT:
    case GL_MAX_COMPUTE_WORK_GROUP_SIZE:
      return 1;
    default:
      return get_value_count(target);
  }
}

size_t uniform_value_count(GLuint program, GLint location) {
  if (location < 0) return 0;
  auto is_program = Next<PFNGLISPROGRAMPROC>(api::glIsProgram);
  auto get_programiv = Next<PFNGLGETPROGRAMIVPROC>(api::glGetProgramiv);
  auto get_active = Next<PFNGLGETACTIVEUNIFORMPROC>(api::glGetActiveUniform);
  auto get_location = Next<PFNGLGETUNIFORMLOCATIONPROC>(api::glGetUniformLocation);
  if (is_program == nullptr || get_programiv == nullptr || get_active == nullptr || get_location == nullptr) return 16;
  if (!is_program(program)) return 0;
  GLint linked = GL_FALSE;
  get_programiv(program, GL_LINK_STATUS, &linked);
  if (!linked) return 0;
  GLint count = 0;
  GLint max_length = 0;
  get_programiv(program, GL_ACTIVE_UNIFORMS, &count);
  get_programiv(program, GL_ACTIVE_UNIFORM_MAX_LENGTH, &max_length);
  std::vector<char> name(static_cast<size_t>(std::max(max_length, 1)) + 16);

  struct Array {
    std::string base;  // name without "[0]"
    GLint location;
    GLint size;
    GLenum type;
  };
  std::vector<Array> arrays;
  for (GLint i = 0; i < count; ++i) {
    GLsizei length = 0;
    GLint size = 0;
    GLenum type = 0;
    get_active(program, static_cast<GLuint>(i), static_cast<GLsizei>(name.size()), &length, &size, &type, name.data());
    if (length <= 0) continue;
    const GLint base = get_location(program, name.data());
    if (base < 0) continue;  // a uniform block member
    if (base == location) return UniformTypeComponents(type);
    if (size > 1) {
      std::string n(name.data(), static_cast<size_t>(length));
      if (n.size() > 3 && n.compare(n.size() - 3, 3, "[0]") == 0) n.resize(n.size() - 3);
      arrays.push_back({n, base, size, type});
    }
  }
  // An element of an array: locations are usually consecutive, so try the
  // element that would have it first, then all of them.
  for (const Array& a : arrays) {
    const GLint k = location - a.location;
    if (k > 0 && k < a.size &&
        get_location(program, (a.base + "[" + std::to_string(k) + "]").c_str()) == location) {
      return UniformTypeComponents(a.type);
    }
  }
  for (const Array& a : arrays) {
    for (GLint k = 1; k < a.size; ++k) {
      if (get_location(program, (a.base + "[" + std::to_string(k) + "]").c_str()) == location) {
        return UniformTypeComponents(a.type);
      }
    }
  }
  return 0;  // no such location: GL_INVALID_OPERATION, nothing written
}

size_t uniform_block_value_count(GLuint program, GLuint block_index, GLenum pname) {
  if (pname != GL_UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES) return 1;
  auto is_program = Next<PFNGLISPROGRAMPROC>(api::glIsProgram);
  auto get_blockiv = Next<PFNGLGETACTIVEUNIFORMBLOCKIVPROC>(api::glGetActiveUniformBlockiv);
  auto get_programiv = Next<PFNGLGETPROGRAMIVPROC>(api::glGetProgramiv);
  if (is_program == nullptr || get_blockiv == nullptr || get_programiv == nullptr || !is_program(program)) return 0;
  GLint blocks = 0;
  get_programiv(program, GL_ACTIVE_UNIFORM_BLOCKS, &blocks);
  if (block_index >= NonNegative(blocks)) return 0;  // GL_INVALID_VALUE
  GLint active = 0;
  get_blockiv(program, block_index, GL_UNIFORM_BLOCK_ACTIVE_UNIFORMS, &active);
  return NonNegative(active);
}

// No EGL call takes more attributes than this; a longer list has lost its EGL_NONE.
constexpr size_t kMaxAttribPairs = 512;

size_t egl_attrib_list_bytes(const EGLint* list) {
  if (list == nullptr) return 0;
  size_t n = 0;
  while (list[n] != EGL_NONE && n < 2 * kMaxAttribPairs) n += 2;
  return (n + 1) * sizeof(EGLint);
}

size_t egl_attrib64_list_bytes(const EGLAttrib* list) {
  if (list == nullptr) return 0;
  size_t n = 0;
  while (list[n] != EGL_NONE && n < 2 * kMaxAttribPairs) n += 2;
  return (n + 1) * sizeof(EGLAttrib);
}

}  // namespace strata::trace

namespace strata::trace {

size_t gles1_value_count(GLenum pname) {
  // GLES 1.1 enum values (GLES/gl.h), spelled out to keep this file on GLES 3 headers.
  switch (pname) {
    case 0x0B66:  // GL_FOG_COLOR
    case 0x0B53:  // GL_LIGHT_MODEL_AMBIENT
    case 0x1200:  // GL_AMBIENT
    case 0x1201:  // GL_DIFFUSE
    case 0x1202:  // GL_SPECULAR
    case 0x1203:  // GL_POSITION
    case 0x1600:  // GL_EMISSION
    case 0x1602:  // GL_AMBIENT_AND_DIFFUSE
    case 0x2201:  // GL_TEXTURE_ENV_COLOR
    case 0x0B00:  // GL_CURRENT_COLOR
    case 0x0B03:  // GL_CURRENT_TEXTURE_COORDS
    case 0x8B9D:  // GL_TEXTURE_CROP_RECT_OES
      return 4;
    case 0x1204:  // GL_SPOT_DIRECTION
    case 0x8129:  // GL_POINT_DISTANCE_ATTENUATION
    case 0x0B02:  // GL_CURRENT_NORMAL
      return 3;
    case 0x0BA6:  // GL_MODELVIEW_MATRIX
    case 0x0BA7:  // GL_PROJECTION_MATRIX
    case 0x0BA8:  // GL_TEXTURE_MATRIX
      return 16;
    case 0x0B12:  // GL_SMOOTH_POINT_SIZE_RANGE
    case 0x0B22:  // GL_SMOOTH_LINE_WIDTH_RANGE
      return 2;
    default:
      return get_value_count(pname);
  }
}

}  // namespace strata::trace
