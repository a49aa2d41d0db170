#include "common/log.h"

#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "common/env.h"

namespace strata {
namespace {

LogLevel ConfiguredLevel() {
  const char* value = GetEnv("STRATA_LOG");
  if (value == nullptr) return LogLevel::kWarning;
  if (!std::strcmp(value, "error") || !std::strcmp(value, "quiet")) return LogLevel::kError;
  if (!std::strcmp(value, "info")) return LogLevel::kInfo;
  if (!std::strcmp(value, "debug")) return LogLevel::kDebug;
  return LogLevel::kWarning;
}

const char* Prefix(LogLevel level) {
  switch (level) {
    case LogLevel::kError: return "error: ";
    case LogLevel::kWarning: return "warning: ";
    case LogLevel::kInfo: return "";
    case LogLevel::kDebug: return "debug: ";
  }
  return "";
}

}  // namespace

bool LogEnabled(LogLevel level) {
  static const LogLevel configured = ConfiguredLevel();
  return level <= configured;
}

void Log(LogLevel level, const char* format, ...) {
  if (!LogEnabled(level)) return;
  // One fprintf per message keeps lines from different threads whole.
  char message[1024];
  va_list args;
  va_start(args, format);
  std::vsnprintf(message, sizeof message, format, args);
  va_end(args);
  std::fprintf(stderr, "strata: %s%s\n", Prefix(level), message);
}

}  // namespace strata
