use criterion::{criterion_group, criterion_main, Criterion};
use duetkit_bench_rust::{fib, sum_squares};
use std::hint::black_box;
use std::time::Duration;

fn benches(c: &mut Criterion) {
    c.bench_function("sum_squares_1000", |b| b.iter(|| sum_squares(black_box(1000))));
    c.bench_function("fib_15", |b| b.iter(|| fib(black_box(15))));
}

// Few samples and short times: fixtures stay small and regenerate in seconds on 2 cores.
criterion_group! {
    name = group;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(700));
    targets = benches
}
criterion_main!(group);
