#include <benchmark/benchmark.h>
#include "sums.hpp"

static void BM_SumSquares(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(sum_squares(1000));
}
BENCHMARK(BM_SumSquares);

// An argument and counters, so the fixture shows how they are named and which way they point.
static void BM_JoinWords(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(join_words(n));
  state.SetItemsProcessed(state.iterations() * n);
  state.counters["words"] = n;
}
BENCHMARK(BM_JoinWords)->Arg(64);

BENCHMARK_MAIN();
