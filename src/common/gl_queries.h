#pragma once
// The two driver queries every reader of GL state makes alike, over
// whichever function pointers it has (the host driver's, the next layer's).

#include <GLES2/gl2.h>

namespace strata {

inline GLint IntegerOf(PFNGLGETINTEGERVPROC get_integer, GLenum pname) {
  GLint value = 0;
  get_integer(pname, &value);
  return value;
}

// Drains the error flags, so that what a reading raised is not taken for the
// next call's. Bounded: a lost context may keep answering an error.
inline void DrainGlErrors(PFNGLGETERRORPROC get_error) {
  for (int i = 0; i < 16 && get_error() != GL_NO_ERROR; ++i) {
  }
}

}  // namespace strata
