#include "loader/layer_discovery.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>

#include "common/env.h"
#include "loader/layer_settings.h"

namespace strata::loader {

std::vector<LayerSearchDirectory> LayerSearchDirectories(const std::vector<std::string>& extra_paths,
                                                         const std::string& application_directory,
                                                         const std::string& loader_directory) {
  std::vector<LayerSearchDirectory> in_order;
  if (const char* path = GetEnv("STRATA_LAYER_PATH")) {
    for (const std::string& dir : SplitColonList(path)) in_order.push_back({dir, "STRATA_LAYER_PATH"});
  }
  if (!application_directory.empty()) in_order.push_back({application_directory, "application directory"});
  for (const std::string& dir : extra_paths) in_order.push_back({dir, "app settings"});
  if (!IsSecureProcess()) {
    if (const char* data = GetEnv("XDG_DATA_HOME")) {
      in_order.push_back({std::string(data) + "/strata/layers", "XDG_DATA_HOME"});
    } else if (const char* home = secure_getenv("HOME"); home && *home) {
      in_order.push_back({std::string(home) + "/.local/share/strata/layers", "XDG_DATA_HOME"});
    }
  }
  in_order.push_back({loader_directory + "/layers", "Strata's layer directory"});
  // Each directory's ABI subdirectory first, as Android looks for a layer built
  // for the app's ABI before a plain one.
  std::vector<LayerSearchDirectory> dirs;
  for (const LayerSearchDirectory& dir : in_order) {
    if (*STRATA_MULTIARCH) dirs.push_back({dir.path + "/" STRATA_MULTIARCH, dir.origin + ", " STRATA_MULTIARCH});
    dirs.push_back(dir);
  }
  return dirs;
}

std::string LayerFileRefusal(const std::string& path) {
  struct stat file{};
  if (stat(path.c_str(), &file) != 0) return "cannot stat " + path;
  if (!S_ISREG(file.st_mode)) return path + " is not a regular file";
  std::string dir = path.substr(0, path.rfind('/'));
  if (dir.empty()) dir = "/";
  struct stat directory{};
  if (stat(dir.c_str(), &directory) == 0 && (directory.st_mode & S_IWOTH)) {
    return "directory " + dir + " is world-writable";
  }
  if (file.st_mode & S_IWOTH) return path + " is world-writable";
  if (file.st_uid != 0 && file.st_uid != geteuid()) {
    return path + " belongs to uid " + std::to_string(file.st_uid) + ", not to the user or root";
  }
  return "";
}

LayerLocation LocateLayer(const std::string& name, const std::vector<LayerSearchDirectory>& directories) {
  LayerLocation location;
  if (name.find('/') != std::string::npos) {
    location.error = "'" + name + "' is a path; layers are named by file name (put the directory in "
                     "STRATA_LAYER_PATH)";
    return location;
  }
  for (const LayerSearchDirectory& dir : directories) {
    std::string candidate = dir.path + "/" + name;
    if (access(candidate.c_str(), F_OK) != 0) continue;
    std::string refusal = LayerFileRefusal(candidate);
    if (!refusal.empty()) {
      location.refused.push_back(candidate + ": " + refusal);
      continue;
    }
    location.path = candidate;
    location.origin = dir.origin;
    return location;
  }
  if (!location.refused.empty()) {
    location.error = "refused: " + location.refused.front();
  } else {
    std::string searched;
    for (const LayerSearchDirectory& dir : directories) searched += (searched.empty() ? "" : ", ") + dir.path;
    location.error = "not found (searched " + searched + ")";
  }
  return location;
}

}  // namespace strata::loader
