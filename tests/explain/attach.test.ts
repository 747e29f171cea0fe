import { attachExplanations } from '../../src/explain/attach.js';
import { differential } from '../../src/explain/differential.js';
import { sampleReport } from '../report/fixtures.js';
import { explainedReport, sampleProfiles } from './fixtures.js';

describe('attachExplanations', () => {
  const report = explainedReport();
  const result = (name: string) => report.results.find((r) => r.benchmark === name)!;

  it('gives the profiled regression its differential, the slowed function first', () => {
    const e = result('parse').explain!;
    expect(e.profiler).toBe('perf');
    expect(e.samples).toEqual({ base: 4800, head: 4800 });
    expect(e.work).toEqual({ base: 120, head: 120, unit: 'iteration' });
    expect(e.seconds).toBe(4.2);
    expect(e.method).toMatchObject({ interval: 'bootstrap', familyLevel: 0.99, seed: 11 });
    const first = e.functions[0]!;
    expect(first).toMatchObject({ name: 'parse_line', kind: 'self', beyondNoise: true });
    // 1.3 × a share of 0.16 among weights summing to 1.054: +3.6 pp expected (SE ≈ 0.8 pp)
    expect(first.change).toBeGreaterThan(0.015);
    expect(first.change).toBeLessThan(0.065);
    // the measured +12% (a time) is the time ratio of the contributions
    expect(e.timeRatioSource).toBe('measured');
    expect(e.timeRatio).toBeCloseTo(1 + result('parse').comparison!.change, 12);
    expect(e.files).toEqual({
      flameGraph: 'profiles/parse/diff.html',
      raw: [
        'profiles/parse/base.perf.data',
        'profiles/parse/head.perf.data',
        'profiles/parse/base.speedscope.json',
        'profiles/parse/head.speedscope.json',
      ],
    });
  });

  it('gives a metric of the same benchmark none when the benchmark itself has a result', () => {
    expect(result('parse - system').explain).toBeUndefined();
  });

  it('flags nothing in the A/A pair and keeps file names of hostile benchmarks safe', () => {
    const e = result('serialize @octocat <b>|</b>').explain!;
    expect(e.method!.interval).toBe('newcombe');
    expect(e.functions.filter((f) => f.beyondNoise)).toEqual([]);
    expect(e.files.flameGraph).toMatch(
      /^profiles\/serialize__octocat__b____b_-[0-9a-f]{8}\/diff\.html$/,
    );
  });

  it('says why a side has no profile, and names a called result that was not profiled', () => {
    expect(result('render').explain).toMatchObject({
      profiler: null,
      functions: [],
      files: { flameGraph: null, raw: [] },
      warning: 'perf could not profile head: perf_event_paranoid is 4 and sudo -n is refused',
    });
    const regression = sampleReport().results.find((r) => r.comparison?.verdict === 'regression')!;
    const none = attachExplanations(sampleReport(), {
      ...sampleProfiles(),
      pairs: [],
      warnings: ['perf: not installed'],
    });
    expect(none.results.find((r) => r.benchmark === regression.benchmark)!.explain).toMatchObject({
      warning: 'no profile was taken of this benchmark (perf: not installed)',
    });
    // unchanged results are not wanted under `changed`; `never` attaches nothing
    expect(
      none.results.find((r) => r.comparison?.verdict === 'unchanged')!.explain,
    ).toBeUndefined();
    const never = attachExplanations(sampleReport(), {
      ...sampleProfiles(),
      pairs: [],
      policy: 'never',
    });
    expect(never.results.every((r) => r.explain === undefined)).toBe(true);
  });

  it('turns a profile the differential refuses into a warning, keeping the verdicts', () => {
    const profiles = sampleProfiles();
    profiles.pairs[0]!.head!.chunks[3]!.stacks[1]!.count = 2.5;
    const attached = attachExplanations(sampleReport(), profiles);
    const parse = attached.results.find((r) => r.benchmark === 'parse')!;
    expect(parse.comparison!.verdict).toBe('regression');
    expect(parse.explain).toMatchObject({
      profiler: null,
      functions: [],
      seconds: 4.2,
      warning:
        'the profiles could not be compared: head.chunks[3].stacks[1].count: 2.5; expected an integer ≥ 0',
    });
  });

  it('uses the differential of the pair unchanged but for the level, seed and time ratio', () => {
    const pair = sampleProfiles().pairs[0]!;
    const c = result('parse').comparison!;
    const d = differential(pair.base!, pair.head!, {
      familyLevel: 0.99,
      seed: 11,
      timeRatio: {
        estimate: 1 + c.change,
        lower: 1 + c.ci.lower,
        upper: 1 + c.ci.upper,
        level: c.ci.level,
      },
    });
    expect(result('parse').explain!.functions).toEqual(d.functions);
    expect(result('parse').explain).toMatchObject({
      timeRatioSource: 'measured',
      timeRatioInterval: { level: d.method.level },
    });
  });

  it('takes the whole command’s ratio for a profile that ran the whole command', () => {
    const profiles = sampleProfiles();
    profiles.pairs[0]!.scope = 'command';
    const ratio = { estimate: 1.05, lower: 1.03, upper: 1.07, level: 0.99 };
    const attached = attachExplanations(sampleReport(), profiles, {
      commandRatios: { head: ratio },
    });
    const parse = attached.results.find((r) => r.benchmark === 'parse')!;
    expect(parse.explain).toMatchObject({ timeRatio: 1.05, timeRatioSource: 'command' });
    // without one, the profiles' own ratio
    const own = attachExplanations(sampleReport(), profiles);
    expect(own.results.find((r) => r.benchmark === 'parse')!.explain).toMatchObject({
      timeRatioSource: 'profile',
      timeRatioInterval: null,
    });
  });

  it('gives a derived row (MB/s of ns/op) no block of its own: its primary has the profile', () => {
    const report = sampleReport();
    const parse = report.results.find((r) => r.benchmark === 'parse')!;
    report.results.push({ ...parse, benchmark: 'parse - MB/s', derivedFrom: 'parse' });
    const attached = attachExplanations(report, sampleProfiles());
    expect(attached.results.find((r) => r.benchmark === 'parse')!.explain).toBeDefined();
    expect(attached.results.find((r) => r.benchmark === 'parse - MB/s')!.explain).toBeUndefined();
  });
});
