from sums import join_words, sum_squares


def test_sum_squares(benchmark):
    benchmark(sum_squares, 1000)


def test_join_words(benchmark):
    benchmark(join_words, 100)
