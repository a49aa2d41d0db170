#pragma once
// An array of trivially copyable values that grows to hundreds of MiB while
// a trace is read into memory (a preloaded replay's record index and the
// calls kept decoded), appended to without being zeroed first, and grown
// with realloc: for blocks this large glibc moves the pages (mremap)
// instead of copying bytes into fresh ones, whose page faults dominate
// filling memory on a VM. Out of memory throws std::bad_alloc, as
// operator new does.

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

namespace strata {

template <typename T>
class GrowingArray {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  GrowingArray() = default;
  GrowingArray(const GrowingArray&) = delete;
  GrowingArray& operator=(const GrowingArray&) = delete;
  GrowingArray(GrowingArray&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)),
        capacity_(std::exchange(other.capacity_, 0)) {}
  GrowingArray& operator=(GrowingArray&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(capacity_, other.capacity_);
    return *this;
  }
  ~GrowingArray() { std::free(data_); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }

  void push_back(const T& value) { std::memcpy(Append(1), &value, sizeof(T)); }
  // Room for `n` more values at the end, which the caller writes.
  T* Append(size_t n) {
    if (capacity_ - size_ < n) Reallocate(std::max({capacity_ * 2, size_ + n, kFirstCapacity}));
    T* at = data_ + size_;
    size_ += n;
    return at;
  }
  void Truncate(size_t size) { size_ = size; }
  void clear() { size_ = 0; }
  // Gives back what is not used.
  void ShrinkToFit() {
    if (size_ == capacity_) return;
    if (size_ == 0) {
      std::free(std::exchange(data_, nullptr));
      capacity_ = 0;
      return;
    }
    if (T* smaller = static_cast<T*>(std::realloc(data_, size_ * sizeof(T)))) {
      data_ = smaller;
      capacity_ = size_;
    }
  }

 private:
  static constexpr size_t kFirstCapacity = std::max<size_t>(1, 4096 / sizeof(T));
  void Reallocate(size_t capacity) {
    T* grown = static_cast<T*>(std::realloc(data_, capacity * sizeof(T)));
    if (grown == nullptr) throw std::bad_alloc();
    data_ = grown;
    capacity_ = capacity;
  }
  T* data_ = nullptr;
  size_t size_ = 0, capacity_ = 0;
};

}  // namespace strata
