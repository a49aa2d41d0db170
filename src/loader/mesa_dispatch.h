#pragma once
// GL calls below the loader without glvnd's hop. Through glvnd a GL call
// takes two stubs before the driver: glvnd's (libGLESv2.so.2: the thread's
// glvnd table, filled from the vendor) and the vendor's own (Mesa's shared
// glapi: the thread's Mesa table, set by Mesa's make-current). Where glvnd can
// only ever pick Mesa, its table holds nothing but Mesa's stubs, so the
// loader's tables can hold them directly: each call then fetches one stub's
// code and data lines fewer, the same as a native program's path
// (docs/benchmarks.md, "glvnd's hop").

#include <string>

namespace strata::loader {

using GlProcAddressFunction = void* (*)(const char*);

// Mesa's _glapi_get_proc_address when the GL calls of every context can skip
// glvnd (the loader asks only for the system's libraries, none named by
// STRATA_DRIVER_* or the remote driver): the system's libEGL is glvnd's
// (libGLdispatch.so.0 loaded), glvnd's list of EGL vendors, those in Strata's
// directory `own_directory` aside, names Mesa's
// libEGL_mesa.so.0 alone, and Mesa's shared glapi (libglapi.so.0, which
// libEGL_mesa loads too: one table per thread) loads. Null otherwise, with
// the reason in `why`; also null when STRATA_GLVND_DISPATCH=1 asks for
// glvnd's path.
GlProcAddressFunction MesaGlDispatchBelowGlvnd(const std::string& own_directory, std::string* why);

}  // namespace strata::loader
