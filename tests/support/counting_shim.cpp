// The test's own call counter, preloaded into a traced program (LD_PRELOAD):
// it counts every EGL/GLES call the program makes, as the program makes it,
// before Strata's libraries see it. Trace tests compare its counts with the
// trace, so a call the tracer drops or invents is noticed by something that
// shares no code with Strata's dispatch.
//
// The stubs are generated from the EGL/GLES libraries' exports
// (make_counting_shim.py); this file points them at the next library in the
// search order and hands out counting stubs from eglGetProcAddress and
// glXGetProcAddress(ARB). Programs
// that dlopen the EGL or GLES libraries themselves (glmark2) get this library's
// handle back, so their dlsym finds the counting stubs too. At exit,
// a process that made calls appends "name count" lines to the file named by
// COUNTING_SHIM_OUTPUT, and "unstubbed name" for each function it handed out
// uncounted (one no library exports).
#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <string>

extern "C" {
extern const char* const counting_shim_names[];
extern void* const counting_shim_proc_stubs[];
extern const unsigned long counting_shim_function_count;
extern unsigned long counting_shim_counts[];
extern void* counting_shim_exported_targets[];
extern void* counting_shim_proc_targets[];
}

namespace {

using GetProcAddress = void* (*)(const char*);
GetProcAddress next_get_proc_address;
unsigned long get_proc_address_calls;
std::mutex unstubbed_mutex;
std::set<std::string>* unstubbed;  // never freed: read by the exit handler

[[noreturn]] void NoNextFunction() {
  static const char message[] = "counting shim: the program called a function no later library defines\n";
  (void)!write(2, message, sizeof message - 1);
  abort();
}

const char* BaseName(const char* path) {
  const char* slash = std::strrchr(path, '/');
  return slash ? slash + 1 : path;
}

bool StartsWith(const char* text, const char* prefix) { return std::strncmp(text, prefix, std::strlen(prefix)) == 0; }

// The program's own dlopen calls, from its executable or its libraries (piglit
// goes through waffle); not those of the GL implementation itself (Strata's
// loader, glvnd), which opens these libraries for its own use.
bool CalledByTheProgram(const void* return_address) {
  Dl_info caller;
  if (dladdr(return_address, &caller) == 0 || caller.dli_fname == nullptr) return true;
  const char* base = BaseName(caller.dli_fname);
  return !(StartsWith(base, "libEGL") || StartsWith(base, "libGL") || StartsWith(base, "libstrata"));
}

bool IsCountedLibrary(const char* file) {
  if (file == nullptr) return false;
  const char* base = BaseName(file);
  return StartsWith(base, "libEGL.so") || StartsWith(base, "libGLESv2.so") || StartsWith(base, "libGLESv1_CM.so");
}

long IndexOf(const char* name) {  // the names are sorted
  long low = 0, high = static_cast<long>(counting_shim_function_count) - 1;
  while (low <= high) {
    long middle = (low + high) / 2;
    int order = std::strcmp(counting_shim_names[middle], name);
    if (order == 0) return middle;
    if (order < 0) low = middle + 1; else high = middle - 1;
  }
  return -1;
}

__attribute__((constructor)) void FindNextFunctions() {
  for (unsigned long i = 0; i < counting_shim_function_count; ++i) {
    void* next = dlsym(RTLD_NEXT, counting_shim_names[i]);
    counting_shim_exported_targets[i] = next ? next : reinterpret_cast<void*>(&NoNextFunction);
    counting_shim_proc_targets[i] = reinterpret_cast<void*>(&NoNextFunction);
  }
  next_get_proc_address = reinterpret_cast<GetProcAddress>(dlsym(RTLD_NEXT, "eglGetProcAddress"));
  unstubbed = new std::set<std::string>;
}

__attribute__((destructor)) void WriteCounts() {
  const char* path = std::getenv("COUNTING_SHIM_OUTPUT");
  if (!path) return;
  std::string text;
  for (unsigned long i = 0; i < counting_shim_function_count; ++i) {
    unsigned long n = __atomic_load_n(&counting_shim_counts[i], __ATOMIC_RELAXED);
    if (n) text += std::string(counting_shim_names[i]) + " " + std::to_string(n) + "\n";
  }
  if (get_proc_address_calls) text += "eglGetProcAddress " + std::to_string(get_proc_address_calls) + "\n";
  {
    std::lock_guard<std::mutex> lock(unstubbed_mutex);
    for (const std::string& name : *unstubbed) text += "unstubbed " + name + "\n";
  }
  if (text.empty()) return;  // e.g. the strata command that launched the program
  int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (fd < 0) return;
  (void)!write(fd, text.data(), text.size());  // one append per process
  close(fd);
}

}  // namespace

extern "C" __attribute__((visibility("default"))) void* dlopen(const char* file, int mode) {
  using Open = void* (*)(const char*, int);
  static Open next_dlopen = reinterpret_cast<Open>(dlsym(RTLD_NEXT, "dlopen"));
  void* handle = next_dlopen(file, mode);
  if (handle == nullptr || !IsCountedLibrary(file) || !CalledByTheProgram(__builtin_return_address(0))) return handle;
  // Functions nothing defined at start-up come from the library just opened.
  for (unsigned long i = 0; i < counting_shim_function_count; ++i) {
    if (counting_shim_exported_targets[i] != reinterpret_cast<void*>(&NoNextFunction)) continue;
    if (void* found = dlsym(handle, counting_shim_names[i])) __atomic_store_n(&counting_shim_exported_targets[i], found, __ATOMIC_RELEASE);
  }
  if (next_get_proc_address == nullptr) {
    next_get_proc_address = reinterpret_cast<GetProcAddress>(dlsym(handle, "eglGetProcAddress"));
  }
  Dl_info self;
  if (dladdr(reinterpret_cast<const void*>(&IndexOf), &self) == 0) return handle;
  void* own = next_dlopen(self.dli_fname, RTLD_NOW | RTLD_NOLOAD);
  return own ? own : handle;
}

namespace {

// The counting stub for a function `next` the real lookup found.
void* HandOut(const char* name, void* next) {
  if (!next || !name) return next;
  long i = IndexOf(name);
  if (i < 0) {
    std::lock_guard<std::mutex> lock(unstubbed_mutex);
    unstubbed->insert(name);
    return next;
  }
  __atomic_store_n(&counting_shim_proc_targets[i], next, __ATOMIC_RELEASE);
  return counting_shim_proc_stubs[i];
}

// glXGetProcAddress(ARB) hands out GLES functions too (piglit's dispatch uses it).
// Not counted themselves: GLX is not traced.
void* GlxLookup(const char* which, const char* name) {
  auto next = reinterpret_cast<GetProcAddress>(dlsym(RTLD_NEXT, which));
  return HandOut(name, next ? next(name) : nullptr);
}

}  // namespace

extern "C" __attribute__((visibility("default"))) void* eglGetProcAddress(const char* name) {
  __atomic_add_fetch(&get_proc_address_calls, 1, __ATOMIC_RELAXED);
  return HandOut(name, next_get_proc_address ? next_get_proc_address(name) : nullptr);
}

extern "C" __attribute__((visibility("default"))) void* glXGetProcAddress(const unsigned char* name) {
  return GlxLookup("glXGetProcAddress", reinterpret_cast<const char*>(name));
}

extern "C" __attribute__((visibility("default"))) void* glXGetProcAddressARB(const unsigned char* name) {
  return GlxLookup("glXGetProcAddressARB", reinterpret_cast<const char*>(name));
}
