import { benchmarkArgv } from '../../src/scenario/benchmark-command.js';
import { parseScenario, ScenarioError } from '../../src/scenario/load.js';

const versions = [
  { name: 'base', path: 'a' },
  { name: 'head', path: 'b' },
];

function problem(workload: Record<string, unknown>): string {
  try {
    parseScenario({ versions, workload });
  } catch (error) {
    expect(error).toBeInstanceOf(ScenarioError);
    return (error as Error).message;
  }
  throw new Error('the scenario was accepted');
}

describe('scenario: workload.benchmarkCommand', () => {
  it('is a command like `command`: a string split as a shell would, or a list', () => {
    const parsed = (benchmarkCommand: unknown) =>
      parseScenario({
        versions,
        workload: { command: 'node bench.js', format: 'jsonl', benchmarkCommand },
      }).workload.benchmarkCommand;
    expect(parsed('node bench.js {benchmark}')).toEqual(['node', 'bench.js', '{benchmark}']);
    expect(parsed("./bench --filter '^{benchmark}$' --quick")).toEqual([
      './bench',
      '--filter',
      '^{benchmark}$',
      '--quick',
    ]);
    expect(parsed(['python', 'bench.py', '--only={benchmark}'])).toEqual([
      'python',
      'bench.py',
      '--only={benchmark}',
    ]);
    expect(
      parseScenario({ versions, workload: { command: 'x', format: 'jsonl' } }).workload
        .benchmarkCommand,
    ).toBeUndefined();
  });

  it('refuses a command without {benchmark}, naming the field, the value and what is accepted', () => {
    expect(
      problem({ command: 'node bench.js', format: 'jsonl', benchmarkCommand: 'node bench.js' }),
    ).toContain(
      'workload.benchmarkCommand: got "node bench.js"; expected a command with {benchmark} where the benchmark\'s name goes, such as "node bench.js {benchmark}"',
    );
    expect(
      problem({ command: 'node bench.js', format: 'jsonl', benchmarkCommand: ['node', '{bench}'] }),
    ).toContain(
      'workload.benchmarkCommand: got ["node","{bench}"]; expected a command with {benchmark}',
    );
    expect(problem({ command: 'x', format: 'jsonl', benchmarkCommand: '' })).toMatch(
      /workload\.benchmarkCommand: got ""; expected a non-empty command/,
    );
    expect(problem({ command: 'x', format: 'jsonl', benchmarkCommand: "x '{benchmark}" })).toMatch(
      /workload\.benchmarkCommand: got "x '\{benchmark\}"; expected .*quote/i,
    );
  });

  it('only where a command reports several benchmarks and nothing else picks one', () => {
    expect(problem({ command: './bench', benchmarkCommand: './bench {benchmark}' })).toContain(
      'workload.benchmarkCommand: got "./bench {benchmark}"; expected nothing without a format: the command is one benchmark, timed and profiled whole',
    );
    expect(
      problem({
        command: 'go test -bench .',
        format: 'go',
        perBenchmark: true,
        benchmarkCommand: 'go test -bench {benchmark}',
      }),
    ).toContain(
      "expected nothing with perBenchmark: true, which runs each benchmark with the format's own filter",
    );
    expect(
      problem({
        driver: 'persistent',
        command: 'node server.js',
        benchmarkCommand: 'node bench.js {benchmark}',
      }),
    ).toContain('expected nothing with the persistent driver: only commands are profiled');
  });

  it('puts the name in place of every {benchmark}, verbatim, one word staying one argument', () => {
    expect(benchmarkArgv(['node', 'bench.js', '{benchmark}'], 'checksum')).toEqual([
      'node',
      'bench.js',
      'checksum',
    ]);
    expect(
      benchmarkArgv(['./bench', '--filter=^{benchmark}$', '--out={benchmark}.json'], 'a b/c*'),
    ).toEqual(['./bench', '--filter=^a b/c*$', '--out=a b/c*.json']);
  });
});
