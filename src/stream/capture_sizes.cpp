// The arithmetic of the capture rules (api/annotations.txt); what depends on
// the context comes from the CaptureState.

#include "stream/capture_sizes.h"

#include <EGL/egl.h>
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

#include <algorithm>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "strata/api/parameters.h"

namespace strata::capture {
namespace {

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
  // In 128 bits: the arguments may come from an untrusted stream, and a
  // product that wrapped would size a check too small.
  using Wide = unsigned __int128;
  const PixelLayout layout = Layout(format, type);
  const Wide group = layout.bytes();
  const Wide row_pixels = store.row_length > 0 ? static_cast<Wide>(store.row_length) : static_cast<Wide>(width);
  const Wide rows = store.image_height > 0 ? static_cast<Wide>(store.image_height) : static_cast<Wide>(height);
  Wide alignment = NonNegative(store.alignment);
  if (alignment == 0) alignment = 1;
  Wide row_stride = group * row_pixels;
  if (layout.size < alignment) row_stride = (row_stride + alignment - 1) / alignment * alignment;
  const Wide image_stride = row_stride * rows;
  const Wide total = (NonNegative(store.skip_images) + static_cast<Wide>(depth) - 1) * image_stride +
                     (NonNegative(store.skip_rows) + static_cast<Wide>(height) - 1) * row_stride +
                     (NonNegative(store.skip_pixels) + static_cast<Wide>(width)) * group;
  return total > SIZE_MAX ? SIZE_MAX : static_cast<size_t>(total);
}

PixelStore UnpackStore(CaptureState& state, bool three_d) {
  PixelStore store;
  const PixelStoreCaps caps = state.PixelStore();
  store.alignment = state.Integer(GL_UNPACK_ALIGNMENT, 4);
  if (caps.unpack_subimage) {
    store.row_length = state.Integer(GL_UNPACK_ROW_LENGTH, 0);
    store.skip_pixels = state.Integer(GL_UNPACK_SKIP_PIXELS, 0);
    store.skip_rows = state.Integer(GL_UNPACK_SKIP_ROWS, 0);
  }
  if (three_d && caps.unpack_3d) {
    store.image_height = state.Integer(GL_UNPACK_IMAGE_HEIGHT, 0);
    store.skip_images = state.Integer(GL_UNPACK_SKIP_IMAGES, 0);
  }
  return store;
}

}  // namespace

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

bool PixelStoreNeedsExtensions(const char* gl_version) {
  if (gl_version == nullptr) return false;
  const char* digits = std::strpbrk(gl_version, "0123456789");
  const int major = digits != nullptr ? std::atoi(digits) : 2;
  const bool es = std::strstr(gl_version, "OpenGL ES") != nullptr;
  return es && major < 3;  // GLES 3 (or desktop GL) has them all
}

PixelStoreCaps PixelStoreCapsOf(const char* gl_version, const char* extensions) {
  if (gl_version == nullptr) return {};
  if (!PixelStoreNeedsExtensions(gl_version)) return {true, true, true};
  PixelStoreCaps caps;
  caps.unpack_subimage = HasExtension(extensions, "GL_EXT_unpack_subimage");
  caps.pack_subimage = HasExtension(extensions, "GL_NV_pack_subimage");
  return caps;
}

size_t CaptureSizes::c_string_bytes(const char* s) { return s == nullptr ? 0 : std::strlen(s) + 1; }

size_t CaptureSizes::counted_string_bytes(GLsizei length, const char* s) {
  if (s == nullptr) return 0;
  return length < 0 ? std::strlen(s) + 1 : static_cast<size_t>(length);
}

size_t CaptureSizes::out_string_bytes(GLsizei buf_size, const GLsizei* length, const char* s) const {
  if (s == nullptr || buf_size <= 0) return 0;
  const size_t capacity = static_cast<size_t>(buf_size);
  if (capacity_) return capacity;
  if (length != nullptr) {
    const size_t written = *length > 0 ? static_cast<size_t>(*length) : 0;
    return std::min(written, capacity - 1) + 1;
  }
  return strnlen(s, capacity - 1) + 1;
}

size_t CaptureSizes::out_elements(GLsizei max_count, const GLsizei* count) const {
  if (max_count <= 0) return 0;
  const size_t capacity = static_cast<size_t>(max_count);
  if (count == nullptr || capacity_) return capacity;
  return std::min(NonNegative(*count), capacity);
}

size_t CaptureSizes::bounded_count(GLsizei buf_size, const GLsizei* length) const { return out_elements(buf_size, length); }

size_t CaptureSizes::bounded_bytes(size_t bytes, GLsizei buf_size) { return std::min(bytes, NonNegative(buf_size)); }

size_t CaptureSizes::pixel_bytes(GLenum format, GLenum type) { return Layout(format, type).bytes(); }

size_t CaptureSizes::unpack_image_bytes(GLsizei width, GLsizei height, GLsizei depth, GLenum format, GLenum type) const {
  if (width <= 0 || height <= 0 || depth <= 0) return 0;
  return ImageBytes(width, height, depth, format, type, UnpackStore(state_, true));
}

size_t CaptureSizes::unpack_image_2d_bytes(GLsizei width, GLsizei height, GLenum format, GLenum type) const {
  if (width <= 0 || height <= 0) return 0;
  return ImageBytes(width, height, 1, format, type, UnpackStore(state_, false));
}

size_t CaptureSizes::pack_image_bytes(GLsizei width, GLsizei height, GLenum format, GLenum type) const {
  if (width <= 0 || height <= 0) return 0;
  PixelStore store;
  store.alignment = state_.Integer(GL_PACK_ALIGNMENT, 4);
  if (state_.PixelStore().pack_subimage) {
    store.row_length = state_.Integer(GL_PACK_ROW_LENGTH, 0);
    store.skip_pixels = state_.Integer(GL_PACK_SKIP_PIXELS, 0);
    store.skip_rows = state_.Integer(GL_PACK_SKIP_ROWS, 0);
  }
  return ImageBytes(width, height, 1, format, type, store);
}

size_t CaptureSizes::count_bytes(int64_t count, size_t element) {
  if (count <= 0) return 0;
  const unsigned __int128 bytes = static_cast<unsigned __int128>(count) * element;
  return bytes > SIZE_MAX ? SIZE_MAX : static_cast<size_t>(bytes);
}

size_t CaptureSizes::index_bytes(GLsizei count, GLenum type) {
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

// How many values a query of `pname` writes: the parameter table's count,
// or the value of the pname that counts them (GL_COMPRESSED_TEXTURE_FORMATS:
// GL_NUM_COMPRESSED_TEXTURE_FORMATS); 1 for a pname the table does not know.
size_t CaptureSizes::get_value_count(GLenum pname) const { return ValueCount(api::FindParameter(pname)); }

size_t CaptureSizes::ValueCount(const api::Parameter* parameter) const {
  if (parameter == nullptr) return 1;
  if (parameter->count != 0) return parameter->count;
  return NonNegative(state_.Integer(static_cast<GLenum>(parameter->count_pname), 0));
}

// glGet*i_v: the same table (an indexed pname's count is one index's).
size_t CaptureSizes::get_indexed_value_count(GLenum target) const { return get_value_count(target); }

// EXT_memory_object's UUIDs are 16 bytes: glGetUnsignedBytevEXT writes 16,
// and a driver that answers glGetIntegerv for them (Mesa) writes the same
// bytes, four to an integer; taken as 16 integers, a trace would read past
// the app's buffer and a remote client write past it.
size_t CaptureSizes::get_value_bytes(GLenum pname, size_t element) const {
  const api::Parameter* parameter = api::FindParameter(pname);
  if (parameter != nullptr && parameter->type == api::ValueType::kUByte) return parameter->count;
  return ValueCount(parameter) * element;
}

size_t CaptureSizes::get_indexed_value_bytes(GLenum target, size_t element) const {
  return get_value_bytes(target, element);
}

size_t CaptureSizes::uniform_value_count(GLuint program, GLint location) const {
  if (location < 0) return 0;
  return state_.UniformComponents(program, location);
}

size_t CaptureSizes::uniform_block_value_count(GLuint program, GLuint block_index, GLenum pname) const {
  if (pname != GL_UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES) return 1;
  return state_.UniformBlockActiveUniforms(program, block_index);
}

size_t CaptureSizes::path_list_bytes(GLsizei count, GLenum type, const void* list) {
  if (count <= 0) return 0;
  const size_t n = static_cast<size_t>(count);
  switch (type) {
    case GL_BYTE:
    case GL_UNSIGNED_BYTE:
      return n;
    case GL_SHORT:
    case GL_UNSIGNED_SHORT:
    case 0x1407:  // GL_2_BYTES_NV
      return n * 2;
    case 0x1408:  // GL_3_BYTES_NV
      return n * 3;
    case GL_INT:
    case GL_UNSIGNED_INT:
    case GL_FLOAT:
    case 0x1409:  // GL_4_BYTES_NV
      return n * 4;
    case GL_UTF8_NV: {
      if (list == nullptr) return 0;
      const auto* bytes = static_cast<const uint8_t*>(list);
      size_t at = 0;
      for (size_t c = 0; c < n; ++c) {
        const uint8_t lead = bytes[at];
        const size_t more = lead < 0x80 ? 0 : (lead & 0xE0) == 0xC0 ? 1 : (lead & 0xF0) == 0xE0 ? 2
                          : (lead & 0xF8) == 0xF0 ? 3 : 4;
        if (lead == 0 || more == 4) return at;
        for (size_t k = 1; k <= more; ++k) {
          if ((bytes[at + k] & 0xC0) != 0x80) return at + k;
        }
        at += more + 1;
      }
      return at;
    }
    case GL_UTF16_NV: {
      if (list == nullptr) return 0;
      const auto* bytes = static_cast<const uint8_t*>(list);
      size_t at = 0;
      for (size_t c = 0; c < n; ++c) {
        uint16_t unit;
        std::memcpy(&unit, bytes + at, 2);
        if (unit == 0) return at;
        at += 2;
        if (unit >= 0xD800 && unit < 0xDC00) {  // a high surrogate: its low one follows
          std::memcpy(&unit, bytes + at, 2);
          if (unit < 0xDC00 || unit >= 0xE000) return at;
          at += 2;
        }
      }
      return at;
    }
    default:
      return 0;
  }
}

size_t CaptureSizes::path_transform_values(GLenum transform_type) {
  switch (transform_type) {
    case GL_NONE: return 0;
    case GL_TRANSLATE_X_NV:
    case GL_TRANSLATE_Y_NV: return 1;
    case GL_TRANSLATE_2D_NV: return 2;
    case GL_TRANSLATE_3D_NV: return 3;
    case GL_AFFINE_2D_NV:
    case GL_TRANSPOSE_AFFINE_2D_NV: return 6;
    case GL_AFFINE_3D_NV:
    case GL_TRANSPOSE_AFFINE_3D_NV: return 12;
    default: return 0;
  }
}

size_t CaptureSizes::egl_attrib_list_bytes(const EGLint* list) {
  if (list == nullptr) return 0;
  size_t n = 0;
  while (list[n] != EGL_NONE && n < 2 * kMaxAttribPairs) n += 2;
  return (n + 1) * sizeof(EGLint);
}

size_t CaptureSizes::egl_attrib64_list_bytes(const EGLAttrib* list) {
  if (list == nullptr) return 0;
  size_t n = 0;
  while (list[n] != EGL_NONE && n < 2 * kMaxAttribPairs) n += 2;
  return (n + 1) * sizeof(EGLAttrib);
}

size_t CaptureSizes::gl_attrib_list_bytes(const GLint* list) {
  if (list == nullptr) return 0;
  size_t n = 0;
  while (list[n] != GL_NONE && n < 2 * kMaxAttribPairs) n += 2;
  return (n + 1) * sizeof(GLint);
}

size_t CaptureSizes::path_value_count(GLuint path, GLenum pname) const {
  return NonNegative(state_.PathParameter(path, pname));
}

size_t CaptureSizes::perf_monitor_counter_info_bytes(GLuint group, GLuint counter, GLenum pname) const {
  switch (pname) {
    case GL_COUNTER_TYPE_AMD:
      return sizeof(GLenum);
    case GL_COUNTER_RANGE_AMD:
      if (capacity_) return 2 * sizeof(uint64_t);
      switch (state_.PerfMonitorCounterType(group, counter)) {
        case GL_UNSIGNED_INT64_AMD: return 2 * sizeof(uint64_t);
        case GL_UNSIGNED_INT:
        case GL_FLOAT:
        case GL_PERCENTAGE_AMD: return 2 * sizeof(GLuint);
        default: return 0;  // no such counter: GL_INVALID_VALUE, nothing written
      }
    default:
      return 0;
  }
}

size_t CaptureSizes::coverage_modulation_table_bytes(GLsizei buf_size) const {
  const size_t room = NonNegative(buf_size) / sizeof(GLfloat);
  if (capacity_ || room == 0) return room * sizeof(GLfloat);
  constexpr GLenum kTableSize = 0x9333;  // GL_COVERAGE_MODULATION_TABLE_SIZE_NV
  const GLint entries = state_.Integer(kTableSize, static_cast<GLint>(std::min<size_t>(room, INT32_MAX)));
  return std::min(room, NonNegative(entries)) * sizeof(GLfloat);
}

size_t CaptureSizes::shading_rate_sample_locations(GLenum rate, GLuint samples) const {
  size_t width = 0, height = 0;
  switch (rate) {  // NV_shading_rate_image's rates of more than one pixel
    case 0x9566: width = 1, height = 2; break;  // GL_SHADING_RATE_1_INVOCATION_PER_1X2_PIXELS_NV
    case 0x9567: width = 2, height = 1; break;  // ..._2X1_PIXELS_NV
    case 0x9568: width = 2, height = 2; break;  // ..._2X2_PIXELS_NV
    case 0x9569: width = 2, height = 4; break;  // ..._2X4_PIXELS_NV
    case 0x956A: width = 4, height = 2; break;  // ..._4X2_PIXELS_NV
    case 0x956B: width = 4, height = 4; break;  // ..._4X4_PIXELS_NV
    default: return 0;  // one pixel (GL_INVALID_OPERATION) or no rate (GL_INVALID_ENUM)
  }
  if (samples != 1 && samples != 2 && samples != 4 && samples != 8) return 0;  // GL_INVALID_VALUE
  const size_t fragment_samples = width * height * samples;
  // The specification's first implementation allows 16; only more needs asking.
  constexpr GLenum kMaxCoarseSamples = 0x955F;  // GL_MAX_COARSE_FRAGMENT_SAMPLES_NV
  if (fragment_samples > 16 && fragment_samples > NonNegative(state_.Integer(kMaxCoarseSamples, 16))) return 0;
  return 3 * fragment_samples;
}

// GLES 1.1's fixed-function pnames are rows of the same table.
size_t CaptureSizes::gles1_value_count(GLenum pname) const { return get_value_count(pname); }

}  // namespace strata::capture
