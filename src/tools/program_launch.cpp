#include "tools/program_launch.h"

#include <dlfcn.h>
#include <elf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "common/shared_library.h"
#include "loader/driver_locator.h"
#include "loader/glvnd_vendor_list.h"
#include "tools/install_paths.h"
#include "tools/loader_vendor_file.h"

namespace strata::tools {
namespace {

bool IsExecutableFile(const std::string& path) {
  struct stat st{};
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(path.c_str(), X_OK) == 0;
}

// A 64-bit ELF executable without a program interpreter: nothing the dynamic
// linker reads (LD_LIBRARY_PATH, LD_AUDIT) applies to it.
bool IsStaticallyLinked(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  Elf64_Ehdr header{};
  if (!file.read(reinterpret_cast<char*>(&header), sizeof header) || std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 ||
      header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_phentsize != sizeof(Elf64_Phdr)) {
    return false;  // a script, or not an ELF file we read: its interpreter decides
  }
  for (int i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr segment{};
    file.seekg(static_cast<std::streamoff>(header.e_phoff + i * sizeof segment));
    if (!file.read(reinterpret_cast<char*>(&segment), sizeof segment)) return false;
    if (segment.p_type == PT_INTERP) return false;
  }
  return true;
}

// The driver check runs with the request's STRATA_DRIVER_* settings applied.
int CheckDriver(const char* command, const std::string& lib_dir) {
  using loader::DriverLibrary;
  for (DriverLibrary library : loader::kAllDriverLibraries) {
    loader::DriverLocation location = loader::LocateDriver(library, lib_dir);
    bool required = library == DriverLibrary::kEgl || location.from_override;
    if (location.path.empty()) {
      if (!required) continue;
      std::fprintf(stderr, "strata %s: error: %s\n", command, location.error.c_str());
      return 1;
    }
    if (!required) continue;
    // Load it here, in a throwaway way, so a broken driver is named before the app starts.
    void* handle = dlopen(location.path.c_str(), RTLD_LAZY | kIsolatedDlopenFlags);
    if (handle == nullptr) {
      std::fprintf(stderr, "strata %s: error: cannot load driver %s: %s\n", command, location.path.c_str(),
                   dlerror());
      return 1;
    }
  }
  return 0;
}

}  // namespace

std::string FindProgram(const std::string& name) {
  if (name.find('/') != std::string::npos) return IsExecutableFile(name) ? name : "";
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "/usr/local/bin:/usr/bin:/bin");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (IsExecutableFile(candidate)) return candidate;
  }
  return "";
}

int CheckLaunch(const char* command, const LaunchRequest& request, std::string* resolved_program) {
  if (request.argv.empty()) {
    std::fprintf(stderr, "strata %s: error: no program given (usage: strata %s [options] -- PROGRAM ARGS...)\n",
                 command, command);
    return 2;
  }
  std::string lib_dir = StrataLibraryDirectory();
  for (const char* soname :
       {"libEGL.so.1", "libGLESv2.so.2", "libGLESv1_CM.so.1", "libstrata_loader.so", "libstrata_audit.so"}) {
    std::string path = lib_dir + "/" + soname;
    if (access(path.c_str(), R_OK) != 0) {
      std::fprintf(stderr, "strata %s: error: Strata's library %s is missing (installation broken?)\n", command,
                   path.c_str());
      return 1;
    }
  }
  for (const auto& [name, value] : request.environment) setenv(name.c_str(), value.c_str(), 1);
  const char* remote = std::getenv("STRATA_REMOTE");
  if (remote != nullptr && *remote != '\0') {
    // The remote client driver stands in for the system's; the renderer is
    // reached (or not: one error line from the program) at eglInitialize.
    std::string path = lib_dir + "/libstrata_remote.so";
    if (access(path.c_str(), R_OK) != 0) {
      std::fprintf(stderr, "strata %s: error: Strata's remote client driver %s is missing (installation broken?)\n",
                   command, path.c_str());
      return 1;
    }
  } else if (int status = CheckDriver(command, lib_dir)) {
    return status;
  }

  const std::string& program = request.argv[0];
  *resolved_program = FindProgram(program);
  if (resolved_program->empty()) {
    bool has_slash = program.find('/') != std::string::npos;
    struct stat st{};
    if (has_slash && stat(program.c_str(), &st) == 0) {
      std::fprintf(stderr, "strata %s: error: '%s' is not an executable file\n", command, program.c_str());
      return 126;
    }
    std::fprintf(stderr, "strata %s: error: program '%s' not found%s\n", command, program.c_str(),
                 has_slash ? "" : " in PATH");
    return 127;
  }
  return 0;
}

std::string WhyNoCallReachedStrata(const std::string& program, const std::string& audit_report) {
  if (IsStaticallyLinked(program)) return program + " is statically linked: it loads no shared library";
  struct stat st{};
  if (stat(program.c_str(), &st) == 0 && (st.st_mode & (S_ISUID | S_ISGID))) {
    return program + " is setuid/setgid: the dynamic linker ignores Strata's environment for it";
  }
  std::ifstream report(audit_report);
  std::string why;
  for (std::string line; std::getline(report, line);) why += (why.empty() ? "" : "; ") + line;
  return why;
}

namespace {

// glvnd's vendor list as it stands, with `ours` (naming this Strata's loader)
// in front and any other Strata's loader left out: a list inherited from a
// program another Strata build started would load that build's loader too.
std::string LoaderFirstGlvndVendorList(const std::string& ours) {
  std::string list = ours;
  for (const std::string& file : loader::GlvndVendorFiles()) {
    std::string library, unreadable;
    if (loader::ReadGlvndVendorLibrary(file, &library, &unreadable) && FileNameOf(library) == "libstrata_loader.so") {
      continue;
    }
    list += (list.empty() ? "" : ":") + file;
  }
  return list;
}

}  // namespace

int ExecWithStrata(const char* command, const LaunchRequest& request, const std::string& resolved_program) {
  std::string lib_dir = StrataLibraryDirectory();
  const char* old = std::getenv("LD_LIBRARY_PATH");
  std::string ld_path = lib_dir + (old && *old ? std::string(":") + old : "");
  setenv("LD_LIBRARY_PATH", ld_path.c_str(), 1);
  // Programs that dlopen the system's libraries by absolute path get Strata's too.
  const char* old_audit = std::getenv("LD_AUDIT");
  std::string audit = lib_dir + "/libstrata_audit.so" + (old_audit && *old_audit ? std::string(":") + old_audit : "");
  setenv("LD_AUDIT", audit.c_str(), 1);
  // Programs that reach EGL only through the system's libEGL (their library
  // path reset by a launcher, a libEGL from their RPATH) get the loader as
  // glvnd's first vendor; where Strata's libraries were loaded it steps aside.
  std::string why;
  const std::string vendor_file = LoaderVendorFile(lib_dir, &why);
  if (vendor_file.empty()) {
    std::fprintf(stderr,
                 "strata %s: warning: %s; programs that reach EGL only through the system's libEGL bypass Strata\n",
                 command, why.c_str());
  }
  const std::string vendor_list = LoaderFirstGlvndVendorList(vendor_file);
  if (vendor_list.empty()) {
    unsetenv("__EGL_VENDOR_LIBRARY_FILENAMES");  // an empty list would be no vendor at all
  } else {
    setenv("__EGL_VENDOR_LIBRARY_FILENAMES", vendor_list.c_str(), 1);
  }
  for (const auto& [name, value] : request.environment) setenv(name.c_str(), value.c_str(), 1);

  std::vector<char*> argv;
  for (const std::string& arg : request.argv) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  execv(resolved_program.c_str(), argv.data());
  int error = errno;
  std::fprintf(stderr, "strata %s: error: cannot run '%s': %s\n", command, resolved_program.c_str(),
               std::strerror(error));
  return error == ENOENT ? 127 : 126;
}

}  // namespace strata::tools
