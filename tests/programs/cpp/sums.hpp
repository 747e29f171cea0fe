// A tiny workload for duetkit's format fixtures. DUETKIT_SLOW=1 makes it about twice as slow,
// so an end-to-end duet test can show a regression without a second checkout.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

inline bool duetkit_slow() {
  const char* v = std::getenv("DUETKIT_SLOW");
  return v != nullptr && std::strcmp(v, "1") == 0;
}

inline std::uint64_t sum_squares(std::uint64_t n) {
  static const int rounds = duetkit_slow() ? 2 : 1;
  volatile std::uint64_t total = 0;
  for (int r = 0; r < rounds; ++r) {
    total = 0;
    for (std::uint64_t i = 0; i < n; ++i) total = total + i * i;
  }
  return total;
}

inline std::string join_words(int n) {
  static const int factor = duetkit_slow() ? 2 : 1;
  std::string out;
  for (int i = 0; i < n * factor; ++i) out += "w ";
  return out;
}
