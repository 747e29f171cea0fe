import { byName, fixture, formatError, fuzz, parse } from './helpers.js';

const real = fixture('hyperfine/bench.json');

describe('hyperfine format', () => {
  it('keeps every run time of the real hyperfine export', () => {
    const result = parse('hyperfine', real);
    expect(result.map((b) => b.name)).toEqual([
      'loop-2000',
      'loop-2000 - user',
      'loop-2000 - system',
      'loop-8000',
      'loop-8000 - user',
      'loop-8000 - system',
    ]);
    const loop = byName(result, 'loop-2000');
    expect(loop).toMatchObject({ unit: 's', biggerIsBetter: false, valueKind: 'samples' });
    expect(loop.values).toHaveLength(10);
    expect(loop.values[0]).toBe(0.0016663670000000002);
    expect(loop.values[9]).toBe(0.031768634999999996);
    expect(byName(result, 'loop-8000 - user')).toMatchObject({
      values: [0.00889354],
      valueKind: 'summary',
    });
  });

  it('keeps a system time of 0 (a short command without a shell) as it is', () => {
    // `hyperfine -N --runs 3 true`: the kernel put all the CPU time of its runs in user mode
    const result = parse('hyperfine', fixture('hyperfine/zero-cpu/run-1.json'));
    expect(result.map((b) => b.name)).toEqual(['true', 'true - user', 'true - system']);
    expect(byName(result, 'true - system')).toMatchObject({ values: [0], valueKind: 'summary' });
    expect(byName(result, 'true - user').values[0]).toBeGreaterThan(0);
  });

  it('rejects failing runs, truncation and empty results', () => {
    const json = JSON.parse(real);
    json.results[1].exit_codes[4] = 1;
    const failed = formatError(() => parse('hyperfine', JSON.stringify(json)));
    expect(failed.where).toBe('$.results[1].exit_codes[4]');
    expect(formatError(() => parse('hyperfine', '{"results": []}')).message).toContain(
      'no benchmark found',
    );
    expect(formatError(() => parse('hyperfine', real.slice(0, 200))).where).toMatch(/^line \d+$/);
    expect(
      formatError(() => parse('hyperfine', 'Error: Command terminated with non-zero exit code'))
        .where,
    ).toBe('line 1');
  });

  it('survives fuzzing with only FormatError', () => {
    fuzz('hyperfine', [real]);
  });
});
