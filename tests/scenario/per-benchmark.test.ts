import { parseScenario, ScenarioError } from '../../src/scenario/load.js';
import { matchesBenchmark } from '../../src/scenario/benchmark-pattern.js';

const base = {
  versions: [
    { name: 'base', path: 'a' },
    { name: 'head', path: 'b', env: { DUETKIT_SLOW: '1' } },
  ],
};

function problem(workload: Record<string, unknown>): string {
  try {
    parseScenario({ ...base, workload });
  } catch (error) {
    expect(error).toBeInstanceOf(ScenarioError);
    return (error as Error).message;
  }
  throw new Error('the scenario was accepted');
}

describe('scenario: perBenchmark, benchmarks, output, versions[].env', () => {
  it('accepts a per-benchmark workload and keeps each version its own environment', () => {
    const s = parseScenario({
      ...base,
      workload: {
        command: 'go test -bench .',
        format: 'go',
        perBenchmark: true,
        benchmarks: ['BenchmarkA', '/^BenchmarkJoin/'],
      },
    });
    expect(s.workload.perBenchmark).toBe(true);
    expect(s.versions.map((v) => v.env)).toEqual([{}, { DUETKIT_SLOW: '1' }]);
    expect(parseScenario({ ...base, workload: { command: 'x' } }).workload.perBenchmark).toBe(
      false,
    );
  });

  it('names the formats that can run one benchmark at a time when this one cannot', () => {
    expect(problem({ command: 'hyperfine x', format: 'hyperfine', perBenchmark: true })).toContain(
      'workload.format: got "hyperfine"; expected a format that can run one benchmark at a time, for perBenchmark: cargo, go, pytest, googlecpp, jmh, criterion (hyperfine runs its whole suite)',
    );
    expect(problem({ command: 'x', perBenchmark: true })).toMatch(
      /workload.format: got nothing; expected a format that can run one benchmark at a time/,
    );
    expect(problem({ command: 'x', format: 'auto', perBenchmark: true })).toMatch(
      /workload.format: got "auto"/,
    );
  });

  it('rejects benchmarks without perBenchmark, bad regexes, and output without a format', () => {
    expect(problem({ command: 'x', format: 'go', benchmarks: ['A'] })).toContain(
      'workload.benchmarks: got ["A"]; expected a benchmark list only together with perBenchmark: true',
    );
    expect(
      problem({ command: 'x', format: 'go', perBenchmark: true, benchmarks: ['/(/'] }),
    ).toMatch(
      /workload.benchmarks\[0\]: got "\/\(\/"; expected a benchmark name or a valid \/regular expression\//,
    );
    expect(problem({ command: 'x', output: 'out.json' })).toContain(
      'workload.output: got "out.json"; expected no output file without a format',
    );
  });

  it('matches exact names, or /regex/ anywhere in the name', () => {
    expect(matchesBenchmark('BenchmarkJoin', 'BenchmarkJoin')).toBe(true);
    expect(matchesBenchmark('BenchmarkJoin', 'BenchmarkJoinAll')).toBe(false);
    expect(matchesBenchmark('/Join/', 'BenchmarkJoinAll')).toBe(true);
    expect(matchesBenchmark('/^Join/', 'BenchmarkJoin')).toBe(false);
  });
});
