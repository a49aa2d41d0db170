#pragma once
// Helpers the capture rules of api/annotations.txt use to size the data behind
// pointers. Each returns a byte count (or an element count where its name
// says so) for the call being traced, on the calling thread's current context.
// Rules are evaluated before the call for "in" data and after it for "out".
// Every helper is safe on a NULL pointer argument (it returns 0).

#include <cstddef>

#include "strata/api/types.h"

namespace strata::trace {

// NUL-terminated string, terminator included.
size_t c_string_bytes(const char* s);
// A string given with an explicit length: length < 0 means NUL-terminated.
size_t counted_string_bytes(GLsizei length, const char* s);
// What a Get...InfoLog / GetActive... call wrote into a char buffer of
// buf_size: *length + 1 when `length` is given, else strlen + 1; 0 when
// buf_size <= 0.
size_t out_string_bytes(GLsizei buf_size, const GLsizei* length, const char* s);
// Elements actually written to an array of capacity `max_count` when the
// count written comes back in *count (count may be NULL: then max_count).
size_t out_elements(GLsizei max_count, const GLsizei* count);

// Pixel transfers, honouring GL_UNPACK_* / GL_PACK_* state.
size_t unpack_image_bytes(GLsizei width, GLsizei height, GLsizei depth, GLenum format, GLenum type);
size_t pack_image_bytes(GLsizei width, GLsizei height, GLenum format, GLenum type);
// A 2D upload (glTexImage2D, glTexSubImage2D): like unpack_image_bytes with
// depth 1, but GL_UNPACK_IMAGE_HEIGHT and GL_UNPACK_SKIP_IMAGES do not apply.
size_t unpack_image_2d_bytes(GLsizei width, GLsizei height, GLenum format, GLenum type);
// Bytes of one pixel of `format` and `type`, no pixel-store state (0 when
// the pair is unknown); e.g. the texel of glClearTexImageEXT.
size_t pixel_bytes(GLenum format, GLenum type);
// min(bytes, buf_size), 0 when buf_size < 0: the robust (glReadnPixels,
// glGetnUniform*v) variants never write past buf_size.
size_t bounded_bytes(size_t bytes, GLsizei buf_size);

// Index data of a draw call.
size_t index_bytes(GLsizei count, GLenum type);

// How many values a query or parameter call reads or writes for `pname`
// (glGet*v, glTexParameter*v, glGetTexParameter*v, glSamplerParameter*v,
// glGetShaderiv, glGetProgramiv, glGetBufferParameter*v, glGetQueryiv, ...).
// Counts that depend on state (GL_COMPRESSED_TEXTURE_FORMATS, ...) are queried.
size_t get_value_count(GLenum pname);
// The same for indexed queries (glGetIntegeri_v, glGetBooleani_v,
// glGetInteger64i_v, glGetFloati_vOES, ...), where `target` is the pname:
// GL_MAX_COMPUTE_WORK_GROUP_COUNT / _SIZE give one value per index.
size_t get_indexed_value_count(GLenum target);
// GLES 1.1 fixed-function parameters and state (glLightfv, glFogfv, glTexEnvfv,
// glGetFixedv, ...): 4 for colours and positions, 3 for directions and
// attenuation, 16 for matrices, else get_value_count(pname).
size_t gles1_value_count(GLenum pname);
// Components of a uniform at `location` of `program` (1..16), for glGetUniform*v.
size_t uniform_value_count(GLuint program, GLint location);
// Values glGetActiveUniformBlockiv writes for `pname`.
size_t uniform_block_value_count(GLuint program, GLuint block_index, GLenum pname);
// Values glGetProgramResourceiv / glGetInternalformativ style calls write:
// min(count written, buf_size).
size_t bounded_count(GLsizei buf_size, const GLsizei* length);

// EGL attribute lists up to and including EGL_NONE (NULL: 0).
size_t egl_attrib_list_bytes(const EGLint* list);
size_t egl_attrib64_list_bytes(const EGLAttrib* list);

}  // namespace strata::trace
