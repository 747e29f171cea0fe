"""A program with four functions of known shares of the work (benchmarks/explain-programs.ts):
parse_records 40%, hash_keys 30%, encode_output 20%, validate 10%: the same loop body run 4, 3,
2 and 1 times UNIT steps per round. ENCODE_EXTRA_PERCENT is the constructed slowdown: the head
made by the benchmark sets it to 50, so encode_output does 3 units a round instead of 2 (+10% of
the whole)."""
import sys

ENCODE_EXTRA_PERCENT = 0
UNIT = 2000
MASK = (1 << 32) - 1


def parse_records(n, s):
    for i in range(n):
        s = (s * 40503 + i) & MASK
    return s


def hash_keys(n, s):
    for i in range(n):
        s = (s * 40507 + i) & MASK
    return s


def encode_output(n, s):
    for i in range(n):
        s = (s * 40529 + i) & MASK
    return s


def validate(n, s):
    for i in range(n):
        s = (s * 40531 + i) & MASK
    return s


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    s = 1
    for _ in range(rounds):
        s = parse_records(4 * UNIT, s)
        s = hash_keys(3 * UNIT, s)
        s = encode_output(2 * UNIT + 2 * UNIT * ENCODE_EXTRA_PERCENT // 100, s)
        s = validate(1 * UNIT, s)
    print(s)


main()
