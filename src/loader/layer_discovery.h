#pragma once
// Where layers are found, in Android's priority order translated to Linux, and
// which files are safe to load.

#include <string>
#include <vector>

namespace strata::loader {

struct LayerSearchDirectory {
  std::string path;
  std::string origin;  // "STRATA_LAYER_PATH", "app settings", "application directory", ...
};

// The layers document's order: STRATA_LAYER_PATH (the root debug directory),
// the application's own directory (the app's base directory), the app
// settings' extra paths (the selected layer package), $XDG_DATA_HOME/strata/
// layers, then Strata's installed layer directory (`loader_directory`/layers);
// in each, its multiarch subdirectory (x86_64-linux-gnu/) before itself.
std::vector<LayerSearchDirectory> LayerSearchDirectories(const std::vector<std::string>& extra_paths,
                                                         const std::string& application_directory,
                                                         const std::string& loader_directory);

struct LayerLocation {
  std::string path;                  // the file to load, "" when none is usable
  std::string origin;                // which search directory it came from
  std::vector<std::string> refused;  // files found but refused, each with its reason
  std::string error;                 // why `path` is empty
};

// Finds layer `name` (a file name, not a path) in the directories, first usable one wins.
LayerLocation LocateLayer(const std::string& name, const std::vector<LayerSearchDirectory>& directories);

// Why a file must not be loaded as a layer ("" if it may): it or its directory
// is writable by others, or it belongs to someone other than the user or root.
std::string LayerFileRefusal(const std::string& path);

}  // namespace strata::loader
