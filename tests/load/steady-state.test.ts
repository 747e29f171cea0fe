import { steadyStates } from '../../src/load/steady-state.js';
import { parseStreamLine } from '../../src/load/stream-samples.js';
import { streamSchema } from '../../src/scenario/service-schema.js';
import { mserTruncation } from '../../src/stats/mser.js';
import { createRng } from '../../src/stats/rng.js';

describe('warm-up trimming (MSER-5) and steady states', () => {
  const rng = createRng(5);
  const noisy = (n: number, level: number) =>
    Array.from({ length: n }, () => level + rng.nextNormal());

  it('MSER-5 finds a warm-up step and leaves a stationary series alone', () => {
    const series = [...noisy(40, 50), ...noisy(160, 100)];
    const cut = mserTruncation(series);
    expect(cut).toBeGreaterThanOrEqual(40);
    expect(cut).toBeLessThanOrEqual(50);
    expect(mserTruncation(noisy(200, 100))).toBeLessThanOrEqual(25);
    expect(mserTruncation([1, 2, 3])).toBe(0);
  });

  it('fixed and detected cuts; the mean of the rest', () => {
    const samples = [...noisy(20, 10), ...noisy(80, 100), ...noisy(10, 30)].map((value, i) => ({
      t: i * 0.5,
      name: 'throughput',
      value,
    }));
    const spec = streamSchema.parse({ warmup: 10, cooldown: 5, biggerIsBetter: true });
    const [fixed] = steadyStates(samples, spec);
    expect(fixed!.kept).toBe(80);
    expect(fixed!.value).toBeCloseTo(100, 0);
    expect(fixed!.warmupSeconds).toBe(10);
    const detected = steadyStates(
      samples,
      streamSchema.parse({ warmup: 'detect', cooldown: 'detect', biggerIsBetter: true }),
    )[0]!;
    expect(detected.value).toBeGreaterThan(99);
    expect(detected.value).toBeLessThan(101);
  });

  it('errors name the metric: unknown direction, too few samples left', () => {
    const samples = noisy(10, 1).map((value, t) => ({ t, name: 'lag', value }));
    expect(() => steadyStates(samples, streamSchema.parse({ warmup: 0 }))).toThrow(
      'workload.stream.metrics.lag.biggerIsBetter',
    );
    expect(() =>
      steadyStates(samples, streamSchema.parse({ warmup: 8, biggerIsBetter: false })),
    ).toThrow('"lag": 2 of its 10 samples are left after trimming');
  });

  it('reads TIME VALUE, TIME NAME VALUE and JSON lines; anything else is an error', () => {
    expect(parseStreamLine('1.5 200', 'v')).toEqual([{ t: 1.5, name: 'v', value: 200 }]);
    expect(parseStreamLine('2 lag 3.5', 'v')).toEqual([{ t: 2, name: 'lag', value: 3.5 }]);
    expect(parseStreamLine('{"time": 3, "tput": 9, "lag": 1}', 'v')).toEqual([
      { t: 3, name: 'tput', value: 9 },
      { t: 3, name: 'lag', value: 1 },
    ]);
    expect(parseStreamLine('# header', 'v')).toEqual([]);
    expect(() => parseStreamLine('starting up', 'v')).toThrow('expected "TIME VALUE"');
  });
});
