// A layer that serves a function no registry knows, glStrataVendorSumEXT, as
// a vendor's driver would serve its own extension: for the trace tests of
// calls to unknown functions. Its many arguments (integers and floating
// point, some of each on the stack) show whether a layer above it hands
// them on untouched.
#include <cstring>

#include "strata/gles_layer.h"

namespace {

double VendorSum(int a, int b, int c, int d, int e, int f, int g, double h0, double h1, double h2, double h3,
                 double h4, double h5, double h6, double h7, double h8, float h9) {
  return a + 2.0 * b + 3.0 * c + 4.0 * d + 5.0 * e + 6.0 * f + 7.0 * g + 8 * h0 + 9 * h1 + 10 * h2 + 11 * h3 +
         12 * h4 + 13 * h5 + 14 * h6 + 15 * h7 + 16 * h8 + 17 * h9;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) void* AndroidGLESLayer_Initialize(void*, void*) { return nullptr; }

extern "C" __attribute__((visibility("default"))) void* AndroidGLESLayer_GetProcAddress(const char* name,
                                                                                      EGLFuncPointer next) {
  if (std::strcmp(name, "glStrataVendorSumEXT") == 0) return reinterpret_cast<void*>(&VendorSum);
  return reinterpret_cast<void*>(next);
}
