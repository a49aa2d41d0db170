#include "loader/layer_settings.h"

#include <algorithm>

#include <sys/stat.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/env.h"

namespace strata::loader {
namespace {

std::string Trim(const std::string& s) {
  size_t begin = s.find_first_not_of(" \t\r");
  size_t end = s.find_last_not_of(" \t\r");
  return begin == std::string::npos ? "" : s.substr(begin, end - begin + 1);
}

// "" on success, else why the directory could not be made.
std::string MakeDirectories(const std::string& dir) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  return error ? "cannot create " + dir + ": " + error.message() : "";
}

}  // namespace

std::vector<std::string> SplitColonList(const std::string& list) {
  std::vector<std::string> items;
  std::stringstream stream(list);
  for (std::string item; std::getline(stream, item, ':');) {
    item = Trim(item);
    if (!item.empty()) items.push_back(item);
  }
  return items;
}

std::string JoinColonList(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ":") + item;
  return out;
}

std::string SettingsFilePath() {
  if (const char* config = GetEnv("XDG_CONFIG_HOME")) return std::string(config) + "/strata/layers.conf";
  const char* home = secure_getenv("HOME");
  if (home == nullptr || *home == '\0') return "";
  return std::string(home) + "/.config/strata/layers.conf";
}

bool LoadSettings(const std::string& path, std::vector<AppLayerSettings>* apps, std::string* error) {
  apps->clear();
  std::ifstream in(path);
  if (!in) return true;  // no settings yet
  AppLayerSettings* current = nullptr;
  int line_number = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_number;
    line = Trim(line);
    if (line.empty() || line[0] == '#') continue;
    auto fail = [&](const std::string& why) {
      *error = path + ":" + std::to_string(line_number) + ": " + why;
      return false;
    };
    if (line.front() == '[') {
      if (line.back() != ']' || line.rfind("[app ", 0) != 0) return fail("expected '[app NAME]'");
      apps->push_back({});
      current = &apps->back();
      current->app = Trim(line.substr(5, line.size() - 6));
      if (current->app.empty()) return fail("empty application name");
      continue;
    }
    auto equals = line.find('=');
    if (equals == std::string::npos) return fail("expected 'key = value'");
    if (current == nullptr) return fail("setting outside an '[app NAME]' section");
    std::string key = Trim(line.substr(0, equals)), value = Trim(line.substr(equals + 1));
    if (key == "enabled") {
      if (value != "true" && value != "false") return fail("enabled must be true or false");
      current->enabled = value == "true";
    } else if (key == "layers") {
      current->layers = SplitColonList(value);
    } else if (key == "paths") {
      current->search_paths = SplitColonList(value);
    } else {
      return fail("unknown key '" + key + "'");
    }
  }
  return true;
}

bool SaveSettings(const std::string& path, const std::vector<AppLayerSettings>& apps, std::string* error) {
  std::string dir = path.substr(0, path.rfind('/'));
  if (std::string why = MakeDirectories(dir); !why.empty()) {
    *error = why;
    return false;
  }
  std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << "# Strata GLES layer settings, written by `strata layers enable/disable`.\n"
           "# One section per application (its executable name).\n";
    for (const AppLayerSettings& app : apps) {
      out << "\n[app " << app.app << "]\nenabled = " << (app.enabled ? "true" : "false")
          << "\nlayers = " << JoinColonList(app.layers) << "\npaths = " << JoinColonList(app.search_paths) << "\n";
    }
    if (!out.flush()) {
      *error = "cannot write " + temporary + ": " + std::strerror(errno);
      return false;
    }
  }
  // Replace atomically so a reading app never sees half a file.
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    *error = "cannot replace " + path + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

namespace {

LayerPlan PlanChosenLayers(const std::vector<std::string>& app_names) {
  LayerPlan plan;
  if (const char* list = GetEnv("STRATA_LAYERS")) {
    plan.layers = SplitColonList(list);
    plan.source = "STRATA_LAYERS";
    return plan;
  }
  std::vector<AppLayerSettings> apps;
  std::string error;
  if (!LoadSettings(SettingsFilePath(), &apps, &error)) {
    plan.notice = "layer settings ignored: " + error;
    return plan;
  }
  for (const AppLayerSettings& settings : apps) {
    for (const std::string& name : app_names) {
      if (settings.enabled && settings.app == name) {
        plan.layers = settings.layers;
        plan.extra_search_paths = settings.search_paths;
        plan.source = "settings for app " + name;
        return plan;
      }
    }
  }
  return plan;
}

}  // namespace

LayerPlan PlanLayers(const std::vector<std::string>& app_names) {
  if (IsSecureProcess()) {
    LayerPlan plan;
    if (std::getenv("STRATA_LAYERS") || std::getenv("STRATA_LAYER_PATH") || std::getenv("STRATA_LAYERS_FIRST")) {
      plan.notice = "setuid/setgid process: STRATA_LAYERS, STRATA_LAYER_PATH and the user's layer settings are "
                    "ignored, STRATA_LAYERS_FIRST too; no layers load";
    }
    return plan;
  }
  LayerPlan plan = PlanChosenLayers(app_names);
  if (const char* first = GetEnv("STRATA_LAYERS_FIRST")) {
    std::vector<std::string> in_front;
    for (const std::string& layer : SplitColonList(first)) {
      if (std::find(plan.layers.begin(), plan.layers.end(), layer) == plan.layers.end()) in_front.push_back(layer);
    }
    if (!in_front.empty()) {
      plan.layers.insert(plan.layers.begin(), in_front.begin(), in_front.end());
      plan.source = "STRATA_LAYERS_FIRST" + (plan.source.empty() ? "" : " and " + plan.source);
    }
  }
  return plan;
}

}  // namespace strata::loader
