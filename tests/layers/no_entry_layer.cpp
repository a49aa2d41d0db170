// A shared library that is not a layer: it lacks AndroidGLESLayer_GetProcAddress.
extern "C" __attribute__((visibility("default"))) void* AndroidGLESLayer_Initialize(void*, void*) { return nullptr; }
