// A libEGL.so of a program's own (SONAME libEGL.so, as ANGLE's that
// Chromium-based programs ship beside themselves): an EGL entry point and a
// function no other libEGL has, which tells the program which one it loaded.
__attribute__((visibility("default"))) int BundledEglMarker(void) { return 4242; }
__attribute__((visibility("default"))) void* eglGetProcAddress(const char* name) {
  (void)name;
  return 0;
}
