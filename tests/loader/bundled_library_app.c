// Loads the library at argv[1] by absolute path, as a program loads one it
// ships, and prints "marker N" from its BundledEglMarker, or why not.
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char** argv) {
  if (argc != 2) return fprintf(stderr, "usage: bundled_library_app PATH\n"), 2;
  void* library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) return printf("dlopen failed: %s\n", dlerror()), 1;
  int (*marker)(void) = (int (*)(void))dlsym(library, "BundledEglMarker");
  if (marker == NULL) return printf("no BundledEglMarker in what %s loaded\n", argv[1]), 1;
  printf("marker %d\n", marker());
  return 0;
}
