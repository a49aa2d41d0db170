// libstrata_audit.so: an rtld-audit module (LD_AUDIT, set by `strata run` and
// `strata trace`) that hands Strata's libEGL/libGLESv2/libGLESv1_CM/libGL to a
// program that loads the system's by absolute path, e.g.
// dlopen("/usr/lib/x86_64-linux-gnu/libEGL.so.1"). LD_LIBRARY_PATH only reaches
// loads by name. An audit module, not an interposed dlopen: ld.so asks it
// before every search, and the caller of dlopen (whose RPATH and namespace
// glibc uses) stays the program's own object.
//
// Strata's own objects (everything in this module's directory and below: the
// loader opening the real driver, the built-in layers) load what they ask for,
// and so do the objects they load (the driver, layers from elsewhere): a
// layer that opens the system's libEGL by path is asking for the driver.
// Written in C: the module lives in a link namespace of its own, where a C++
// runtime would be a second copy loaded for nothing.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// The libraries Strata stands in for: each `stem` names a family (the
// development link itself, `soname` and versioned files behind it). Loads by
// the stem or the soname go to Strata's library of that soname, when the file
// there is one: its own SONAME is `soname`. Not another library of the same
// file name: ANGLE's libEGL.so and libGLESv2.so (SONAME libEGL.so), which
// Chromium-based programs (Electron's among them) ship and load from their
// own directory, are EGL/GLES implementations of their own, with functions
// Strata's libraries lack. Not loads of a versioned file (libEGL.so.1.1.0):
// that is the name Strata's loader opens the real driver by
// (driver_locator.cpp resolves links), so it stays the driver even when a
// preloaded dlopen wrapper hides the loader as the caller.
static const struct {
  const char* stem;
  const char* soname;
} kRedirected[] = {
    {"libEGL.so", "libEGL.so.1"},
    {"libGLESv2.so", "libGLESv2.so.2"},
    {"libGLESv1_CM.so", "libGLESv1_CM.so.1"},
    {"libGL.so", "libGL.so.1"},
};
enum { kRedirectedCount = sizeof kRedirected / sizeof kRedirected[0] };

// Marks a cookie as one of Strata's objects (link maps are word aligned).
static const uintptr_t kStrataObject = 1;

// The audit interface ld.so looks up (the build hides every other symbol).
#define STRATA_AUDIT_ENTRY __attribute__((visibility("default")))

// For the report at exit (STRATA_AUDIT_REPORT, STRATA_LOG=info) when no call
// could reach Strata: whether Strata's loader was loaded, and the GL libraries
// the program loaded from elsewhere.
static int loader_loaded;
enum { kMaxBypassing = 8 };
static char bypassing[kMaxBypassing][512];
static int bypassing_count;

static char strata_directory[4096];  // where this module lives, no trailing slash
static size_t strata_directory_length;
static char replacement[kRedirectedCount][4096 + 32];
static int log_info;
// Whether the object being loaded was asked for by one of Strata's objects:
// set by each search, read by the open that follows it (ld.so runs them in
// pairs, under its load lock).
static int opening_for_strata;

STRATA_AUDIT_ENTRY unsigned int la_version(unsigned int version) {
  Dl_info info;
  if (dladdr((void*)&la_version, &info) && info.dli_fname != NULL) {
    const char* slash = strrchr(info.dli_fname, '/');
    size_t length = slash ? (size_t)(slash - info.dli_fname) : 0;
    if (length > 0 && length < sizeof strata_directory) {
      memcpy(strata_directory, info.dli_fname, length);
      strata_directory[length] = '\0';
      strata_directory_length = length;
      for (int i = 0; i < kRedirectedCount; ++i) {
        snprintf(replacement[i], sizeof replacement[i], "%s/%s", strata_directory, kRedirected[i].soname);
      }
    }
  }
  const char* level = getenv("STRATA_LOG");
  log_info = level != NULL && (strcmp(level, "info") == 0 || strcmp(level, "debug") == 0);
  // Without its own directory the module cannot tell Strata's loads from the
  // program's: it stays out of the way (version 0 tells ld.so to ignore it).
  if (strata_directory_length == 0) {
    fprintf(stderr, "strata: warning: cannot locate libstrata_audit.so; loads by absolute path bypass Strata\n");
    return 0;
  }
  return version < LAV_CURRENT ? version : LAV_CURRENT;
}

static int InStrataDirectory(const char* path) {
  return path != NULL && strncmp(path, strata_directory, strata_directory_length) == 0 &&
         path[strata_directory_length] == '/';
}

// The family in kRedirected that `file` (a file name) belongs to, or -1.
static int GlLibraryFamily(const char* file) {
  for (int i = 0; i < kRedirectedCount; ++i) {
    size_t n = strlen(kRedirected[i].stem);
    if (strncmp(file, kRedirected[i].stem, n) == 0 && (file[n] == '\0' || file[n] == '.')) return i;
  }
  return -1;
}

// Reads `size` bytes at `offset` of `fd`; 0 when they are not all there.
static int ReadAt(int fd, void* buffer, size_t size, off_t offset) {
  return pread(fd, buffer, size, offset) == (ssize_t)size;
}

// The file offset of virtual address `address` in an ELF file, by its loaded
// segments; -1 when no segment holds it.
static off_t FileOffsetOf(int fd, const ElfW(Ehdr) * header, ElfW(Addr) address) {
  for (int i = 0; i < header->e_phnum; ++i) {
    ElfW(Phdr) segment;
    if (!ReadAt(fd, &segment, sizeof segment, (off_t)(header->e_phoff + (size_t)i * sizeof segment))) return -1;
    if (segment.p_type == PT_LOAD && address >= segment.p_vaddr && address < segment.p_vaddr + segment.p_filesz) {
      return (off_t)(segment.p_offset + (address - segment.p_vaddr));
    }
  }
  return -1;
}

// Whether the shared object at `path` (links followed) has SONAME `soname`.
// Read with the file's own system calls: this runs inside ld.so's search.
static int HasSoname(const char* path, const char* soname) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  int found = 0;
  ElfW(Ehdr) header;
  if (ReadAt(fd, &header, sizeof header, 0) && memcmp(header.e_ident, ELFMAG, SELFMAG) == 0 &&
      header.e_ident[EI_CLASS] == (sizeof(void*) == 8 ? ELFCLASS64 : ELFCLASS32) &&
      header.e_phentsize == sizeof(ElfW(Phdr))) {
    ElfW(Phdr) dynamic = {0};
    for (int i = 0; i < header.e_phnum && dynamic.p_type != PT_DYNAMIC; ++i) {
      if (!ReadAt(fd, &dynamic, sizeof dynamic, (off_t)(header.e_phoff + (size_t)i * sizeof dynamic))) break;
    }
    ElfW(Addr) strtab = 0;
    ElfW(Xword) name_offset = (ElfW(Xword))-1;
    for (size_t at = 0; dynamic.p_type == PT_DYNAMIC && at + sizeof(ElfW(Dyn)) <= dynamic.p_filesz;
         at += sizeof(ElfW(Dyn))) {
      ElfW(Dyn) entry;
      if (!ReadAt(fd, &entry, sizeof entry, (off_t)(dynamic.p_offset + at)) || entry.d_tag == DT_NULL) break;
      if (entry.d_tag == DT_STRTAB) strtab = entry.d_un.d_ptr;
      if (entry.d_tag == DT_SONAME) name_offset = entry.d_un.d_val;
    }
    off_t strings = strtab != 0 ? FileOffsetOf(fd, &header, strtab) : -1;
    char name[64];
    size_t length = strlen(soname) + 1;
    if (strings >= 0 && name_offset != (ElfW(Xword))-1 && length <= sizeof name &&
        ReadAt(fd, name, length, strings + (off_t)name_offset)) {
      found = memcmp(name, soname, length) == 0;
    }
  }
  close(fd);
  return found;
}

STRATA_AUDIT_ENTRY unsigned int la_objopen(struct link_map* map, Lmid_t lmid, uintptr_t* cookie) {
  (void)lmid;
  const char* slash = map->l_name ? strrchr(map->l_name, '/') : NULL;
  if (InStrataDirectory(map->l_name)) {
    *cookie |= kStrataObject;
    if (slash && strcmp(slash + 1, "libstrata_loader.so") == 0) loader_loaded = 1;
    return 0;
  }
  if (opening_for_strata) {  // the driver, or a layer: Strata asked for it
    *cookie |= kStrataObject;
    return 0;
  }
  if (slash && GlLibraryFamily(slash + 1) >= 0 && bypassing_count < kMaxBypassing) {
    snprintf(bypassing[bypassing_count++], sizeof bypassing[0], "%s", map->l_name);
  }
  return 0;  // no symbol binding notifications: calls bind exactly as without the module
}

// At exit of a process Strata's loader never reached: why, as far as the
// module can tell, for `strata trace` (the file STRATA_AUDIT_REPORT names) and
// for STRATA_LOG=info.
__attribute__((destructor)) static void ReportBypass(void) {
  if (loader_loaded || strata_directory_length == 0) return;
  char name[64] = "?";
  FILE* comm = fopen("/proc/self/comm", "r");
  if (comm != NULL) {
    if (fgets(name, sizeof name, comm) != NULL) name[strcspn(name, "\n")] = '\0';
    fclose(comm);
  }
  char text[kMaxBypassing * 600 + 256];
  int used = snprintf(text, sizeof text, "process %d (%s) ", (int)getpid(), name);
  if (bypassing_count == 0) used += snprintf(text + used, sizeof text - used, "loaded no EGL or GLES library");
  for (int i = 0; i < bypassing_count; ++i) {
    used += snprintf(text + used, sizeof text - used, "%sloaded %s from outside Strata", i ? "; " : "", bypassing[i]);
  }
  const char* report = getenv("STRATA_AUDIT_REPORT");
  if (report != NULL && *report != '\0') {
    FILE* file = fopen(report, "a");
    if (file != NULL) {
      fprintf(file, "%s\n", text);
      fclose(file);
    }
  }
  if (log_info) fprintf(stderr, "strata: no EGL/GLES call reached Strata: %s\n", text);
}

STRATA_AUDIT_ENTRY char* la_objsearch(const char* name, uintptr_t* cookie, unsigned int flag) {
  opening_for_strata = (*cookie & kStrataObject) != 0;
  if (flag != LA_SER_ORIG || (*cookie & kStrataObject) || strchr(name, '/') == NULL || InStrataDirectory(name)) {
    return (char*)name;
  }
  const char* file = strrchr(name, '/') + 1;
  int family = GlLibraryFamily(file);
  if (family < 0 || (strcmp(file, kRedirected[family].stem) != 0 && strcmp(file, kRedirected[family].soname) != 0) ||
      !HasSoname(name, kRedirected[family].soname)) {
    return (char*)name;
  }
  if (log_info) fprintf(stderr, "strata: %s loaded by path: Strata's %s instead\n", name, replacement[family]);
  return replacement[family];
}
