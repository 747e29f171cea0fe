#define CATCH_CONFIG_MAIN
#define CATCH_CONFIG_ENABLE_BENCHMARKING
#include <catch2/catch.hpp>
#include "sums.hpp"

TEST_CASE("sums", "[benchmark]") {
  BENCHMARK("sum_squares 1000") { return sum_squares(1000); };
  BENCHMARK("join_words 64") { return join_words(64); };
}
