import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { requireTool } from '../e2e/helpers.js';
import { actionlint, cli, edited, makeRepo, removeDir, runWritten } from './helpers.js';

// tests/programs/java (JMH, Maven, no fat jar) as a user's repository: the scenario compiles
// each version with Maven and runs JMH's main class on Maven's class path.
describe('duetkit init on a Maven + JMH repository', () => {
  let repo: string | undefined;
  afterAll(() => removeDir(repo));

  it('writes a scenario that builds with Maven and runs JMH per benchmark, finding the slowdown', async () => {
    requireTool(['mvn', '-v'], 'Maven');
    const source = 'src/main/java/duetkit/SumsBenchmark.java';
    repo = await makeRepo(
      {
        'pom.xml': { from: 'tests/programs/java/pom.xml' },
        [source]: { from: `tests/programs/java/${source}` },
        '.gitignore': 'target/\n',
      },
      {
        [source]: await edited(
          `tests/programs/java/${source}`,
          '"1".equals(System.getenv("DUETKIT_SLOW")) ? 2 : 1',
          '2',
        ),
      },
    );
    const init = await cli(['init', '--iterations', '9', '--budget', '3m'], repo);
    expect(init.err).toBe('');
    expect(init.code).toBe(0);
    expect(init.out).toContain('found jmh: jmh-core in pom.xml');
    expect(await actionlint([path.join(repo, '.github/workflows/duetkit.yml')])).toBe('');

    // init's JMH settings (one forked JVM, 2 warm-up and 3 measured iterations of 500 ms) cost
    // ~4 s a pair: CI keeps the command init wrote and shortens only JMH's own settings, which
    // the 2x slowdown does not need (the scenario's structure is what is under test): shorter
    // iterations, and the benchmark run in JMH's own JVM (-f 0) rather than a second one
    // started for it, one JVM start (~0.5 s on this machine, more when loaded) less per side.
    const scenario = path.join(repo, 'benchmarks/duetkit.yml');
    const written = await readFile(scenario, 'utf8');
    expect(written).toContain('-f 1 -wi 2 -w 500ms -i 3 -r 500ms');
    await writeFile(
      scenario,
      written.replace('-f 1 -wi 2 -w 500ms -i 3 -r 500ms', '-f 0 -wi 1 -w 100ms -i 2 -r 100ms'),
    );
    const run = await runWritten('jmh', repo, 'benchmarks/duetkit.yml');
    expect(run.verdict('duetkit.SumsBenchmark.sumSquares ( {"n":"1000"} )')).toBe('regression');
    expect(run.report.summary.error).toBe(0);
  }, 300_000);
});
