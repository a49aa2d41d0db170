// libstrata_remote.so's one export: the loader takes every function of a
// driver it does not find by name from its eglGetProcAddress, so the client
// driver's functions never share a symbol name with Strata's own libraries.
#include "remote/generated_support.h"

extern "C" __attribute__((visibility("default"))) __eglMustCastToProperFunctionPointerType eglGetProcAddress(
    const char* procname) {
  return strata::remote::Remote_eglGetProcAddress(procname);
}
