import { VERSION } from '../../src/version.js';
import { loadedScenario, makeWorkspace, never, removeWorkspace } from './helpers.js';

describe('the tool version a samples file records', () => {
  const saved = process.env.npm_package_version;
  let root: string;
  beforeAll(async () => {
    root = await makeWorkspace({ base: { 'run.sh': 'echo 1\n' }, head: { 'run.sh': 'echo 1\n' } });
  });
  afterAll(async () => {
    if (saved === undefined) delete process.env.npm_package_version;
    else process.env.npm_package_version = saved;
    await removeWorkspace(root);
  });

  it("is duetkit's, not the version npm sets for the user's own package", async () => {
    // `npm run bench` in the user's project sets this to the user's package version; it is
    // set before the runner is loaded, as it would be there.
    process.env.npm_package_version = '9.9.9';
    const { runScenario } = await import('../../src/pipeline/local-run.js');
    const samples = await runScenario(
      loadedScenario(
        {
          versions: [
            { name: 'base', path: 'base' },
            { name: 'head', path: 'head' },
          ],
          workload: { command: 'sh run.sh' },
          iterations: 2,
          warmup: 0,
          isolation: 'none',
          seed: 1,
        },
        root,
      ),
      { signal: never, env: process.env },
    );
    expect(samples.error).toBeNull();
    expect(samples.tool).toEqual({ name: 'duetkit', version: VERSION });
  });
});
