// strata layers enable|disable|list: persistent per-application layer settings
// (Android's enable_gpu_debug_layers / gpu_debug_app / gpu_debug_layers_gles /
// gpu_debug_layer_app) and what would load from where.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "loader/layer_discovery.h"
#include "loader/layer_settings.h"
#include "tools/command.h"
#include "tools/command_line.h"
#include "tools/install_paths.h"
#include "tools/program_launch.h"

namespace strata::tools {
namespace {

using loader::AppLayerSettings;

constexpr char kUsage[] = R"(usage: strata layers enable --app NAME LAYER[:LAYER...] [--path DIR]...
       strata layers disable --app NAME
       strata layers list [--app NAME]

Per-application GLES layer settings, kept in $XDG_CONFIG_HOME/strata/layers.conf
(default ~/.config/strata/layers.conf). An application is named by its
executable's file name. Layers are named by file name; the first one listed is
nearest the app.

  enable    turn layers on for NAME, with this layer list and extra search
            directories (--path, repeatable), replacing earlier settings for NAME
  disable   delete the settings for NAME
  list      show the settings and, for each layer, the file that would load and
            the search directory it comes from, or why it would not load

Where layers are searched, first match wins: STRATA_LAYER_PATH, the
application's own directory, the app's --path directories,
$XDG_DATA_HOME/strata/layers, and Strata's layer directory (built-in layers);
in each, its multiarch subdirectory (e.g. x86_64-linux-gnu/) first.
STRATA_LAYERS=a:b, or `strata run --layers a:b`, overrides the settings for
one run. Setuid/setgid programs never load layers.
)";

int Fail(const std::string& message) {
  std::fprintf(stderr, "strata layers: error: %s\n", message.c_str());
  return 1;
}

bool Load(std::vector<AppLayerSettings>* apps, std::string* path, std::string* error) {
  *path = loader::SettingsFilePath();
  if (path->empty()) {
    *error = "cannot locate the settings file: set XDG_CONFIG_HOME or HOME";
    return false;
  }
  return loader::LoadSettings(*path, apps, error);
}

void PrintResolution(const std::vector<std::string>& layers, const std::vector<std::string>& extra_paths,
                     const std::string& app_directory) {
  auto dirs = loader::LayerSearchDirectories(extra_paths, app_directory, StrataLibraryDirectory());
  int position = 0;
  for (const std::string& name : layers) {
    loader::LayerLocation location = loader::LocateLayer(name, dirs);
    std::printf("    %d. %-32s ", ++position, name.c_str());
    if (!location.path.empty()) {
      std::printf("%s  (%s)\n", location.path.c_str(), location.origin.c_str());
    } else {
      std::printf("will not load: %s\n", location.error.c_str());
    }
    for (const std::string& refusal : location.refused) std::printf("       refused %s\n", refusal.c_str());
  }
}

int Enable(const std::string& app, const std::string& layer_list, const std::vector<std::string>& paths) {
  std::vector<AppLayerSettings> apps;
  std::string path, error;
  if (!Load(&apps, &path, &error)) return Fail(error);
  AppLayerSettings settings{app, true, loader::SplitColonList(layer_list), paths};
  if (settings.layers.empty()) return Fail("no layers given");
  for (const std::string& layer : settings.layers) {
    if (layer.find('/') != std::string::npos) return Fail("'" + layer + "' is a path; name layers by file name and use --path DIR");
  }
  std::erase_if(apps, [&](const AppLayerSettings& a) { return a.app == app; });
  apps.push_back(settings);
  if (!loader::SaveSettings(path, apps, &error)) return Fail(error);
  std::printf("layers enabled for %s: %s (%s)\n", app.c_str(), loader::JoinColonList(settings.layers).c_str(),
              path.c_str());
  return 0;
}

int Disable(const std::string& app) {
  std::vector<AppLayerSettings> apps;
  std::string path, error;
  if (!Load(&apps, &path, &error)) return Fail(error);
  size_t removed = std::erase_if(apps, [&](const AppLayerSettings& a) { return a.app == app; });
  if (removed == 0) {
    std::printf("no layer settings for %s\n", app.c_str());
    return 0;
  }
  if (!loader::SaveSettings(path, apps, &error)) return Fail(error);
  std::printf("layers disabled for %s\n", app.c_str());
  return 0;
}

int List(const std::string& app) {
  std::vector<AppLayerSettings> apps;
  std::string path, error;
  if (!Load(&apps, &path, &error)) return Fail(error);
  std::printf("settings file: %s\n", path.c_str());
  std::string env_layers = getenv("STRATA_LAYERS") ? getenv("STRATA_LAYERS") : "";
  if (!env_layers.empty()) {
    std::printf("\nSTRATA_LAYERS=%s (overrides the settings below in this environment)\n", env_layers.c_str());
    PrintResolution(loader::SplitColonList(env_layers), {}, "");
  }
  bool shown = false;
  for (const AppLayerSettings& settings : apps) {
    if (!app.empty() && settings.app != app) continue;
    shown = true;
    std::string program = FindProgram(settings.app);
    std::string app_dir = program.empty() ? "" : program.substr(0, program.rfind('/'));
    std::printf("\napp %s: %s\n", settings.app.c_str(), settings.enabled ? "enabled" : "disabled");
    if (!settings.search_paths.empty()) {
      std::printf("  extra search paths: %s\n", loader::JoinColonList(settings.search_paths).c_str());
    }
    PrintResolution(settings.layers, settings.search_paths, app_dir);
  }
  if (!shown) std::printf("\n%s\n", app.empty() ? "no applications have layer settings"
                                                 : ("no layer settings for " + app).c_str());
  return 0;
}

}  // namespace

int LayersCommandMain(int argc, char** argv) {
  if (argc < 2) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  std::string verb = argv[1];
  if (verb == "-h" || verb == "--help") {
    std::fputs(kUsage, stdout);
    return 0;
  }
  std::string app;
  std::vector<std::string> paths;
  // The action is the command line's first word; its options follow.
  CommandLine args("strata layers", kUsage, {{"help", 'h', false}, {"app", 0, true}, {"path", 0, true}}, argc - 1,
                   argv + 1);
  while (args.Next()) {
    if (args.Is("help")) {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (args.Is("app")) {
      app = args.value();
    } else if (args.Is("path")) {
      paths.emplace_back(args.value());
    }
  }
  if (args.failed()) return 2;
  const std::vector<std::string>& positional = args.operands();
  auto usage_error = [&](const char* why) {
    std::fprintf(stderr, "strata layers: error: %s\n%s", why, kUsage);
    return 2;
  };
  if (verb == "enable") {
    if (app.empty()) return usage_error("enable needs --app NAME");
    if (positional.size() != 1) return usage_error("enable needs one colon-separated layer list");
    return Enable(app, positional[0], paths);
  }
  if (verb == "disable") {
    if (app.empty() || !positional.empty() || !paths.empty()) return usage_error("disable takes only --app NAME");
    return Disable(app);
  }
  if (verb == "list") {
    if (!positional.empty() || !paths.empty()) return usage_error("list takes only --app NAME");
    return List(app);
  }
  return usage_error(("unknown action '" + verb + "'").c_str());
}

}  // namespace strata::tools
