import { readdirSync, readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { main } from '../../src/cli/main.js';
import { parse } from '../formats/helpers.js';
import { fakeContext as context } from '../helpers/cli.js';
import { makeWorkspace, removeWorkspace } from '../runner/helpers.js';

// Real hyperfine exports of `hyperfine -N --runs 3 true` (tests/programs/hyperfine/regenerate.sh):
// the kernel split the CPU time of most runs all into user time, so their system time is 0.
const FIXTURES = path.join(process.cwd(), 'tests/fixtures/formats/hyperfine/zero-cpu');
const RUNS = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => readFileSync(path.join(FIXTURES, f), 'utf8'));

// Each call prints the next export, starting at the one `start` names: base and head replay the
// real runs, offset from each other, so every pair of a round differs.
const PICK = `n=$(cat count)
echo $((n + 1)) > count
cat "run-$((n % ${RUNS.length} + 1)).json"
`;

const SCENARIO = `name: hyperfine-zero
versions:
  - {name: base, path: base}
  - {name: head, path: head}
workload:
  command: sh pick.sh
  format: hyperfine
iterations: ${RUNS.length}
warmup: 1
seed: 7
analysis: {resamples: 2000}
`;

describe('duetkit run: hyperfine with a system time of 0', () => {
  let root: string;
  beforeAll(async () => {
    const side = (start: number) => ({
      'pick.sh': PICK,
      count: `${start}\n`,
      ...Object.fromEntries(RUNS.map((text, i) => [`run-${i + 1}.json`, text])),
    });
    root = await makeWorkspace({ base: side(0), head: side(3) });
    await writeFile(path.join(root, 'zero.yml'), SCENARIO);
  });
  afterAll(() => removeWorkspace(root));

  it('the fixture is what the test is about: system times of 0 beside positive ones', () => {
    const system = RUNS.map(
      (text) => parse('hyperfine', text).find((b) => b.name === 'true - system')!.values[0],
    );
    expect(system).toContain(0);
    expect(system.some((v) => v! > 0)).toBe(true);
  });

  it('reports `- system` as not comparable and exits 0: only comparable metrics decide', async () => {
    const ctx = context(root);
    const code = await main(['run', 'zero.yml', '--out', 'out', '--fail-on', 'regression'], ctx);
    const report = JSON.parse(await readFile(path.join(root, 'out', 'comparison.json'), 'utf8'));
    expect(report.schemaVersion).toBe(4);
    const byName = Object.fromEntries(
      report.results.map((r: { benchmark: string }) => [r.benchmark, r]),
    );
    expect(Object.keys(byName)).toEqual(['true', 'true - user', 'true - system']);
    expect(byName['true - system']).toMatchObject({
      comparison: null,
      error: null,
      valueKind: 'summary',
      notComparable: {
        reason: expect.stringMatching(/^\d of 8 base values are 0: a relative change/),
        base: { n: 8, min: 0 },
      },
    });
    for (const name of ['true', 'true - user']) expect(byName[name].comparison).not.toBeNull();
    expect(report.summary).toMatchObject({ notComparable: 1, error: 0 });
    expect(report.summary.regression).toBe(0);
    expect(ctx.out).toMatch(
      /\ntrue - system +0 s ±[\d.]+% +0 s ±[\d.]+% +– +– +– +not comparable\n/,
    );
    expect(ctx.out).toMatch(/\ntrue - system: not comparable: \d of 8 base values are 0/);
    expect(ctx.out).toMatch(/ 1 not comparable, 0 error\n/);
    expect(code).toBe(0);
  });

  it('analyze exits 1 when no metric is comparable: nothing was judged', async () => {
    const samples = JSON.parse(await readFile(path.join(root, 'out', 'samples.json'), 'utf8'));
    for (const trial of samples.trials) {
      trial.metrics = trial.metrics.filter((m: { name: string }) => m.name === 'true - system');
    }
    await writeFile(path.join(root, 'system-only.json'), JSON.stringify(samples));
    const ctx = context(root);
    expect(await main(['analyze', 'system-only.json', '--fail-on', 'never'], ctx)).toBe(1);
    expect(ctx.out).toContain('error: no benchmark could be compared, so there is no verdict');
    expect(ctx.out).toContain('0 inconclusive, 1 not comparable, 0 error');
  });
});
