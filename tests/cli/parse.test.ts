import path from 'node:path';
import { main } from '../../src/cli/main.js';
import { fakeContext as helperContext } from '../helpers/cli.js';

const FIXTURES = path.join(process.cwd(), 'tests', 'fixtures', 'formats');
const fakeContext = () => helperContext(FIXTURES, {});

describe('duetkit parse', () => {
  it('prints a table of name, unit, direction, n and median', async () => {
    const ctx = fakeContext();
    expect(await main(['parse', '--format', 'go', 'go/bench.txt'], ctx)).toBe(0);
    const lines = ctx.out.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^name\s+unit\s+better\s+n\s+median\s+values$/);
    expect(lines[1]).toMatch(/^BenchmarkSumSquares\s+ns\/op\s+smaller\s+3\s+277\.3\s+raw samples$/);
    expect(lines).toHaveLength(12);
  });

  it('prints every value read with --json, detecting the format', async () => {
    const ctx = fakeContext();
    expect(await main(['parse', 'jmh/bench.json', '--json'], ctx)).toBe(0);
    const list = JSON.parse(ctx.out);
    expect(list[0]).toEqual({
      name: 'duetkit.SumsBenchmark.joinWords ( {"n":"1000"} )',
      unit: 'ops/ms',
      biggerIsBetter: true,
      values: [3158.861594781124, 2309.5702461510127, 544.3421581177706],
    });
  });

  it("reads criterion's directory, or its stdout with --cwd", async () => {
    const fromDir = fakeContext();
    expect(
      await main(
        ['parse', '--format', 'criterion', 'criterion/target/criterion', '--json'],
        fromDir,
      ),
    ).toBe(0);
    expect(JSON.parse(fromDir.out)).toHaveLength(2);
    const fromStdout = fakeContext();
    const args = ['parse', '--format', 'criterion', 'criterion/stdout.txt', '--cwd', 'criterion'];
    expect(await main(args, fromStdout)).toBe(0);
    expect(fromStdout.out).toContain('fib_15');
  });

  it('fails with a one-line error naming the format and place', async () => {
    const ctx = fakeContext();
    expect(await main(['parse', '--format', 'pytest', 'go/bench.txt'], ctx)).toBe(2);
    expect(ctx.err).toMatch(
      /^duetkit: error: pytest output, line 1: expected the JSON written by --benchmark-json/,
    );
    const missing = fakeContext();
    expect(await main(['parse', 'nope.txt'], missing)).toBe(2);
    expect(missing.err).toContain('cannot read nope.txt');
    const dir = fakeContext();
    expect(await main(['parse', '--format', 'go', 'go'], dir)).toBe(2);
    expect(dir.err).toContain('is a directory');
    const unknown = fakeContext();
    expect(await main(['parse', '--format', 'nosuch', 'go/bench.txt'], unknown)).toBe(2);
    expect(unknown.err).toContain('unknown format "nosuch"');
  });
});
