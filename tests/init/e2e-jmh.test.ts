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

    const run = await runWritten('jmh', repo, 'benchmarks/duetkit.yml');
    expect(run.verdict('duetkit.SumsBenchmark.sumSquares ( {"n":"1000"} )')).toBe('regression');
    expect(run.report.summary.error).toBe(0);
  }, 300_000);
});
