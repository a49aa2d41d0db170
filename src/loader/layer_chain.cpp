#include "loader/layer_chain.h"

#include <dlfcn.h>

#include "common/log.h"

namespace strata::loader {

void LayerChain::Build(const std::vector<std::string>& names, const std::vector<LayerSearchDirectory>& directories,
                       const DispatchTable& bottom, void* (*driver_get_proc_address)(const char*),
                       DispatchTable* top) {
  driver_get_proc_address_ = driver_get_proc_address;
  *top = bottom;
  for (const std::string& name : names) {
    LayerLocation location = LocateLayer(name, directories);
    for (const std::string& refusal : location.refused) STRATA_WARN("layer %s refused: %s", name.c_str(), refusal.c_str());
    if (location.path.empty()) {
      if (location.refused.empty()) STRATA_WARN("layer %s skipped: %s", name.c_str(), location.error.c_str());
      continue;
    }
    void* handle = dlopen(location.path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      STRATA_WARN("layer %s skipped: cannot load: %s", location.path.c_str(), dlerror());
      continue;
    }
    auto layer = std::make_unique<Layer>();
    layer->path = location.path;
    layer->handle = handle;
    layer->initialize = reinterpret_cast<PFNANDROIDGLESLAYERINITIALIZEPROC>(dlsym(handle, "AndroidGLESLayer_Initialize"));
    layer->get_proc_address =
        reinterpret_cast<PFNANDROIDGLESLAYERGETPROCADDRESSPROC>(dlsym(handle, "AndroidGLESLayer_GetProcAddress"));
    if (!layer->initialize || !layer->get_proc_address) {
      STRATA_WARN("layer %s skipped: it does not export %s", location.path.c_str(),
                  !layer->initialize ? "AndroidGLESLayer_Initialize" : "AndroidGLESLayer_GetProcAddress");
      continue;  // never dlclose: the library's constructors may have registered state
    }
    STRATA_INFO("layer %zu: %s (from %s)", layers_.size() + 1, location.path.c_str(), location.origin.c_str());
    layer->chain = this;
    layers_.push_back(std::move(layer));
  }
  for (size_t i = 0; i < layers_.size(); ++i) layers_[i]->index = i;

  // Nearest the driver first: each layer's `next` is the entry below it.
  for (size_t i = layers_.size(); i-- > 0;) {
    Layer& layer = *layers_[i];
    layer.below = *top;
    layer.initialize(&layer, &LayerChain::GetNextLayerProcAddress);
    std::string null_names;
    int null_count = 0;
    for (int slot = 0; slot < api::kFunctionCount; ++slot) {
      void* next = top->entries[slot];
      void* entry = reinterpret_cast<void*>(
          layer.get_proc_address(api::kFunctions[slot].name, reinterpret_cast<EGLFuncPointer>(next)));
      if (entry == nullptr) {
        if (++null_count <= 5) null_names += std::string(null_names.empty() ? "" : ", ") + api::kFunctions[slot].name;
        entry = next;  // treated as pass-through
      }
      top->entries[slot] = entry;
    }
    if (null_count > 0) {
      STRATA_WARN("layer %s returned NULL for %d functions (%s%s); they pass through", layer.path.c_str(), null_count,
                  null_names.c_str(), null_count > 5 ? ", ..." : "");
    }
  }
}

void* LayerChain::ThroughLayersBelow(size_t index, const char* name, void* from_driver) {
  void* entry = from_driver;
  for (size_t i = layers_.size(); i-- > index;) {
    void* answer =
        reinterpret_cast<void*>(layers_[i]->get_proc_address(name, reinterpret_cast<EGLFuncPointer>(entry)));
    if (answer != nullptr) entry = answer;
  }
  return entry;
}

void* LayerChain::GetNextLayerProcAddress(void* layer_id, const char* name) {
  if (layer_id == nullptr || name == nullptr) return nullptr;
  const Layer& layer = *static_cast<const Layer*>(layer_id);
  int slot = api::FindFunction(name);
  if (slot >= 0) return layer.below.entries[slot];
  LayerChain& chain = *layer.chain;
  void* from_driver = chain.driver_get_proc_address_ ? chain.driver_get_proc_address_(name) : nullptr;
  return chain.ThroughLayersBelow(layer.index + 1, name, from_driver);
}

void* LayerChain::ResolveUnknown(const char* name, void* from_below) {
  if (layers_.empty()) return from_below;
  std::lock_guard<std::mutex> lock(unknown_mutex_);
  auto [it, inserted] = unknown_.try_emplace(name, nullptr);
  if (inserted) it->second = ThroughLayersBelow(0, name, from_below);
  return it->second;
}

}  // namespace strata::loader
