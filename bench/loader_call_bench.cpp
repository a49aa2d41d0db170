// Per-call cost of Strata's pass-through against calling the driver directly,
// on a cheap call (glUniform4f) in one process, one context.
//
// Both paths end in the same driver function: "direct" calls the system
// libGLESv2's glUniform4f, "strata" calls Strata's exported glUniform4f (and
// the pointer eglGetProcAddress hands out), which jumps through the thread's
// dispatch table into that same function.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <benchmark/benchmark.h>
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

struct Fixture {
  PFNGLUNIFORM4FPROC direct = nullptr;
  PFNGLUNIFORM4FPROC strata_export = nullptr;
  PFNGLUNIFORM4FPROC strata_proc_address = nullptr;
  GLint location = -1;
};

[[noreturn]] void Fail(const char* what) {
  std::fprintf(stderr, "loader_call_bench: %s\n", what);
  std::exit(1);
}

template <typename Fn>
Fn Sym(void* lib, const char* name) {
  void* p = dlsym(lib, name);
  if (!p) Fail(name);
  return reinterpret_cast<Fn>(p);
}

Fixture& Setup() {
  static Fixture f = [] {
    Fixture f;
    std::string dir = STRATA_LIB_DIR;
    void* egl = dlopen((dir + "/libEGL.so.1").c_str(), RTLD_NOW | RTLD_LOCAL);
    void* gles = dlopen((dir + "/libGLESv2.so.2").c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!egl || !gles) Fail("cannot load Strata's libraries");
    // The loader opened the driver by this path; RTLD_NOLOAD hands back its handle.
    void* driver = dlopen(STRATA_SYSTEM_GLESV2, RTLD_NOW | RTLD_NOLOAD);
    if (!driver) Fail("the system libGLESv2 is not loaded by Strata's loader");

    auto get_proc = Sym<PFNEGLGETPROCADDRESSPROC>(egl, "eglGetProcAddress");
    auto get_platform_display = Sym<PFNEGLGETPLATFORMDISPLAYPROC>(egl, "eglGetPlatformDisplay");
    auto initialize = Sym<PFNEGLINITIALIZEPROC>(egl, "eglInitialize");
    auto choose_config = Sym<PFNEGLCHOOSECONFIGPROC>(egl, "eglChooseConfig");
    auto create_context = Sym<PFNEGLCREATECONTEXTPROC>(egl, "eglCreateContext");
    auto make_current = Sym<PFNEGLMAKECURRENTPROC>(egl, "eglMakeCurrent");
    EGLDisplay display = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
    if (!initialize(display, nullptr, nullptr)) Fail("eglInitialize failed");
    const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_SURFACE_TYPE, 0, EGL_NONE};
    EGLConfig config;
    EGLint count = 0;
    choose_config(display, config_attribs, &config, 1, &count);
    const EGLint context_attribs[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
    EGLContext context = create_context(display, config, EGL_NO_CONTEXT, context_attribs);
    if (!make_current(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) Fail("eglMakeCurrent failed");

    // A real program with a vec4 uniform, so glUniform4f does real work.
    auto create_shader = Sym<PFNGLCREATESHADERPROC>(gles, "glCreateShader");
    auto shader_source = Sym<PFNGLSHADERSOURCEPROC>(gles, "glShaderSource");
    auto compile = Sym<PFNGLCOMPILESHADERPROC>(gles, "glCompileShader");
    auto create_program = Sym<PFNGLCREATEPROGRAMPROC>(gles, "glCreateProgram");
    auto attach = Sym<PFNGLATTACHSHADERPROC>(gles, "glAttachShader");
    auto link = Sym<PFNGLLINKPROGRAMPROC>(gles, "glLinkProgram");
    auto use = Sym<PFNGLUSEPROGRAMPROC>(gles, "glUseProgram");
    auto uniform_location = Sym<PFNGLGETUNIFORMLOCATIONPROC>(gles, "glGetUniformLocation");
    const char* vs = "attribute vec4 p; void main() { gl_Position = p; }";
    const char* fs = "precision mediump float; uniform vec4 color; void main() { gl_FragColor = color; }";
    GLuint program = create_program();
    for (auto [type, source] : {std::pair{GL_VERTEX_SHADER, vs}, std::pair{GL_FRAGMENT_SHADER, fs}}) {
      GLuint shader = create_shader(type);
      shader_source(shader, 1, &source, nullptr);
      compile(shader);
      attach(program, shader);
    }
    link(program);
    use(program);
    f.location = uniform_location(program, "color");
    if (f.location < 0) Fail("uniform 'color' not found");

    f.direct = Sym<PFNGLUNIFORM4FPROC>(driver, "glUniform4f");
    f.strata_export = Sym<PFNGLUNIFORM4FPROC>(gles, "glUniform4f");
    f.strata_proc_address = reinterpret_cast<PFNGLUNIFORM4FPROC>(get_proc("glUniform4f"));
    return f;
  }();
  return f;
}

void Run(benchmark::State& state, PFNGLUNIFORM4FPROC fn) {
  Fixture& f = Setup();
  float x = 0.0f;
  for (auto _ : state) {
    fn(f.location, x, 0.5f, 0.25f, 1.0f);
    x += 1.0f;
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_glUniform4f_Direct(benchmark::State& state) { Run(state, Setup().direct); }
void BM_glUniform4f_StrataExport(benchmark::State& state) { Run(state, Setup().strata_export); }
void BM_glUniform4f_StrataGetProcAddress(benchmark::State& state) { Run(state, Setup().strata_proc_address); }

BENCHMARK(BM_glUniform4f_Direct);
BENCHMARK(BM_glUniform4f_StrataExport);
BENCHMARK(BM_glUniform4f_StrataGetProcAddress);

// `loader_call_bench --calls N direct|export|proc` makes exactly N calls and
// exits: run under `valgrind --tool=callgrind` at two values of N, the
// difference in instructions divided by the difference in N is the exact
// per-call instruction count of a path, free of timing noise.
int CountCalls(int argc, char** argv) {
  if (argc != 4) Fail("usage: loader_call_bench --calls N direct|export|proc");
  long calls = std::atol(argv[2]);
  std::string path = argv[3];
  Fixture& f = Setup();
  PFNGLUNIFORM4FPROC fn = path == "direct" ? f.direct : path == "export" ? f.strata_export : f.strata_proc_address;
  for (long i = 0; i < calls; ++i) fn(f.location, static_cast<float>(i), 0.5f, 0.25f, 1.0f);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "--calls") return CountCalls(argc, argv);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
