#pragma once
// Strata's libGL.so.1 (generated exports in exports_gl.cpp, hand-written part
// in libgl_front.cpp): the system's libGL behind it, and the routed exports
// glXGetProcAddress hands out.

#include <cstddef>

#include "loader/libgl_exports.h"

// The system libGL's function per exported name (kLibGlNames order); the
// forwarding exports jump through it from assembly, hence C linkage.
extern "C" __attribute__((visibility("hidden"))) void* strata_libgl_functions[strata::loader::kLibGlFunctionCount];

namespace strata::loader {

struct RoutedExport {
  const char* name;
  void* function;
};
extern const char* const kLibGlNames[kLibGlFunctionCount];
// Exports of functions Strata serves (GLES), sorted by name.
extern const RoutedExport kRoutedExports[kRoutedExportCount];

}  // namespace strata::loader
