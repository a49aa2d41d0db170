#pragma once
// The helpers the capture rules of api/annotations.txt use to size the data
// behind pointers. Each returns a byte count (or an element count where its
// name says so) for the call at hand, on the calling thread's current
// context. Rules are evaluated before the call for "in" data and after it for
// "out"; every helper is safe on a NULL pointer argument (it returns 0).
//
// The helpers know the arithmetic; what they must know of the context (pixel
// store state, uniform types, format counts) they ask a CaptureState. The
// tracer answers from the driver below it, the remote client from its own
// shadow of the state it sent, the executor from the host driver: one set of
// rules for the encoder, the decoder's checks and the renderer.

#include <cstddef>

#include "strata/api/types.h"

namespace strata::api {
struct Parameter;
}

namespace strata::capture {

// What the current context supports of the pixel-store state. GLES 2 knows
// only GL_UNPACK_ALIGNMENT / GL_PACK_ALIGNMENT unless EXT_unpack_subimage /
// NV_pack_subimage add the rest; asking for the others would raise an error.
struct PixelStoreCaps {
  bool unpack_subimage = false;  // UNPACK_ROW_LENGTH, SKIP_ROWS, SKIP_PIXELS
  bool unpack_3d = false;        // UNPACK_IMAGE_HEIGHT, SKIP_IMAGES
  bool pack_subimage = false;    // PACK_ROW_LENGTH, SKIP_ROWS, SKIP_PIXELS
};

// What a context of `gl_version` (glGetString(GL_VERSION)) with
// `extensions` (GL_EXTENSIONS, may be null where PixelStoreNeedsExtensions
// says no) supports.
PixelStoreCaps PixelStoreCapsOf(const char* gl_version, const char* extensions);
// Whether the extension string matters for a context of `gl_version`: only
// GLES 2's. (A desktop core profile context refuses glGetString(GL_EXTENSIONS)
// with GL_INVALID_ENUM, so it must not be asked without need.)
bool PixelStoreNeedsExtensions(const char* gl_version);
// Whether a space-separated extension list names `name`.
bool HasExtension(const char* list, const char* name);

class CaptureState {
 public:
  virtual ~CaptureState() = default;
  // An integer state value (glGetIntegerv) a rule reads: pixel store,
  // counts of formats. `fallback` when there is no context to ask.
  virtual GLint Integer(GLenum pname, GLint fallback) = 0;
  virtual PixelStoreCaps PixelStore() = 0;
  // Components of the uniform at `location` of `program` (1..16); 0 when
  // there is no such uniform (nothing is written).
  virtual size_t UniformComponents(GLuint program, GLint location) = 0;
  // Active uniforms of uniform block `block` of `program`; 0 when none.
  virtual size_t UniformBlockActiveUniforms(GLuint program, GLuint block) = 0;
  // An integer parameter of NV_path_rendering path object `path`
  // (glGetPathParameterivNV: GL_PATH_COMMAND_COUNT_NV, ...); 0 when there is
  // no such path.
  virtual GLint PathParameter(GLuint path, GLenum pname) = 0;
  // The type of AMD_performance_monitor counter `counter` of `group`
  // (GL_COUNTER_TYPE_AMD: GL_UNSIGNED_INT, GL_UNSIGNED_INT64_AMD, GL_FLOAT,
  // GL_PERCENTAGE_AMD); 0 when there is no such counter.
  virtual GLenum PerfMonitorCounterType(GLuint group, GLuint counter) = 0;
};

class CaptureSizes {
 public:
  // `capacity`: size outputs before the call, as the room the call may
  // write (a bufSize, a maxCount) rather than what it wrote; the executor
  // sizes its output buffers so.
  explicit CaptureSizes(CaptureState& state, bool capacity = false) : state_(state), capacity_(capacity) {}

  // The helpers that need no state are static: code without a context (the
  // remote client's EGL) calls them as CaptureSizes::egl_attrib_list_bytes.

  // NUL-terminated string, terminator included.
  static size_t c_string_bytes(const char* s);
  // A string given with an explicit length: length < 0 means NUL-terminated.
  static size_t counted_string_bytes(GLsizei length, const char* s);
  // What a Get...InfoLog / GetActive... call wrote into a char buffer of
  // buf_size: *length + 1 when `length` is given, else strlen + 1; 0 when
  // buf_size <= 0.
  size_t out_string_bytes(GLsizei buf_size, const GLsizei* length, const char* s) const;
  // Elements actually written to an array of capacity `max_count` when the
  // count written comes back in *count (count may be NULL: then max_count).
  size_t out_elements(GLsizei max_count, const GLsizei* count) const;

  // Pixel transfers, honouring GL_UNPACK_* / GL_PACK_* state.
  size_t unpack_image_bytes(GLsizei width, GLsizei height, GLsizei depth, GLenum format, GLenum type) const;
  size_t pack_image_bytes(GLsizei width, GLsizei height, GLenum format, GLenum type) const;
  // A 2D upload (glTexImage2D, glTexSubImage2D): like unpack_image_bytes with
  // depth 1, but GL_UNPACK_IMAGE_HEIGHT and GL_UNPACK_SKIP_IMAGES do not apply.
  size_t unpack_image_2d_bytes(GLsizei width, GLsizei height, GLenum format, GLenum type) const;
  // Bytes of one pixel of `format` and `type`, no pixel-store state (0 when
  // the pair is unknown); e.g. the texel of glClearTexImageEXT.
  static size_t pixel_bytes(GLenum format, GLenum type);
  // min(bytes, buf_size), 0 when buf_size < 0: the robust (glReadnPixels,
  // glGetnUniform*v) variants never write past buf_size.
  static size_t bounded_bytes(size_t bytes, GLsizei buf_size);

  // `count` elements of `element` bytes; 0 for a count <= 0 (the GL raises
  // GL_INVALID_VALUE and reads nothing; a product would wrap to a huge size).
  static size_t count_bytes(int64_t count, size_t element);

  // Index data of a draw call.
  static size_t index_bytes(GLsizei count, GLenum type);

  // How many values a query or parameter call reads or writes for `pname`
  // (glGet*v, glTexParameter*v, glGetTexParameter*v, glSamplerParameter*v,
  // glGetShaderiv, glGetProgramiv, glGetBufferParameter*v, glGetQueryiv, ...):
  // the parameter table's count (api/parameters.txt), 1 for a pname it does
  // not know. Counts that depend on state (GL_COMPRESSED_TEXTURE_FORMATS, ...) are asked.
  size_t get_value_count(GLenum pname) const;
  // The same for indexed queries (glGetIntegeri_v, glGetBooleani_v,
  // glGetInteger64i_v, glGetFloati_vOES, ...), where `target` is the pname:
  // GL_MAX_COMPUTE_WORK_GROUP_COUNT / _SIZE give one value per index.
  size_t get_indexed_value_count(GLenum target) const;
  // Bytes a glGet*v whose values are `element` bytes each writes for `pname`
  // (a pname of bytes, api::ValueType::kUByte, writes its count of bytes,
  // whatever the element), and the same for the indexed queries.
  size_t get_value_bytes(GLenum pname, size_t element) const;
  size_t get_indexed_value_bytes(GLenum target, size_t element) const;
  // GLES 1.1 fixed-function parameters and state (glLightfv, glFogfv, glTexEnvfv,
  // glGetFixedv, ...): the same table's counts (4 for colours and positions,
  // 3 for directions and attenuation, 16 for matrices).
  size_t gles1_value_count(GLenum pname) const;
  // Components of a uniform at `location` of `program` (1..16), for glGetUniform*v.
  size_t uniform_value_count(GLuint program, GLint location) const;
  // Values glGetActiveUniformBlockiv writes for `pname`.
  size_t uniform_block_value_count(GLuint program, GLuint block_index, GLenum pname) const;
  // Values glGetProgramResourceiv / glGetInternalformativ style calls write:
  // min(count written, buf_size).
  size_t bounded_count(GLsizei buf_size, const GLsizei* length) const;

  // NV_path_rendering: `count` path names, glyph character codes or path
  // coordinates of `type` (GL_BYTE ... GL_FLOAT, GL_2_BYTES_NV ..
  // GL_4_BYTES_NV, or GL_UTF8_NV / GL_UTF16_NV, whose characters are read
  // to find their bytes: a zero character or a malformed one ends the list
  // there); 0 for an unknown type or a count <= 0.
  static size_t path_list_bytes(GLsizei count, GLenum type, const void* list);
  // Floats a path transform of `transform_type` takes (GL_NONE: 0,
  // GL_TRANSLATE_X_NV: 1, ..., GL_TRANSPOSE_AFFINE_3D_NV: 12); 0 when unknown.
  static size_t path_transform_values(GLenum transform_type);

  // Values of a path object's parameter (glGetPathCommandsNV: its
  // GL_PATH_COMMAND_COUNT_NV, ...): what the path holds when the call runs.
  size_t path_value_count(GLuint path, GLenum pname) const;

  // glGetPerfMonitorCounterInfoAMD: GL_COUNTER_TYPE_AMD writes one GLenum,
  // GL_COUNTER_RANGE_AMD two values of the counter's own type (8 bytes each
  // for GL_UNSIGNED_INT64_AMD, else 4). As room (capacity mode) the range
  // is 16 bytes, the most any type takes, without asking the counter's type.
  size_t perf_monitor_counter_info_bytes(GLuint group, GLuint counter, GLenum pname) const;

  // glGetCoverageModulationTableNV: `buf_size` is in bytes (NV_framebuffer_mixed_samples:
  // min(bufsize / sizeof(float), GL_COVERAGE_MODULATION_TABLE_SIZE_NV) floats are written).
  size_t coverage_modulation_table_bytes(GLsizei buf_size) const;

  // glShadingRateSampleOrderCustomNV: GLints in `locations`, an (x, y, s)
  // triple per sample of a fragment of `rate` (width x height pixels) with
  // `samples` samples per pixel; 0 where the GL reads nothing (a one-pixel
  // rate, an unknown one, samples not 1, 2, 4 or 8, more samples than
  // GL_MAX_COARSE_FRAGMENT_SAMPLES_NV).
  size_t shading_rate_sample_locations(GLenum rate, GLuint samples) const;

  // EGL attribute lists up to and including EGL_NONE (NULL: 0).
  static size_t egl_attrib_list_bytes(const EGLint* list);
  static size_t egl_attrib64_list_bytes(const EGLAttrib* list);
  // A GL attribute list of GLint pairs up to and including its GL_NONE
  // (EXT_texture_storage_compression's attrib_list; NULL: 0).
  static size_t gl_attrib_list_bytes(const GLint* list);
  // The most pairs an attribute list scan reads (no call takes more): a
  // longer list has lost its terminator, and is read this far and no further.
  static constexpr size_t kMaxAttribPairs = 512;

 private:
  // The count of values of a parameter of the table (null: one the table does not know).
  size_t ValueCount(const api::Parameter* parameter) const;

  CaptureState& state_;
  bool capacity_;
};

}  // namespace strata::capture
