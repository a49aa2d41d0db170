#pragma once
// The chain of GLES layers between the app and the driver (Android's
// LayerLoader): loads each layer, calls AndroidGLESLayer_Initialize, asks
// AndroidGLESLayer_GetProcAddress for every function, and answers the layers'
// get_next_layer_proc_address. Knows nothing of what a layer does.

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "loader/dispatch.h"
#include "loader/layer_discovery.h"
#include "strata/gles_layer.h"

namespace strata::loader {

class LayerChain {
 public:
  // `bottom` holds, per slot, the function below every layer (the driver's, or
  // a stub). On return, `top` holds what the app's calls must enter: the
  // bottom entry where no layer intercepts, the nearest layer's function otherwise.
  // `driver_get_proc_address` answers names the registry does not know.
  void Build(const std::vector<std::string>& names, const std::vector<LayerSearchDirectory>& directories,
             const DispatchTable& bottom, void* (*driver_get_proc_address)(const char*), DispatchTable* top);

  bool empty() const { return layers_.empty(); }
  size_t size() const { return layers_.size(); }
  const std::string& path(size_t index) const { return layers_[index]->path; }

  // A function the registry does not know, threaded through every layer
  // (cached: the same name always gives the same pointer).
  void* ResolveUnknown(const char* name, void* from_below);

 private:
  struct Layer {
    size_t index = 0;  // 0 is nearest the app
    std::string path;
    void* handle = nullptr;
    PFNANDROIDGLESLAYERINITIALIZEPROC initialize = nullptr;
    PFNANDROIDGLESLAYERGETPROCADDRESSPROC get_proc_address = nullptr;
    DispatchTable below{};  // entries under this layer, for get_next_layer_proc_address
    LayerChain* chain = nullptr;
  };

  static void* GetNextLayerProcAddress(void* layer_id, const char* name);
  void* ThroughLayersBelow(size_t index, const char* name, void* from_driver);

  std::vector<std::unique_ptr<Layer>> layers_;
  void* (*driver_get_proc_address_)(const char*) = nullptr;
  std::mutex unknown_mutex_;
  std::unordered_map<std::string, void*> unknown_;
};

}  // namespace strata::loader
