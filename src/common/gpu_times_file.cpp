#include "common/gpu_times_file.h"

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string_view>

namespace strata {
namespace {

constexpr std::string_view kFirstLine = "# strata gpu-times 1";
constexpr std::string_view kColumns = "# call\tframe\tcontext\tgpu_ns";

// Metadata values stay on their line.
std::string OneLine(std::string text) {
  for (char& c : text) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return text;
}

bool Number(std::string_view text, uint64_t* value) {
  auto [end, failed] = std::from_chars(text.data(), text.data() + text.size(), *value);
  return failed == std::errc() && end == text.data() + text.size() && !text.empty();
}

}  // namespace

bool WriteGpuTimesFile(const std::string& path, const GpuTimesFile& file, std::string* error) {
  FILE* out = std::fopen(path.c_str(), "w");
  if (out == nullptr) {
    *error = "cannot write " + path + ": " + std::strerror(errno);
    return false;
  }
  std::fprintf(out, "%.*s\n# trace: %s\n# renderer: %s\n# loops: %llu\n%.*s\n", static_cast<int>(kFirstLine.size()),
               kFirstLine.data(), OneLine(file.trace).c_str(), OneLine(file.renderer).c_str(),
               static_cast<unsigned long long>(file.loops), static_cast<int>(kColumns.size()), kColumns.data());
  for (const GpuTime& call : file.calls) {
    std::fprintf(out, "%llu\t%llu\t%llu\t%llu\n", static_cast<unsigned long long>(call.sequence),
                 static_cast<unsigned long long>(call.frame), static_cast<unsigned long long>(call.context),
                 static_cast<unsigned long long>(call.ns));
  }
  const bool written = std::ferror(out) == 0;
  if (std::fclose(out) != 0 || !written) {
    *error = "cannot write " + path + ": " + std::strerror(errno ? errno : EIO);
    std::remove(path.c_str());
    return false;
  }
  return true;
}

bool ReadGpuTimesFile(const std::string& path, GpuTimesFile* file, std::string* error) {
  std::ifstream in(path);
  if (!in.is_open()) {
    *error = "cannot read " + path + ": " + std::strerror(errno);
    return false;
  }
  std::string line;
  if (!std::getline(in, line) || line != kFirstLine) {
    *error = path + " is not a file of GPU times (strata replay --gpu-times FILE writes them)";
    return false;
  }
  *file = GpuTimesFile{};
  uint64_t number = 1;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty()) continue;
    if (line[0] == '#') {
      const std::string_view text(line);
      for (auto [key, value] : {std::pair{"# trace: ", &file->trace}, std::pair{"# renderer: ", &file->renderer}}) {
        if (text.starts_with(key)) *value = line.substr(std::strlen(key));
      }
      if (text.starts_with("# loops: ") && !Number(text.substr(9), &file->loops)) file->loops = 1;
      continue;
    }
    GpuTime call;
    uint64_t* fields[] = {&call.sequence, &call.frame, &call.context, &call.ns};
    std::string_view rest(line);
    bool ok = true;
    for (size_t i = 0; i < 4 && ok; ++i) {
      const size_t tab = i < 3 ? rest.find('\t') : rest.size();
      ok = tab != std::string_view::npos && Number(rest.substr(0, tab), fields[i]);
      if (ok && i < 3) rest = rest.substr(tab + 1);
    }
    if (!ok) {
      *error = path + ", line " + std::to_string(number) + ": not a call's GPU time (call, frame, context, ns)";
      return false;
    }
    file->calls.push_back(call);
  }
  return true;
}

}  // namespace strata
