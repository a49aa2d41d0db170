#include "tools/loader_vendor_file.h"

#include <unistd.h>

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "common/env.h"
#include "common/shared_library.h"
#include "loader/glvnd_vendor_list.h"

namespace strata::tools {
namespace {

bool NamesLibrary(const std::string& vendor_file, const std::string& resolved_library) {
  std::string library, error;
  if (!loader::ReadGlvndVendorLibrary(vendor_file, &library, &error)) return false;
  return library.find('/') != std::string::npos && RealPath(library) == resolved_library;
}

// FNV-1a: one file name per loader path, the same from every build.
uint64_t PathHash(const std::string& path) {
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (unsigned char c : path) hash = (hash ^ c) * 0x100000001b3ULL;
  return hash;
}

std::string JsonString(const std::string& text) {
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  return quoted + "\"";
}

std::string CacheDirectory() {
  if (const char* cache = GetEnv("XDG_CACHE_HOME")) return std::string(cache) + "/strata";
  if (const char* home = GetEnv("HOME")) return std::string(home) + "/.cache/strata";
  return "";
}

// Written whole under a name of its own, then renamed: a program started at
// the same time by another `strata run` reads the old file or the new one.
bool WriteVendorFile(const std::string& path, const std::string& library, std::string* error) {
  const std::string temporary = path + ".tmp." + std::to_string(getpid());
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << "{\n    \"file_format_version\" : \"1.0.0\",\n    \"ICD\" : {\n        \"library_path\" : "
        << JsonString(library) << "\n    }\n}\n";
    if (!out.flush()) {
      *error = "cannot write " + temporary;
      std::remove(temporary.c_str());
      return false;
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    *error = "cannot write " + path;
    std::remove(temporary.c_str());
    return false;
  }
  return true;
}

}  // namespace

std::string LoaderVendorFile(const std::string& lib_dir, std::string* error) {
  const std::string loader = RealPath(lib_dir + "/libstrata_loader.so");
  if (loader.empty()) {
    *error = "Strata's loader " + lib_dir + "/libstrata_loader.so is missing";
    return "";
  }
  const std::string beside = lib_dir + "/" + loader::kLoaderVendorFileName;
  if (NamesLibrary(beside, loader)) return beside;

  const std::string directory = CacheDirectory();
  if (directory.empty()) {
    *error = "no cache directory for a glvnd vendor file naming " + loader + " (set XDG_CACHE_HOME or HOME)";
    return "";
  }
  char name[64];
  std::snprintf(name, sizeof name, "/glvnd_loader_vendor-%016" PRIx64 ".json", PathHash(loader));
  const std::string path = directory + name;
  if (NamesLibrary(path, loader)) return path;
  std::error_code ignored;
  std::filesystem::create_directories(directory, ignored);
  return WriteVendorFile(path, loader, error) ? path : "";
}

}  // namespace strata::tools
