// A libEGL.so.1 stand-in for the loader's tests: EGL is the system's driver
// (opened apart, by path), but GL names are looked up in the process's global
// scope, as a driver whose eglGetProcAddress uses dlsym(RTLD_DEFAULT) does.
// Under Strata that scope holds Strata's own libGLESv2.so.2 first.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <string.h>

__attribute__((visibility("default"))) void* eglGetProcAddress(const char* name) {
  static void* (*system_get_proc_address)(const char*);
  if (system_get_proc_address == NULL) {
    void* system = dlopen(STRATA_SYSTEM_LIB_DIR "/libEGL.so.1", RTLD_NOW | RTLD_LOCAL);
    if (system != NULL) system_get_proc_address = (void* (*)(const char*))dlsym(system, "eglGetProcAddress");
    if (system_get_proc_address == NULL) return NULL;
  }
  if (strncmp(name, "gl", 2) == 0) return dlsym(RTLD_DEFAULT, name);
  return system_get_proc_address(name);
}
