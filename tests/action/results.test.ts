import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readResults, RESULT_FILES, type RunRecord } from '../../src/action/results.js';
import { SAMPLE_META, sampleReport } from '../report/fixtures.js';

describe('readResults (the fork-safe comment step reads an uploaded artifact)', () => {
  let dir: string;
  const record: RunRecord = {
    schemaVersion: 1,
    suite: 'core',
    pullRequest: null,
    meta: SAMPLE_META,
  };
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'duetkit-results-'));
    await writeFile(path.join(dir, RESULT_FILES.run), JSON.stringify(record));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));
  const write = (report: unknown) =>
    writeFile(path.join(dir, RESULT_FILES.comparison), JSON.stringify(report));

  it('reads schema version 2 with a benchmark that is not comparable', async () => {
    await write(sampleReport());
    const { report } = await readResults(dir);
    expect(report.schemaVersion).toBe(2);
    expect(report.summary.notComparable).toBe(1);
    const sys = report.results.find((r) => r.benchmark === 'parse - system')!;
    expect(sys.notComparable?.reason).toMatch(/^base values are all 0/);
  });

  it('reads schema version 1 as version 2 with nothing not comparable', async () => {
    const v2 = sampleReport();
    const v1 = JSON.parse(JSON.stringify(v2));
    v1.schemaVersion = 1;
    v1.results = v1.results.filter((r: { notComparable: unknown }) => r.notComparable === null);
    for (const r of v1.results) delete r.notComparable;
    delete v1.summary.notComparable;
    await write(v1);
    const { report } = await readResults(dir);
    expect(report.summary.notComparable).toBe(0);
    expect(report.results.every((r) => r.notComparable === null)).toBe(true);
  });

  it('refuses a tampered reason or side', async () => {
    const bad = JSON.parse(JSON.stringify(sampleReport()));
    bad.results[4].notComparable.base.median = 'NaN';
    await write(bad);
    await expect(readResults(dir)).rejects.toThrow(
      /is not a duetkit result: results\.4\.notComparable\.base\.median/,
    );
    bad.schemaVersion = 3;
    await write(bad);
    await expect(readResults(dir)).rejects.toThrow(/schemaVersion/);
  });

  it('keeps the history trend of the run step, and refuses one that is not a sparkline', async () => {
    await write(sampleReport());
    const trends = { label: 'trend (last 3 runs)', byBenchmark: { parse: '▁▄█' } };
    await writeFile(
      path.join(dir, RESULT_FILES.run),
      JSON.stringify({ ...record, meta: { ...SAMPLE_META, trends } }),
    );
    expect((await readResults(dir)).run.meta.trends).toEqual(trends);
    const bad = { ...trends, byBenchmark: { parse: '<img src=x>' } };
    await writeFile(
      path.join(dir, RESULT_FILES.run),
      JSON.stringify({ ...record, meta: { ...SAMPLE_META, trends: bad } }),
    );
    await expect(readResults(dir)).rejects.toThrow(/meta\.trends\.byBenchmark\.parse/);
  });
});
