// A view of contiguous elements (pointer + length), like C++20's std::span.
// The engine uses its own so that the sources the bot export
// (export/) copies into one file also compile as C++17.
#pragma once
#include <array>
#include <cstddef>
#include <type_traits>
#include <vector>

namespace mushroom {

template <typename T>
class Span {
 public:
  constexpr Span() = default;
  constexpr Span(T* data, size_t size) : data_(data), size_(size) {}
  template <typename U, typename = std::enable_if_t<std::is_convertible_v<U (*)[], T (*)[]>>>
  Span(std::vector<U>& v) : data_(v.data()), size_(v.size()) {}
  template <typename U, typename = std::enable_if_t<std::is_convertible_v<const U (*)[], T (*)[]>>>
  Span(const std::vector<U>& v) : data_(v.data()), size_(v.size()) {}
  template <typename U, size_t N, typename = std::enable_if_t<std::is_convertible_v<U (*)[], T (*)[]>>>
  constexpr Span(U (&a)[N]) : data_(a), size_(N) {}
  template <typename U, size_t N, typename = std::enable_if_t<std::is_convertible_v<U (*)[], T (*)[]>>>
  constexpr Span(std::array<U, N>& a) : data_(a.data()), size_(N) {}
  template <typename U, typename = std::enable_if_t<std::is_convertible_v<U (*)[], T (*)[]>>>
  constexpr Span(const Span<U>& s) : data_(s.data()), size_(s.size()) {}

  constexpr T* data() const { return data_; }
  constexpr size_t size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr T& operator[](size_t i) const { return data_[i]; }
  constexpr T* begin() const { return data_; }
  constexpr T* end() const { return data_ + size_; }
  constexpr T& front() const { return data_[0]; }
  constexpr T& back() const { return data_[size_ - 1]; }
  constexpr Span subspan(size_t offset, size_t count) const { return Span(data_ + offset, count); }
  constexpr Span first(size_t count) const { return Span(data_, count); }

 private:
  T* data_ = nullptr;
  size_t size_ = 0;
};
template <typename T>
Span(T*, size_t) -> Span<T>;

}  // namespace mushroom
