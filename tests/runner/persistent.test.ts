import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { runScenario } from '../../src/pipeline/local-run.js';
import { loadedScenario, makeWorkspace, never, removeWorkspace } from './helpers.js';

const HELPER = path.resolve('src/harness/index.ts');
// The benchmark program is TypeScript importing the helper's source, so it runs under tsx,
// named by absolute URL because the program's directory has no node_modules.
const NODE_TS = `node --import ${pathToFileURL(path.resolve('node_modules/tsx/dist/loader.mjs')).href} bench.ts`;

// The protocol in plain sh: any language can implement it (docs/protocol.md).
const SH_SERVER = `echo '{"ready": true}'
while read cmd; do
  [ "$cmd" = exit ] && exit 0
  sleep 0.01
  echo '{"ok": true}'
done
`;

describe('persistent-process protocol', () => {
  let root: string;
  beforeAll(async () => {
    root = await makeWorkspace({
      node: {
        'package.json': '{"type": "module"}',
        'bench.ts': `import { serve } from ${JSON.stringify(HELPER)};
let calls = 0;
await serve(() => {
  calls++;
  if (process.env.FAIL_AT === String(calls)) throw new Error('broken on call ' + calls);
  let x = 0;
  for (let i = 0; i < 200000; i++) x += i % 7;
  return [{ name: 'loop', value: x > 0 ? 1 + (calls % 3) : 0, unit: 'units' }, { name: 'pid', value: process.pid }];
});
`,
      },
      sh: { 'server.sh': SH_SERVER },
    });
  });
  afterAll(() => removeWorkspace(root));

  const run = (versionPath: string, command: string, env: Record<string, string> = {}) =>
    runScenario(
      loadedScenario(
        {
          versions: [
            { name: 'base', path: versionPath },
            { name: 'head', path: versionPath },
          ],
          workload: { driver: 'persistent', command, env },
          iterations: 5,
          warmup: 1,
          seed: 2,
        },
        root,
      ),
      { signal: never, env: process.env },
    );

  it('drives one long-lived process per side with the Node helper', async () => {
    const samples = await run('node', NODE_TS);
    expect(samples.error).toBeNull();
    expect(samples.trials).toHaveLength(12);
    for (const version of [0, 1]) {
      const pids = samples.trials
        .filter((t) => t.version === version)
        .map((t) => t.metrics[1]!.values[0]);
      expect(new Set(pids).size).toBe(1); // the same process for every iteration
    }
    expect(samples.trials[0]!.metrics[0]).toMatchObject({ name: 'loop', unit: 'units' });
  });

  it('works with a server written in sh, timed by the harness', async () => {
    const samples = await run('sh', 'sh server.sh');
    expect(samples.error).toBeNull();
    const times = samples.trials.map((t) => t.metrics[0]!);
    expect(
      times.every((m) => m.name === 'wall-time' && m.unit === 'ms' && m.values[0]! >= 10),
    ).toBe(true);
  });

  it('an error reply fails the run with the message', async () => {
    const samples = await run('node', NODE_TS, { FAIL_AT: '3' });
    expect(samples.stopReason).toBe('failed');
    expect(samples.error).toMatch(/iteration 2.*reported an error: broken on call 3/);
  });
});
