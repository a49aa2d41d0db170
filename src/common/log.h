#pragma once
// Messages to stderr, prefixed "strata: ". The level comes from STRATA_LOG
// (error, warning, info, debug; default warning) so a traced app's output stays clean.

namespace strata {

enum class LogLevel { kError = 0, kWarning = 1, kInfo = 2, kDebug = 3 };

bool LogEnabled(LogLevel level);
void Log(LogLevel level, const char* format, ...) __attribute__((format(printf, 2, 3)));

#define STRATA_ERROR(...) ::strata::Log(::strata::LogLevel::kError, __VA_ARGS__)
#define STRATA_WARN(...) ::strata::Log(::strata::LogLevel::kWarning, __VA_ARGS__)
#define STRATA_INFO(...) ::strata::Log(::strata::LogLevel::kInfo, __VA_ARGS__)
#define STRATA_DEBUG(...) \
  do { \
    if (::strata::LogEnabled(::strata::LogLevel::kDebug)) ::strata::Log(::strata::LogLevel::kDebug, __VA_ARGS__); \
  } while (0)

}  // namespace strata
