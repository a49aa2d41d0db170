#pragma once
// What the loader found, for `strata info` and tests. A plain C interface so
// the `strata` command can read it through dlsym without linking the loader.

extern "C" {

struct StrataDriverStatus {
  const char* soname;      // "libEGL.so.1"
  const char* path;        // absolute path of the driver library, "" if none
  const char* error;       // why it is missing or failed to load, "" if fine
  int loaded;
  int from_override;       // chosen by a STRATA_DRIVER_* variable
};

struct StrataLoaderStatus {
  const char* loader_directory;  // where Strata's libraries are
  struct StrataDriverStatus drivers[3];  // EGL, GLESv2, GLESv1_CM
  int function_count;            // functions the loader knows
  int resolved_gles1;            // slots the driver serves in the GLES 1 table
  int resolved_gles2;            // ... in the GLES 2+ table
  int gl_dispatch_direct;        // GL calls reach Mesa's glapi without glvnd's stub
};

typedef const struct StrataLoaderStatus* (*PFN_strata_loader_status)(void);
__attribute__((visibility("default"))) const struct StrataLoaderStatus* strata_loader_status(void);

// What the loader's table `table` (0 none, 1 GLES 1, 2 GLES 2+) holds for the
// function `name`: the driver's function, a layer's, or a stub. For tests and
// diagnostics (dladdr tells whose it is). nullptr for unknown names.
typedef void* (*PFN_strata_loader_table_entry)(int table, const char* name);
__attribute__((visibility("default"))) void* strata_loader_table_entry(int table, const char* name);

// The calling thread's dispatch table: 0 none (no current context), 1 GLES 1, 2 GLES 2+.
typedef int (*PFN_strata_loader_current_table)(void);
__attribute__((visibility("default"))) int strata_loader_current_table(void);
}
