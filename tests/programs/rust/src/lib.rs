//! A tiny workload for duetkit's format fixtures. `DUETKIT_SLOW=1` makes it about twice as
//! slow, so an end-to-end duet test can show a regression without a second checkout.

fn slow() -> bool {
    std::env::var("DUETKIT_SLOW").map(|v| v == "1").unwrap_or(false)
}

/// Sum of squares below `n`, computed twice when slow.
pub fn sum_squares(n: u64) -> u64 {
    let rounds = if slow() { 2 } else { 1 };
    let mut total = 0u64;
    for _ in 0..rounds {
        total = (0..n).map(|i| std::hint::black_box(i * i)).sum();
    }
    total
}

/// Naive recursive Fibonacci, with an extra step when slow.
pub fn fib(n: u32) -> u64 {
    let k = if slow() { n + 1 } else { n };
    fn go(n: u32) -> u64 {
        if n < 2 { n as u64 } else { go(n - 1) + go(n - 2) }
    }
    go(std::hint::black_box(k))
}
