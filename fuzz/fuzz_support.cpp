#include "fuzz_support.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "host/host_driver.h"
#include "stream/call_decoder.h"

namespace strata::fuzz {

const host::HostDriver& Driver() {
  static const host::HostDriver* driver = [] {
    std::string error;
    auto loaded = host::HostDriver::Load(STRATA_FUZZ_LIB_DIR, &error);
    if (!loaded) {
      std::fprintf(stderr, "fuzz: error: no host EGL/GLES to run calls on: %s\n", error.c_str());
      std::exit(1);
    }
    return loaded.release();  // lives as long as the process, as a driver must
  }();
  return *driver;
}

const stream::FunctionTable& OwnFunctions() {
  static const stream::FunctionTable* table = [] {
    auto* made = new stream::FunctionTable;
    made->Load(stream::FunctionTable::OwnNames());
    return made;
  }();
  return *table;
}

std::string AsFile(std::span<const uint8_t> bytes) {
  static const int fd = [] {
    int made = memfd_create("strata-fuzz-input", MFD_CLOEXEC);
    if (made < 0) {
      std::perror("fuzz: memfd_create");
      std::exit(1);
    }
    return made;
  }();
  if (ftruncate(fd, 0) != 0 || pwrite(fd, bytes.data(), bytes.size(), 0) != static_cast<ssize_t>(bytes.size())) {
    std::perror("fuzz: writing the input file");
    std::exit(1);
  }
  return "/proc/self/fd/" + std::to_string(fd);
}

}  // namespace strata::fuzz
