#pragma once
// Calls through a driver's function table (one function per dispatch slot:
// the host driver's, or the layer below the tracer), for the readers of GL
// state that work on either.

#include <GLES2/gl2.h>

#include "strata/api/functions.h"

namespace strata::capture {

class DriverTable {
 public:
  explicit DriverTable(void* const* functions) : functions_(functions) {}

  template <typename Pfn>
  Pfn Get(api::Slot slot) const {
    return reinterpret_cast<Pfn>(functions_[slot]);
  }
  GLint Integer(GLenum name) const {
    GLint value = 0;
    Get<PFNGLGETINTEGERVPROC>(api::glGetIntegerv)(name, &value);
    return value;
  }

 private:
  void* const* functions_;
};

}  // namespace strata::capture
