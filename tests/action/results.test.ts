import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readResults, RESULT_FILES, type RunRecord } from '../../src/action/results.js';
import { explainedReport } from '../explain/fixtures.js';
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

  it('reads schema version 4 with a benchmark that is not comparable', async () => {
    await write(sampleReport());
    const { report } = await readResults(dir);
    expect(report.schemaVersion).toBe(4);
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

  it('reads schema version 2 as version 3 with nothing unmeasured and nothing exact', async () => {
    const v2 = JSON.parse(JSON.stringify(sampleReport()));
    v2.schemaVersion = 2;
    for (const r of v2.results) delete r.unmeasured;
    delete v2.summary.unmeasured;
    await write(v2);
    const { report } = await readResults(dir);
    expect(report.summary.unmeasured).toBe(0);
    expect(report.results.map((r) => r.unmeasured)).toEqual(report.results.map(() => null));
    expect(report.results.some((r) => r.exact !== undefined)).toBe(false);
  });

  it('reads an unmeasured result and an exact one, and refuses a tampered exact value', async () => {
    const v3 = JSON.parse(JSON.stringify(sampleReport()));
    v3.results.push({
      ...v3.results[0],
      benchmark: 'late',
      comparison: null,
      unmeasured: 'not measured within the budget (60 s): 0 pairs',
    });
    v3.results.push({
      ...v3.results[0],
      benchmark: 'parse - allocs/op',
      exact: { base: 2, head: 3 },
    });
    v3.summary.unmeasured = 1;
    await write(v3);
    const { report } = await readResults(dir);
    expect(report.summary.unmeasured).toBe(1);
    expect(report.results.find((r) => r.benchmark === 'late')!.unmeasured).toMatch(/^not measured/);
    expect(report.results.find((r) => r.benchmark === 'parse - allocs/op')!.exact).toEqual({
      base: 2,
      head: 3,
    });
    v3.results[v3.results.length - 1].exact.head = 'x';
    await write(v3);
    await expect(readResults(dir)).rejects.toThrow(/results\.\d+\.exact\.head/);
  });

  it('refuses a tampered reason or side', async () => {
    const bad = JSON.parse(JSON.stringify(sampleReport()));
    bad.results[4].notComparable.base.median = 'NaN';
    await write(bad);
    await expect(readResults(dir)).rejects.toThrow(
      /is not a duetkit result: results\.4\.notComparable\.base\.median/,
    );
    bad.schemaVersion = 5;
    await write(bad);
    await expect(readResults(dir)).rejects.toThrow(/schemaVersion/);
  });

  it('reads version 3 without explain blocks, and version 4 with them, refusing a tampered one', async () => {
    const v3 = JSON.parse(JSON.stringify(sampleReport()));
    v3.schemaVersion = 3;
    await write(v3);
    expect((await readResults(dir)).report.results.every((r) => r.explain === undefined)).toBe(
      true,
    );
    const v4 = JSON.parse(JSON.stringify(explainedReport()));
    await write(v4);
    const { report } = await readResults(dir);
    expect(report.results[0]!.explain!.functions[0]!.name).toBe('parse_line');
    v4.results[0].explain.functions[0].change = 'a lot';
    await write(v4);
    await expect(readResults(dir)).rejects.toThrow(/results\.0\.explain\.functions\.0\.change/);
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
