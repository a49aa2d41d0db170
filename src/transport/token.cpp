#include "transport/token.h"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace strata::transport {
namespace {

constexpr size_t kTokenBytes = 32;
constexpr size_t kTokenDigits = 2 * kTokenBytes;

bool Fail(std::string* error, std::string message) {
  *error = std::move(message);
  return false;
}

std::string ModeText(mode_t mode) {
  char text[8];
  std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode & 07777));
  return text;
}

bool RandomBytes(uint8_t* data, size_t n, std::string* error) {
  while (n > 0) {
    ssize_t got = getrandom(data, n, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return Fail(error, std::string("cannot get random bytes for a token: ") + std::strerror(errno));
    data += got;
    n -= static_cast<size_t>(got);
  }
  return true;
}

bool IsToken(const std::string& text) {
  if (text.size() != kTokenDigits) return false;
  for (char c : text)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

}  // namespace

bool NewToken(std::string* token, std::string* error) {
  uint8_t bytes[kTokenBytes];
  if (!RandomBytes(bytes, sizeof bytes, error)) return false;
  static constexpr char kDigits[] = "0123456789abcdef";
  token->clear();
  for (uint8_t byte : bytes) {
    *token += kDigits[byte >> 4];
    *token += kDigits[byte & 15];
  }
  return true;
}

bool WriteNewToken(const std::string& path, std::string* token, std::string* error) {
  std::string hex;
  if (!NewToken(&hex, error)) return false;

  struct stat old{};
  if (lstat(path.c_str(), &old) == 0) {
    if (!S_ISREG(old.st_mode) || old.st_uid != geteuid())
      return Fail(error, "cannot write token file " + path + ": something else is there (not a file of ours)");
    if (unlink(path.c_str()) != 0 && errno != ENOENT)
      return Fail(error, "cannot replace token file " + path + ": " + std::strerror(errno));
  } else if (errno != ENOENT) {
    return Fail(error, "cannot write token file " + path + ": " + std::strerror(errno));
  }
  // O_EXCL|O_NOFOLLOW: if anything appeared there since, we fail rather than write through it.
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return Fail(error, "cannot create token file " + path + ": " + std::strerror(errno));
  std::string line = hex + "\n";
  bool written = fchmod(fd, 0600) == 0 && write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size());
  int number = errno;
  if (close(fd) != 0 && written) {
    written = false;
    number = errno;
  }
  if (!written) {
    unlink(path.c_str());
    return Fail(error, "cannot write token file " + path + ": " + std::strerror(number));
  }
  *token = std::move(hex);
  return true;
}

bool ReadToken(const std::string& path, std::string* token, std::string* error) {
  int fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return Fail(error, "cannot read token file " + path + ": " + std::strerror(errno));
  struct stat status{};
  if (fstat(fd, &status) != 0 || !S_ISREG(status.st_mode)) {
    close(fd);
    return Fail(error, "token file " + path + " is not a regular file");
  }
  if ((status.st_mode & 077) != 0) {
    close(fd);
    const char* how = (status.st_mode & 044) != 0 ? "readable" : "writable";
    return Fail(error, "token file " + path + " is " + how + " by others (mode " + ModeText(status.st_mode) +
                           "); chmod 600 " + path);
  }
  char buffer[kTokenDigits + 8];
  size_t size = 0;
  for (ssize_t got; size < sizeof buffer && (got = read(fd, buffer + size, sizeof buffer - size)) != 0;) {
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      int number = errno;
      close(fd);
      return Fail(error, "cannot read token file " + path + ": " + std::strerror(number));
    }
    size += static_cast<size_t>(got);
  }
  close(fd);
  std::string text(buffer, size);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.pop_back();
  if (!IsToken(text)) return Fail(error, "token file " + path + " does not hold a token (64 hex digits)");
  *token = std::move(text);
  return true;
}

bool TokensEqual(const std::string& a, const std::string& b) {
  // Every byte is looked at whatever the differences; only the lengths (public) cut it short.
  size_t n = a.size() < b.size() ? a.size() : b.size();
  unsigned difference = a.size() != b.size() ? 1u : 0u;
  const volatile char* left = a.data();
  const volatile char* right = b.data();
  for (size_t i = 0; i < n; ++i) difference |= static_cast<unsigned char>(left[i] ^ right[i]);
  return difference == 0;
}

}  // namespace strata::transport
