#pragma once
// Which layers a process should load, and where to look for them: the Linux
// equivalents of Android's debug.gles.layers property and per-app settings.
// Shared by the loader and `strata layers`.

#include <string>
#include <vector>

namespace strata::loader {

// One application's persistent settings (Android: enable_gpu_debug_layers,
// gpu_debug_app, gpu_debug_layers_gles, gpu_debug_layer_app).
struct AppLayerSettings {
  std::string app;                        // executable name, e.g. "glmark2-es2"
  bool enabled = true;
  std::vector<std::string> layers;        // file names, nearest the app first
  std::vector<std::string> search_paths;  // extra directories to search
};

// The per-user settings file: $XDG_CONFIG_HOME/strata/layers.conf
// (default ~/.config/strata/layers.conf); "" when it cannot be determined.
std::string SettingsFilePath();

// Reads the file; a missing file is an empty list. Returns false with `error`
// naming the file and line on a malformed file.
bool LoadSettings(const std::string& path, std::vector<AppLayerSettings>* apps, std::string* error);
bool SaveSettings(const std::string& path, const std::vector<AppLayerSettings>& apps, std::string* error);

// What the calling process should load.
struct LayerPlan {
  std::vector<std::string> layers;
  std::vector<std::string> extra_search_paths;
  std::string source;  // "STRATA_LAYERS", "settings for app NAME", or "" when none
  std::string notice;  // a refusal to report (setuid process, bad settings file), or ""
};

// STRATA_LAYERS wins (it is explicit for this process tree); otherwise the
// enabled per-app settings naming `app_names` (any of them). Then the layers
// of STRATA_LAYERS_FIRST go in front of either, each unless the plan already
// has it (`strata run` puts its switched-off trace layer there, so that it
// neither replaces nor hides the layers chosen otherwise). A setuid/setgid
// process gets no layers at all.
LayerPlan PlanLayers(const std::vector<std::string>& app_names);

std::vector<std::string> SplitColonList(const std::string& list);
std::string JoinColonList(const std::vector<std::string>& items);

}  // namespace strata::loader
