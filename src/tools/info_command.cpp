// strata info [--json]: what Strata's loader sees on this machine.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "common/json_writer.h"
#include "layers/trace/unknown_functions.h"
#include "loader/status.h"
#include "strata/api/codec.h"
#include "strata/api/functions.h"
#include "tools/command.h"
#include "tools/command_line.h"
#include "tools/install_paths.h"

namespace strata::tools {
namespace {

constexpr char kUsage[] = R"(usage: strata info [--json]
       strata info --coverage [--json]

Loads Strata's libraries the way an application would and reports:
  - where Strata's loader libraries are and which system driver they use;
  - the EGL and GL version strings, from a headless (surfaceless) display and
    one context per GLES version, made through Strata's own libraries;
  - how many entry points the loader has per API version and extension set,
    and how many of them the driver serves.

With --coverage it lists instead the functions whose calls a trace records
without some of the data behind their pointers (no capture rule in
api/annotations.txt), by API version or extension set. The list is empty:
the build fails when a function with a pointer parameter has no rule. Calls
to functions outside the registry are recorded by name, without arguments.

options:
  --json       one JSON object instead of text
  --coverage   the capture coverage of the tracer
  -h, --help   show this help
)";

int PrintCoverage(bool as_json) {
  JsonWriter json;
  json.BeginObject();
  int total = 0;
  for (int bit = 0; bit < api::kApiBitCount; ++bit) {
    std::vector<const char*> missing;
    int functions = 0;
    for (int slot = 0; slot < api::kFunctionCount; ++slot) {
      if (!(api::kFunctions[slot].api_mask & (1u << bit))) continue;
      ++functions;
      if (!api::kCodec[slot].covered) missing.push_back(api::kFunctions[slot].name);
    }
    std::sort(missing.begin(), missing.end(), [](const char* a, const char* b) { return std::strcmp(a, b) < 0; });
    total += static_cast<int>(missing.size());
    if (as_json) {
      json.Key(api::kApiBitNames[bit]).BeginObject().Key("functions").Int(functions).Key("uncovered").BeginArray();
      for (const char* name : missing) json.String(name);
      json.EndArray().EndObject();
      continue;
    }
    std::printf("%-20s %4d functions, %4zu without full capture\n", api::kApiBitNames[bit], functions, missing.size());
    for (const char* name : missing) std::printf("    %s\n", name);
  }
  if (as_json) {
    json.Key("unknown_functions").BeginObject().Key("recorded").Bool(true).Key("arguments").Bool(false);
    json.Key("per_process_limit").Int(trace::kMaxUnknownFunctions).Key("replayed").Bool(false).EndObject();
    std::printf("%s\n", json.EndObject().str().c_str());
  } else {
    std::printf("\n%d functions are recorded with their scalar arguments only for some pointer parameters.\n", total);
    std::printf("Functions outside the registry (a vendor's or a newer extension's) are recorded by name, without\n"
                "arguments, for up to %u of them per process; replay skips them (docs/trace-format.md).\n",
                trace::kMaxUnknownFunctions);
  }
  return 0;
}

struct ContextReport {
  std::string api;  // "GLES 1", "GLES 2", "GLES 3"
  bool created = false;
  std::string version, renderer, vendor, shading_language, error;
};

struct Report {
  std::string lib_dir;
  const StrataLoaderStatus* status = nullptr;
  std::string egl_error;  // why EGL could not be initialized
  std::string egl_platform, egl_vendor, egl_version, egl_client_apis;
  std::vector<ContextReport> contexts;
};

template <typename Fn>
Fn Proc(void* egl, const char* name) {
  auto get_proc = reinterpret_cast<void* (*)(const char*)>(dlsym(egl, "eglGetProcAddress"));
  return reinterpret_cast<Fn>(get_proc ? get_proc(name) : nullptr);
}

const char* Str(const GLubyte* s) { return s ? reinterpret_cast<const char*>(s) : ""; }

void ProbeEgl(void* egl, Report& report) {
  auto get_platform_display = Proc<PFNEGLGETPLATFORMDISPLAYPROC>(egl, "eglGetPlatformDisplay");
  auto get_display = Proc<PFNEGLGETDISPLAYPROC>(egl, "eglGetDisplay");
  auto initialize = Proc<PFNEGLINITIALIZEPROC>(egl, "eglInitialize");
  auto query_string = Proc<PFNEGLQUERYSTRINGPROC>(egl, "eglQueryString");
  auto choose_config = Proc<PFNEGLCHOOSECONFIGPROC>(egl, "eglChooseConfig");
  auto create_context = Proc<PFNEGLCREATECONTEXTPROC>(egl, "eglCreateContext");
  auto make_current = Proc<PFNEGLMAKECURRENTPROC>(egl, "eglMakeCurrent");
  auto destroy_context = Proc<PFNEGLDESTROYCONTEXTPROC>(egl, "eglDestroyContext");
  auto terminate = Proc<PFNEGLTERMINATEPROC>(egl, "eglTerminate");
  auto get_error = Proc<PFNEGLGETERRORPROC>(egl, "eglGetError");
  auto get_string = Proc<PFNGLGETSTRINGPROC>(egl, "glGetString");
  if (!get_display || !initialize || !query_string || !make_current || !get_string) {
    report.egl_error = "the driver lacks core EGL entry points";
    return;
  }
  EGLDisplay display = EGL_NO_DISPLAY;
  if (get_platform_display) {
    display = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
    report.egl_platform = "surfaceless";
  }
  if (display == EGL_NO_DISPLAY || !initialize(display, nullptr, nullptr)) {
    display = get_display(EGL_DEFAULT_DISPLAY);
    report.egl_platform = "default";
    if (display == EGL_NO_DISPLAY || !initialize(display, nullptr, nullptr)) {
      char buffer[64];
      std::snprintf(buffer, sizeof buffer, "eglInitialize failed (EGL error 0x%x)", get_error ? get_error() : 0);
      report.egl_error = buffer;
      return;
    }
  }
  auto q = [&](EGLint name) {
    const char* s = query_string(display, name);
    return std::string(s ? s : "");
  };
  report.egl_vendor = q(EGL_VENDOR);
  report.egl_version = q(EGL_VERSION);
  report.egl_client_apis = q(EGL_CLIENT_APIS);

  const struct {
    const char* label;
    EGLint version, renderable;
  } apis[] = {{"GLES 1", 1, EGL_OPENGL_ES_BIT}, {"GLES 2", 2, EGL_OPENGL_ES2_BIT}, {"GLES 3", 3, EGL_OPENGL_ES3_BIT}};
  for (const auto& api : apis) {
    ContextReport context;
    context.api = api.label;
    const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, api.renderable, EGL_SURFACE_TYPE, 0, EGL_NONE};
    EGLConfig config = nullptr;
    EGLint count = 0;
    if (!choose_config(display, config_attribs, &config, 1, &count) || count == 0) {
      context.error = "no EGL config for this API";
      report.contexts.push_back(context);
      continue;
    }
    const EGLint context_attribs[] = {EGL_CONTEXT_CLIENT_VERSION, api.version, EGL_NONE};
    EGLContext ctx = create_context(display, config, EGL_NO_CONTEXT, context_attribs);
    if (ctx == EGL_NO_CONTEXT || !make_current(display, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
      char buffer[80];
      std::snprintf(buffer, sizeof buffer, "cannot create and make current a context (EGL error 0x%x)",
                    get_error ? get_error() : 0);
      context.error = buffer;
    } else {
      context.created = true;
      context.version = Str(get_string(GL_VERSION));
      context.renderer = Str(get_string(GL_RENDERER));
      context.vendor = Str(get_string(GL_VENDOR));
      if (api.version > 1) context.shading_language = Str(get_string(GL_SHADING_LANGUAGE_VERSION));
      make_current(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    }
    if (ctx != EGL_NO_CONTEXT) destroy_context(display, ctx);
    report.contexts.push_back(context);
  }
  terminate(display);
}

struct Counts {
  int per_bit[api::kApiBitCount] = {};
  int egl = 0, gles1 = 0, gles2 = 0, total = api::kFunctionCount;
};

Counts CountEntryPoints() {
  Counts counts;
  for (const api::FunctionInfo& info : api::kFunctions) {
    for (int bit = 0; bit < api::kApiBitCount; ++bit) {
      if (info.api_mask & (1u << bit)) ++counts.per_bit[bit];
    }
    if (info.is_egl) ++counts.egl;
    if (info.api_mask & (api::kGLES1_1 | api::kGLES1extensions)) ++counts.gles1;
    if (info.api_mask & (api::kGLES2_0 | api::kGLES3_0 | api::kGLES3_1 | api::kGLES3_2 | api::kGLES2Plusextensions))
      ++counts.gles2;
  }
  return counts;
}

void PrintText(const Report& r, const Counts& counts) {
  std::printf("Strata loader\n  libraries:  %s\n", r.lib_dir.c_str());
  if (r.status) {
    std::printf("\nDriver\n");
    for (const StrataDriverStatus& d : r.status->drivers) {
      std::printf("  %-18s %s%s%s\n", d.soname, d.loaded ? d.path : "(not loaded)",
                  d.from_override ? "  [override]" : "", *d.error ? (std::string("  ") + d.error).c_str() : "");
    }
    std::printf("  %-18s %s\n", "GL calls", r.status->gl_dispatch_direct ? "to Mesa's glapi directly (glvnd's stub skipped)"
                                                                          : "through the driver's entry points");
  }
  if (!r.egl_error.empty()) {
    std::printf("\nEGL: unavailable: %s\n", r.egl_error.c_str());
  } else if (!r.egl_version.empty()) {
    std::printf("\nEGL (%s platform)\n  vendor:      %s\n  version:     %s\n  client APIs: %s\n",
                r.egl_platform.c_str(), r.egl_vendor.c_str(), r.egl_version.c_str(), r.egl_client_apis.c_str());
  }
  for (const ContextReport& c : r.contexts) {
    std::printf("\n%s context\n", c.api.c_str());
    if (!c.created) {
      std::printf("  unavailable: %s\n", c.error.c_str());
      continue;
    }
    std::printf("  GL_VERSION:   %s\n  GL_RENDERER:  %s\n  GL_VENDOR:    %s\n", c.version.c_str(),
                c.renderer.c_str(), c.vendor.c_str());
    if (!c.shading_language.empty()) std::printf("  GLSL version: %s\n", c.shading_language.c_str());
  }
  std::printf("\nEntry points (functions introduced by each version or extension set)\n");
  for (int bit = 0; bit < api::kApiBitCount; ++bit) {
    std::printf("  %-20s %5d\n", api::kApiBitNames[bit], counts.per_bit[bit]);
  }
  std::printf("  %-20s %5d\n  %-20s %5d\n  %-20s %5d\n  %-20s %5d\n", "all EGL", counts.egl, "all GLES 1",
              counts.gles1, "all GLES 2+", counts.gles2, "total", counts.total);
  if (r.status && r.status->drivers[0].loaded) {
    std::printf("  served by the driver: %d in GLES 1 contexts, %d in GLES 2+ contexts\n", r.status->resolved_gles1,
                r.status->resolved_gles2);
  }
}

void PrintJson(const Report& r, const Counts& counts) {
  JsonWriter json;
  json.BeginObject().Key("library_directory").String(r.lib_dir);
  json.Key("drivers").BeginArray();
  if (r.status) {
    for (const StrataDriverStatus& d : r.status->drivers) {
      json.BeginObject().Key("soname").String(d.soname).Key("path").String(d.path).Key("loaded").Bool(d.loaded);
      json.Key("override").Bool(d.from_override).Key("error").String(d.error).EndObject();
    }
  }
  json.EndArray();
  json.Key("egl").BeginObject().Key("error").String(r.egl_error).Key("platform").String(r.egl_platform);
  json.Key("vendor").String(r.egl_vendor).Key("version").String(r.egl_version);
  json.Key("client_apis").String(r.egl_client_apis).EndObject();
  json.Key("contexts").BeginArray();
  for (const ContextReport& c : r.contexts) {
    json.BeginObject().Key("api").String(c.api).Key("created").Bool(c.created).Key("error").String(c.error);
    json.Key("version").String(c.version).Key("renderer").String(c.renderer).Key("vendor").String(c.vendor);
    json.Key("shading_language").String(c.shading_language).EndObject();
  }
  json.EndArray();
  json.Key("entry_points").BeginObject();
  for (int bit = 0; bit < api::kApiBitCount; ++bit) json.Key(api::kApiBitNames[bit]).Int(counts.per_bit[bit]);
  json.Key("all EGL").Int(counts.egl).Key("all GLES 1").Int(counts.gles1).Key("all GLES 2+").Int(counts.gles2);
  json.Key("total").Int(counts.total).EndObject();
  if (r.status) {
    json.Key("served_by_driver").BeginObject().Key("GLES 1").Int(r.status->resolved_gles1);
    json.Key("GLES 2+").Int(r.status->resolved_gles2).EndObject();
    json.Key("gl_dispatch_direct").Bool(r.status->gl_dispatch_direct != 0);
  }
  json.EndObject();
  std::printf("%s\n", json.str().c_str());
}

}  // namespace

int InfoCommandMain(int argc, char** argv) {
  bool as_json = false, coverage = false;
  CommandLine args("strata info", kUsage, {{"help", 'h', false}, {"json", 0, false}, {"coverage", 0, false}}, argc,
                   argv);
  while (args.Next()) {
    if (args.Is("help")) {
      std::fputs(kUsage, stdout);
      return 0;
    }
    (args.Is("json") ? as_json : coverage) = true;
  }
  if (args.failed()) return 2;
  if (!args.operands().empty()) {
    std::fprintf(stderr, "strata info: error: unknown argument '%s'\n%s", args.operands()[0].c_str(), kUsage);
    return 2;
  }
  if (coverage) return PrintCoverage(as_json);
  Report report;
  report.lib_dir = StrataLibraryDirectory();
  std::string egl_path = report.lib_dir + "/libEGL.so.1";
  void* egl = dlopen(egl_path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (egl == nullptr) {
    std::fprintf(stderr, "strata info: error: cannot load Strata's %s: %s\n", egl_path.c_str(), dlerror());
    return 1;
  }
  std::string core_path = report.lib_dir + "/libstrata_loader.so";
  void* core = dlopen(core_path.c_str(), RTLD_NOW | RTLD_NOLOAD);
  auto status_fn = core ? reinterpret_cast<PFN_strata_loader_status>(dlsym(core, "strata_loader_status")) : nullptr;
  if (status_fn == nullptr) {
    std::fprintf(stderr, "strata info: error: %s does not answer strata_loader_status\n", core_path.c_str());
    return 1;
  }
  report.status = status_fn();
  if (report.status->drivers[0].loaded) {
    ProbeEgl(egl, report);
  } else {
    report.egl_error = std::string("no EGL driver: ") + report.status->drivers[0].error;
  }
  Counts counts = CountEntryPoints();
  if (as_json) {
    PrintJson(report, counts);
  } else {
    PrintText(report, counts);
  }
  return report.status->drivers[0].loaded ? 0 : 1;
}

}  // namespace strata::tools
