import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { main } from '../../src/cli/main.js';
import { analyzeSamples } from '../../src/analyze/analyze.js';
import type { SamplesFile, Trial } from '../../src/contracts/samples.js';
import { fakeContext as context } from '../helpers/cli.js';

/** A duet's samples: `time` regresses by 2x, `rate` (bigger is better) is steady. */
function samples(withRate: boolean, missing = false): SamplesFile {
  const trials: Trial[] = [];
  for (let round = 0; round < 12; round++) {
    for (const version of [0, 1]) {
      const noise = 1 + ((round * 7 + version * 3) % 5) / 100;
      const metrics = [
        { name: 'time', unit: 'ns', biggerIsBetter: false, values: [100 * (1 + version) * noise] },
      ];
      if (withRate) {
        metrics.push({ name: 'rate', unit: 'ops/s', biggerIsBetter: true, values: [50 * noise] });
      }
      trials.push({
        version,
        round,
        warmup: false,
        slot: version,
        startMs: 0,
        endMs: 1,
        wallMs: 1,
        metrics,
      });
    }
  }
  return {
    schemaVersion: 1,
    mode: 'duet',
    seed: 3,
    complete: true,
    stopReason: 'iterations',
    scenario: {
      name: 's',
      analysis: {
        level: 0.95,
        threshold: 0.05,
        resamples: 1000,
        method: 'percentile',
        adjustment: 'holm',
        blockLength: 1,
      },
    },
    versions: [{ name: 'base' }, { name: 'head' }],
    isolation: {
      requested: 'none',
      kind: 'none',
      slots: [],
      harnessCpus: null,
      cgroup: null,
      warnings: [],
    },
    trials,
    ...(missing
      ? {
          perBenchmark: {
            listedBy: 'base',
            lists: {},
            runs: [],
            missing: [{ benchmark: 'gone', versions: ['head'] }],
          },
        }
      : {}),
  } as unknown as SamplesFile;
}

/** The same samples with `time - system`: 0 on the base, a tick now and then on the head. */
function withZeros(s: SamplesFile): SamplesFile {
  return {
    ...s,
    trials: s.trials.map((t) => ({
      ...t,
      metrics: [
        ...t.metrics,
        {
          name: 'time - system',
          unit: 's',
          biggerIsBetter: false,
          values: [t.version === 1 && t.round % 3 === 0 ? 1e-4 : 0],
        },
      ],
    })),
  };
}

describe('duetkit export --format gab', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'duetkit-export-'));
    const write = (file: string, data: unknown) =>
      writeFile(path.join(root, file), JSON.stringify(data));
    await write('times.json', analyzeSamples(samples(false)));
    await write('both.json', analyzeSamples(samples(true)));
    await write('missing.json', analyzeSamples(samples(false, true)));
    await write('zeros.json', analyzeSamples(withZeros(samples(false))));
    await write('single.json', analyzeSamples(samples(false)).results[0]!.comparison);
    await write('other.json', { hello: 1 });
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('writes the one direction the benchmarks have, with how the verdict was obtained', async () => {
    const ctx = context(root);
    expect(await main(['export', '--format', 'gab', 'times.json', '--out', 'gab.json'], ctx)).toBe(
      0,
    );
    const entries = JSON.parse(await readFile(path.join(root, 'gab.json'), 'utf8'));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ name: 'time', unit: 'ns' });
    expect(entries[0].value).toBeGreaterThan(190);
    expect(entries[0].extra).toMatch(/verdict: regression/);
  });

  it('refuses gab for mixed directions and exports each explicitly', async () => {
    const gab = context(root);
    expect(await main(['export', '--format', 'gab', 'both.json'], gab)).toBe(2);
    expect(gab.err).toMatch(
      /both directions \(1 smaller is better, 1 bigger is better\).*--format customSmallerIsBetter/,
    );
    const bigger = context(root);
    expect(await main(['export', '--format', 'customBiggerIsBetter', 'both.json'], bigger)).toBe(0);
    expect(JSON.parse(bigger.out).map((e: { name: string }) => e.name)).toEqual(['rate']);
  });

  it('names benchmarks that could not be compared on stderr and exits 1', async () => {
    const ctx = context(root);
    expect(await main(['export', '--format', 'gab', 'missing.json'], ctx)).toBe(1);
    expect(ctx.err).toMatch(/error: gone: not run: head does not list it.*not exported/);
    expect(JSON.parse(ctx.out).map((e: { name: string }) => e.name)).toEqual(['time']);
  });

  it('exports a benchmark that is not comparable with its head value, says so, exits 0', async () => {
    const ctx = context(root);
    expect(await main(['export', '--format', 'gab', 'zeros.json'], ctx)).toBe(0);
    expect(ctx.err).toBe(
      'note: time - system: not comparable (base values are all 0: a relative change (head/base − 1) is undefined); exported with its head value\n',
    );
    const entries = JSON.parse(ctx.out);
    expect(entries.map((e: { name: string }) => e.name)).toEqual(['time', 'time - system']);
    expect(entries[1]).toMatchObject({ unit: 's', value: 0, range: expect.stringMatching(/^± /) });
    expect(entries[1].extra).toBe(
      'change: not comparable (base values are all 0: a relative change (head/base − 1) is undefined)\nn: base 12, head 12; statistic: trimmed\nbase: 0 s',
    );
  });

  it('takes a single comparison (compare-samples --json) with --name, and rejects other JSON', async () => {
    const single = context(root);
    expect(
      await main(['export', '--format', 'gab', 'single.json', '--name', 'parse'], single),
    ).toBe(0);
    expect(JSON.parse(single.out)[0].name).toBe('parse');
    const other = context(root);
    expect(await main(['export', '--format', 'gab', 'other.json'], other)).toBe(2);
    expect(other.err).toMatch(/other.json: not a comparison; expected comparison.json/);
  });
});
