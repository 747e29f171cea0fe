"""A tiny workload for duetkit's format fixtures. DUETKIT_SLOW=1 makes it about twice as slow,
so an end-to-end duet test can show a regression."""

import os

SLOW = os.environ.get("DUETKIT_SLOW") == "1"


def sum_squares(n):
    rounds = 2 if SLOW else 1
    total = 0
    for _ in range(rounds):
        total = sum(i * i for i in range(n))
    return total


def join_words(n):
    words = ["w"] * n
    if SLOW:
        words = words + ["w"] * n
    return " ".join(words)
