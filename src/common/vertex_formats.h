#pragma once
// How many bytes one vertex attribute takes in memory, by its GL type: the
// tracer needs it to record the client-side arrays a draw reads, the
// executor to find them again.

#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

#include <cstddef>
#include <cstdint>

namespace strata {

// `components` values of `type`; the packed 2_10_10_10 types hold all four in one word.
inline size_t VertexAttribBytes(uint32_t type, int64_t components) {
  switch (type) {
    case GL_BYTE:
    case GL_UNSIGNED_BYTE: return static_cast<size_t>(components);
    case GL_SHORT:
    case GL_UNSIGNED_SHORT:
    case GL_HALF_FLOAT:
    case GL_HALF_FLOAT_OES: return 2 * static_cast<size_t>(components);
    case GL_INT_2_10_10_10_REV:
    case GL_UNSIGNED_INT_2_10_10_10_REV: return 4;
    default: return 4 * static_cast<size_t>(components);  // GL_FIXED, GL_INT, GL_UNSIGNED_INT, GL_FLOAT
  }
}

}  // namespace strata
