// Part of each public library (libEGL.so.1, libGLESv2.so.2, ...): loading one
// builds the loader and claims the process for this route, before any call of
// the program's, so that glvnd's libEGL below, which may be handed Strata's
// vendor file too, finds the process taken (glvnd_vendor.h).
#include "loader/loader.h"

namespace {
__attribute__((constructor)) void ClaimProcess() { strata::loader::ClaimProcessForPublicLibraries(); }
}  // namespace
