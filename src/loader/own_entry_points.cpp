#include "loader/own_entry_points.h"

#include <dlfcn.h>
#include <link.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace strata::loader {
namespace {

struct SegmentSearch {
  std::vector<const link_map*> objects;
  std::vector<OwnEntryPoints::Range>* ranges;
};

// The loaded segments of each object the search names, by its link map.
int AddSegments(dl_phdr_info* info, size_t, void* data) {
  auto* search = static_cast<SegmentSearch*>(data);
  for (const link_map* map : search->objects) {
    if (map->l_addr != info->dlpi_addr || std::strcmp(map->l_name, info->dlpi_name) != 0) continue;
    for (int i = 0; i < info->dlpi_phnum; ++i) {
      const ElfW(Phdr)& segment = info->dlpi_phdr[i];
      if (segment.p_type != PT_LOAD) continue;
      const uintptr_t start = info->dlpi_addr + segment.p_vaddr;
      search->ranges->push_back({start, start + segment.p_memsz});
    }
  }
  return 0;
}

}  // namespace

OwnEntryPoints::OwnEntryPoints(const std::string& own_directory) {
  SegmentSearch search{{}, &ranges_};
  for (const char* file :
       {"libEGL.so.1", "libGLESv2.so.2", "libGLESv1_CM.so.1", "libGL.so.1", "libstrata_loader.so"}) {
    void* handle = dlopen((own_directory + "/" + file).c_str(), RTLD_LAZY | RTLD_NOLOAD);
    if (handle == nullptr) continue;  // not loaded: nothing of it can be handed out
    link_map* map = nullptr;
    if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map != nullptr) search.objects.push_back(map);
    dlclose(handle);  // only the reference RTLD_NOLOAD took
  }
  dl_iterate_phdr(AddSegments, &search);
}

bool OwnEntryPoints::Contains(const void* function) const {
  const auto address = reinterpret_cast<uintptr_t>(function);
  return std::any_of(ranges_.begin(), ranges_.end(),
                     [address](const Range& range) { return address >= range.start && address < range.end; });
}

}  // namespace strata::loader
