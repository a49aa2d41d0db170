// A test layer: intercepts glClear, eglChooseConfig, glObjectLabelKHR and an
// extension function no registry knows (glStrataTestExtensionEXT), and appends
// "<layer>:<function>" to the file named by STRATA_TEST_RECORD on each call.
// Built several times with different RECORDER_NAME to test stacking; the
// "active" build looks its `next` functions up in Initialize instead.
#include <EGL/egl.h>
#include <GLES2/gl2.h>
#include <fcntl.h>
#include <strata/gles_layer.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>

namespace {

void* g_layer_id = nullptr;
PFNEGLGETNEXTLAYERPROCADDRESSPROC g_get_next = nullptr;
void* g_next_clear = nullptr;
void* g_next_choose_config = nullptr;
void* g_next_object_label = nullptr;
void* g_next_test_extension = nullptr;

void Record(const char* function) {
  const char* path = std::getenv("STRATA_TEST_RECORD");
  if (!path) return;
  std::string line = std::string(RECORDER_NAME) + ":" + function + "\n";
  int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (fd >= 0) {
    if (write(fd, line.data(), line.size()) < 0) { /* the test sees the missing line */ }
    close(fd);
  }
}

void Clear(GLbitfield mask) {
  Record("glClear");
  reinterpret_cast<void (*)(GLbitfield)>(g_next_clear)(mask);
}

EGLBoolean ChooseConfig(EGLDisplay dpy, const EGLint* attribs, EGLConfig* configs, EGLint size, EGLint* count) {
  Record("eglChooseConfig");
  return reinterpret_cast<EGLBoolean (*)(EGLDisplay, const EGLint*, EGLConfig*, EGLint, EGLint*)>(
      g_next_choose_config)(dpy, attribs, configs, size, count);
}

void ObjectLabel(GLenum identifier, GLuint name, GLsizei length, const GLchar* label) {
  Record("glObjectLabelKHR");
  reinterpret_cast<void (*)(GLenum, GLuint, GLsizei, const GLchar*)>(g_next_object_label)(identifier, name, length,
                                                                                            label);
}

void TestExtension(GLint value) {
  Record("glStrataTestExtensionEXT");
  if (g_next_test_extension) reinterpret_cast<void (*)(GLint)>(g_next_test_extension)(value);
}

struct Hook {
  const char* name;
  void* function;
  void** next;
};
const Hook kHooks[] = {
    {"glClear", reinterpret_cast<void*>(&Clear), &g_next_clear},
    {"eglChooseConfig", reinterpret_cast<void*>(&ChooseConfig), &g_next_choose_config},
    {"glObjectLabelKHR", reinterpret_cast<void*>(&ObjectLabel), &g_next_object_label},
    {"glStrataTestExtensionEXT", reinterpret_cast<void*>(&TestExtension), &g_next_test_extension},
};

}  // namespace

extern "C" __attribute__((visibility("default"))) void* AndroidGLESLayer_Initialize(
    void* layer_id, PFNEGLGETNEXTLAYERPROCADDRESSPROC get_next_layer_proc_address) {
  g_layer_id = layer_id;
  g_get_next = get_next_layer_proc_address;
#ifdef RECORDER_ACTIVE
  for (const Hook& hook : kHooks) *hook.next = g_get_next(g_layer_id, hook.name);
  if (!g_next_clear || !g_next_choose_config || !g_next_test_extension) Record("initialize-lookup-failed");
#endif
  return nullptr;
}

extern "C" __attribute__((visibility("default"))) void* AndroidGLESLayer_GetProcAddress(const char* name,
                                                                                      EGLFuncPointer next) {
  for (const Hook& hook : kHooks) {
    if (std::strcmp(name, hook.name) != 0) continue;
#ifndef RECORDER_ACTIVE
    *hook.next = reinterpret_cast<void*>(next);
#endif
    return hook.function;
  }
#ifdef RECORDER_NULL_FOR_OTHERS
  return nullptr;  // misbehaving layer: the loader must treat this as pass-through
#else
  return reinterpret_cast<void*>(next);
#endif
}
