import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { runCli } from '../helpers/cli.js';

let dir: string;
const file = (name: string, text: string): string => {
  writeFileSync(path.join(dir, name), text);
  return name;
};

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'duetkit-cs-'));
  file('base.txt', '# base\n100\n101\n\n99\n100.5\n100.2\n99.8\n100.1\n100.4\n');
  file('head.txt', '[110, 111, 109, 110.5, 110.2, 109.8, 110.1, 110.4]');
  file('short.txt', '1\n');
  file('bad.txt', '1\n2\nabc\n');
  file('seven.txt', '1\n2\n3\n4\n5\n6\n7\n');
  file('zeros.txt', '0\n0\n0\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('duetkit compare-samples', () => {
  it('prints a readable table with the verdict and how it was obtained', async () => {
    const r = await runCli(['compare-samples', 'base.txt', 'head.txt', '--seed', '7'], dir);
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    expect(r.out).toMatch(/^benchmark\s+base\s+head\s+change\s+99% CI\s+p \(MWU\)\s+verdict$/m);
    expect(r.out).toMatch(/head\.txt vs base\.txt .* \+9\.\d\d% .* regression/);
    expect(r.out).toContain('BCa 99% CI');
    expect(r.out).toContain('10000 resamples, seed 7');
  });

  it('prints the Comparison JSON with --json, honouring every option', async () => {
    const r = await runCli(
      [
        'compare-samples',
        'base.txt',
        'head.txt',
        '--json',
        '--paired',
        '--level',
        '95%',
        '--resamples',
        '2000',
        '--seed',
        '3',
        '--statistic',
        'median',
        '--method',
        'percentile',
        '--threshold',
        '20%',
        '--bigger-is-better',
      ],
      dir,
    );
    expect(r.code).toBe(0);
    const c = JSON.parse(r.out);
    expect(c).toMatchObject({
      schemaVersion: 1,
      ci: { level: 0.95, method: 'percentile', resamples: 2000, seed: 3 },
      test: { name: 'wilcoxon-signed-rank' },
      n: { base: 8, head: 8 },
      paired: true,
      statistic: 'median',
      threshold: 0.2,
      biggerIsBetter: true,
      verdict: 'unchanged',
      seed: 3,
    });
    for (const key of ['change', 'verdict']) expect(c).toHaveProperty(key);
    expect(typeof c.test.pValue).toBe('number');
  });

  it('records a random seed when none is given', async () => {
    const a = JSON.parse(
      (await runCli(['compare-samples', 'base.txt', 'head.txt', '--json'], dir)).out,
    );
    expect(Number.isInteger(a.seed)).toBe(true);
    expect(a.ci.seed).toBe(a.seed);
  });

  it.each([
    [['missing.txt', 'head.txt'], 'cannot read the base file "missing.txt": no such file'],
    [['base.txt', 'bad.txt'], 'bad.txt:3: "abc" is not a number'],
    [['short.txt', 'head.txt'], 'short.txt: needs at least 2 values, found 1'],
    [
      ['base.txt', 'seven.txt', '--paired'],
      '--paired needs files of equal length: base.txt has 8 values, seven.txt has 7',
    ],
    [
      ['base.txt', 'head.txt', '--level', '-0.5'],
      "option '--level <level>' argument '-0.5' is invalid",
    ],
    [
      ['base.txt', 'head.txt', '--threshold', '5'],
      `argument '5' is invalid. got "5"; expected a fraction above 0 and below 1 like 0.05, or a percentage`,
    ],
    [['base.txt', 'head.txt', '--method', 'abc'], 'Expected one of: percentile, bca'],
    [['base.txt', 'head.txt', '--resamples', '10'], 'Expected an integer from 100 to 10000000'],
    // one comparison and nothing else to report: "not comparable" is the answer, as an error
    [
      ['zeros.txt', 'head.txt'],
      'duetkit: error: not comparable: base values are all 0: a relative change (head/base − 1) is undefined',
    ],
  ])('refuses %j with a one-line error', async (args, message) => {
    const r = await runCli(['compare-samples', ...args], dir);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toContain(message);
    expect(r.err).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('works as a real process: exit status and stderr', async () => {
    const tsx = path.resolve('node_modules/tsx/dist/cli.mjs');
    const bin = path.resolve('src/cli/bin.ts');
    const run = promisify(execFile);
    const ok = await run(
      process.execPath,
      [tsx, bin, 'compare-samples', 'base.txt', 'head.txt', '--json'],
      {
        cwd: dir,
      },
    );
    expect(JSON.parse(ok.stdout).verdict).toBe('regression');
    const failed = await run(
      process.execPath,
      [tsx, bin, 'compare-samples', 'base.txt', 'bad.txt'],
      {
        cwd: dir,
      },
    ).catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 2 });
    expect((failed as { stderr: string }).stderr.trim()).toBe(
      'duetkit: error: bad.txt:3: "abc" is not a number',
    );
  });

  it('--help describes every option', async () => {
    const r = await runCli(['compare-samples', '--help'], dir);
    expect(r.code).toBe(0);
    for (const flag of [
      '--paired',
      '--level',
      '--resamples',
      '--seed',
      '--statistic',
      '--method',
      '--threshold',
      '--bigger-is-better',
      '--json',
    ]) {
      expect(r.out).toContain(flag);
    }
  });
});
