#pragma once
// The pixel store parameters of GLES 3.2 (glPixelStorei's pnames, which
// glGetIntegerv reads back): state the app sets, the same on every driver.

#include <GLES3/gl32.h>

namespace strata {

inline bool IsPixelStoreParameter(GLenum pname) {
  switch (pname) {
    case GL_UNPACK_ALIGNMENT:
    case GL_UNPACK_ROW_LENGTH:
    case GL_UNPACK_SKIP_PIXELS:
    case GL_UNPACK_SKIP_ROWS:
    case GL_UNPACK_IMAGE_HEIGHT:
    case GL_UNPACK_SKIP_IMAGES:
    case GL_PACK_ALIGNMENT:
    case GL_PACK_ROW_LENGTH:
    case GL_PACK_SKIP_PIXELS:
    case GL_PACK_SKIP_ROWS:
      return true;
    default:
      return false;
  }
}

}  // namespace strata
