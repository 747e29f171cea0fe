import { buildSchedule } from '../../src/load/schedule.js';
import { loadSchema } from '../../src/scenario/service-schema.js';

const load = (input: Record<string, unknown>) => loadSchema.parse(input);

describe('arrival schedules', () => {
  it('Poisson: the count is within 4 SD of qps × duration, gaps exponential, reproducible', () => {
    const spec = load({ stages: [{ duration: 20, qps: 500 }] });
    const a = buildSchedule(spec, 7);
    const n = a.times.length;
    expect(Math.abs(n - 10_000)).toBeLessThan(4 * Math.sqrt(10_000));
    const gaps = Array.from(a.times.slice(1), (t, i) => t - a.times[i]!);
    const mean = gaps.reduce((x, y) => x + y, 0) / gaps.length;
    const sd = Math.sqrt(gaps.reduce((x, g) => x + (g - mean) ** 2, 0) / gaps.length);
    expect(mean).toBeCloseTo(1 / 500, 4);
    expect(sd / mean).toBeGreaterThan(0.95); // exponential: CV 1
    expect(sd / mean).toBeLessThan(1.05);
    expect(Array.from(buildSchedule(spec, 7).times)).toEqual(Array.from(a.times));
    expect(buildSchedule(spec, 8).times[0]).not.toBe(a.times[0]);
  });

  it('constant arrivals are 1/qps apart from each stage start; warm-up stages are flagged', () => {
    const s = buildSchedule(
      load({
        arrival: 'constant',
        stages: [
          { duration: 1, qps: 4, warmup: true },
          { duration: 1, qps: 2 },
          { duration: 1, qps: 0 },
        ],
      }),
      1,
    );
    expect(Array.from(s.times)).toEqual([0, 0.25, 0.5, 0.75, 1, 1.5]);
    expect(Array.from(s.warmup)).toEqual([1, 1, 1, 1, 0, 0]);
    expect(s.measured).toEqual({ start: 1, end: 3, seconds: 2 });
    expect(s.duration).toBe(3);
  });

  it('clients: own start, rate, request cap and mix; adding one leaves the others unchanged', () => {
    const one = {
      name: 'a',
      stages: [{ duration: 2, qps: 50 }],
      mix: [{ path: '/a' }],
    };
    const two = {
      name: 'b',
      start: '1s',
      requests: 10,
      stages: [{ duration: 5, qps: 100 }],
      mix: [
        { path: '/b', weight: 1 },
        { path: '/c', weight: 3 },
      ],
    };
    const alone = buildSchedule(load({ clients: [one] }), 3);
    const both = buildSchedule(load({ clients: [one, two] }), 3);
    const fromA = Array.from(both.times).filter((_, i) => both.client[i] === 0);
    expect(fromA).toEqual(Array.from(alone.times));
    const fromB = Array.from(both.times).filter((_, i) => both.client[i] === 1);
    expect(fromB).toHaveLength(10);
    expect(Math.min(...fromB)).toBeGreaterThanOrEqual(1);
    expect(both.requests.map((r) => r.name)).toEqual(['GET /a', 'GET /b', 'GET /c']);
    expect(both.clients[1]).toMatchObject({ name: 'b', start: 1, requests: 10 });
  });

  it('the mix is drawn by weight', () => {
    const s = buildSchedule(
      load({
        stages: [{ duration: 10, qps: 2000 }],
        mix: [
          { path: '/x', weight: 1 },
          { path: '/y', weight: 3 },
        ],
      }),
      11,
    );
    const share = Array.from(s.request).filter((r) => r === 1).length / s.request.length;
    expect(share).toBeGreaterThan(0.74);
    expect(share).toBeLessThan(0.76);
  });

  it('refuses a phase that measures nothing, and two different requests with one name', () => {
    expect(() =>
      buildSchedule(load({ stages: [{ duration: 1, qps: 1, warmup: true }] }), 1),
    ).toThrow('every stage of the load is a warm-up stage');
    expect(() =>
      buildSchedule(
        load({
          stages: [{ duration: 1, qps: 1 }],
          mix: [
            { name: 'x', path: '/a' },
            { name: 'x', path: '/b' },
          ],
        }),
        1,
      ),
    ).toThrow('two different requests are both named "x"');
  });
});
