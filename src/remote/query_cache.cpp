#include "remote/query_cache.h"

#include <algorithm>
#include <iterator>

#include "common/gl_state_lists.h"

namespace strata::remote {
namespace {

static_assert(std::size(kCapabilities) <= 32);

int CachedIndex(GLenum pname, int version) {
  const int index = QueryCache::Index(pname);
  return index >= 0 && version >= 2 && version >= kCachedPnames[index].since_version ? index : -1;
}

}  // namespace

int CapabilityIndex(GLenum cap, int client_version) {
  if (client_version < 2) return -1;
  for (size_t i = 0; i < std::size(kCapabilities); ++i) {
    if (kCapabilities[i].value != cap) continue;
    const int since = kCapabilities[i].min_version;
    return since <= 30 && client_version * 10 >= since ? static_cast<int>(i) : -1;
  }
  return -1;
}

GLenum CapabilityAt(int index) { return kCapabilities[index].value; }

bool QueryCache::Integer(GLenum pname, GLint* data) const {
  const int index = CachedIndex(pname, version_);
  if (index < 0 || (known_ & (1u << index)) == 0) return false;
  std::copy_n(values_[index], kCachedPnames[index].count, data);
  return true;
}

void QueryCache::LearnInteger(GLenum pname, const GLint* data) {
  if (const int index = CachedIndex(pname, version_); index >= 0) LearnAt(index, data);
}

bool QueryCache::Enabled(GLenum cap, GLboolean* on) const {
  const int index = CapabilityIndex(cap, version_);
  if (index < 0 || (caps_known_ & (1u << index)) == 0) return false;
  *on = (caps_on_ & (1u << index)) != 0 ? GL_TRUE : GL_FALSE;
  return true;
}

void QueryCache::ForgetKnown(uint32_t groups) {
  if (groups & kQueryCapabilities) caps_known_ = 0;
  for (size_t i = 0; i < std::size(kCachedPnames); ++i) {
    if (kCachedPnames[i].groups & groups) known_ &= ~(1u << i);
  }
}

}  // namespace strata::remote
