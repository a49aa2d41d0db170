#include "loader/glvnd_vendor_list.h"

#include <dirent.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "common/env.h"
#include "common/shared_library.h"

namespace strata::loader {
namespace {

std::vector<std::string> SplitPathList(const char* list) {
  std::vector<std::string> items;
  std::stringstream stream(list);
  for (std::string item; std::getline(stream, item, ':');) {
    if (!item.empty()) items.push_back(item);
  }
  return items;
}

// glvnd's own variables, not STRATA_* ones: read unless the process is secure, as glvnd does.
const char* GlvndVariable(const char* name) {
  if (IsSecureProcess()) return nullptr;
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : nullptr;
}

std::vector<std::string> JsonFilesIn(const std::string& directory) {
  std::vector<std::string> files;
  DIR* dir = opendir(directory.c_str());
  if (dir == nullptr) return files;
  while (const dirent* entry = readdir(dir)) {
    std::string name = entry->d_name;
    if (name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0) files.push_back(directory + "/" + name);
  }
  closedir(dir);
  std::sort(files.begin(), files.end());
  return files;
}

// The JSON string starting at text[at] (the opening quote); false when malformed.
bool ReadJsonString(const std::string& text, size_t at, std::string* value) {
  if (at >= text.size() || text[at] != '"') return false;
  value->clear();
  for (size_t i = at + 1; i < text.size(); ++i) {
    char c = text[i];
    if (c == '"') return true;
    if (c == '\\') {
      if (++i >= text.size()) return false;
      switch (text[i]) {
        case '"': case '\\': case '/': c = text[i]; break;
        case 'n': c = '\n'; break;
        case 't': c = '\t'; break;
        default: return false;  // \uXXXX and the rest have no place in a library path
      }
    }
    value->push_back(c);
  }
  return false;
}

}  // namespace

std::vector<std::string> GlvndVendorFiles() {
  if (const char* files = GlvndVariable("__EGL_VENDOR_LIBRARY_FILENAMES")) return SplitPathList(files);
  std::vector<std::string> directories = {"/etc/glvnd/egl_vendor.d", "/usr/share/glvnd/egl_vendor.d"};
  if (const char* dirs = GlvndVariable("__EGL_VENDOR_LIBRARY_DIRS")) directories = SplitPathList(dirs);
  std::vector<std::string> files;
  for (const std::string& directory : directories) {
    for (std::string& file : JsonFilesIn(directory)) files.push_back(std::move(file));
  }
  return files;
}

bool ReadGlvndVendorLibrary(const std::string& vendor_file, std::string* library, std::string* error) {
  std::ifstream file(vendor_file);
  if (!file) {
    *error = "cannot read glvnd vendor file " + vendor_file;
    return false;
  }
  std::stringstream contents;
  contents << file.rdbuf();
  const std::string text = contents.str();
  const std::string key = "\"library_path\"";
  size_t at = text.find(key);
  if (at != std::string::npos) at = text.find_first_not_of(" \t\r\n", at + key.size());
  if (at != std::string::npos && text[at] == ':') at = text.find_first_not_of(" \t\r\n", at + 1);
  if (at == std::string::npos || !ReadJsonString(text, at, library) || library->empty()) {
    *error = "glvnd vendor file " + vendor_file + " names no library (\"library_path\")";
    return false;
  }
  return true;
}

std::vector<std::string> OtherGlvndVendorLibraries(const std::string& own_directory,
                                                   std::vector<std::string>* unreadable) {
  const std::string own = RealPath(own_directory);
  std::vector<std::string> libraries;
  for (const std::string& file : GlvndVendorFiles()) {
    std::string library, why;
    if (!ReadGlvndVendorLibrary(file, &library, &why)) {
      unreadable->push_back(why);
      continue;
    }
    std::string resolved = library.find('/') != std::string::npos ? RealPath(library) : library;
    if (!own.empty() && resolved.rfind(own + "/", 0) == 0) continue;
    libraries.push_back(library);
  }
  return libraries;
}

}  // namespace strata::loader
