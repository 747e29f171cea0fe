import { jest } from '@jest/globals';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { nodeProfiler } from '../../src/profile/node.js';
import { perf } from '../../src/profile/perf.js';
import { pprof } from '../../src/profile/pprof.js';
import { pySpy } from '../../src/profile/py-spy.js';
import { goArgv } from '../../src/profile/targets.js';
import {
  C_PROGRAM,
  cWorkspace,
  GO_MOD,
  GO_TEST,
  NODE_PROGRAM,
  profileBoth,
  programDir,
  PYTHON_PROGRAM,
  pySpyDir,
  selfShare,
  totalShare,
} from './programs.js';

// Each profiler with the real tool on a program whose hot function does 10x the cold one's
// work: the hot function holds most of the samples on both sides (~91% of the work; the
// bounds leave room for start-up and the profiler's own frames on a loaded machine).
jest.setTimeout(180_000);

const roots: string[] = [];
afterAll(async () => {
  for (const root of roots) await rm(path.dirname(root), { recursive: true, force: true });
});

describe('perf (C with frame pointers)', () => {
  it('folds perf script with hot_loop dominating, and keeps the script text', async () => {
    const root = await cWorkspace(['p']);
    roots.push(path.join(root, 'p'));
    expect(C_PROGRAM).toContain('hot_loop');
    const ready = await perf.ready(process.env);
    expect(ready.problem).toBeNull();
    const { sides } = await profileBoth(
      perf,
      ['./hot', '100000000'],
      path.join(root, 'p'),
      process.env,
    );
    for (const side of sides) {
      expect(selfShare(side.stacks, /^hot_loop$/)).toBeGreaterThan(0.6);
      expect(selfShare(side.stacks, /^hot_loop$/)).toBeGreaterThan(
        3 * selfShare(side.stacks, /^cold_loop$/),
      );
      expect(side.files).toHaveLength(1);
      expect(side.files[0]).toMatch(/\.perf\.txt$/);
      expect(await readFile(side.files[0]!, 'utf8')).toContain('hot_loop');
    }
  });

  it('says why when perf is not on the PATH', async () => {
    const empty = await mkdtemp(path.join(os.tmpdir(), 'duetkit-empty-path-'));
    roots.push(path.join(empty, 'x'));
    const ready = await perf.ready({ ...process.env, PATH: empty });
    expect(ready.problem).toBe('perf is not installed (not on the PATH)');
  });
});

describe('pprof (go test -cpuprofile)', () => {
  it('profiles one benchmark for exactly N ops, hot dominating', async () => {
    const dir = await programDir({ 'go.mod': GO_MOD, 'hot_test.go': GO_TEST });
    roots.push(dir);
    const argv = goArgv(['go', 'test', '-bench', '.'], 'BenchmarkHot', 2000);
    expect(argv).toEqual([
      'go',
      'test',
      '-bench',
      '.',
      '-run=^$',
      '-bench=^BenchmarkHot$',
      '-benchtime=2000x',
      '-count=1',
    ]);
    const { sides } = await profileBoth(pprof, argv, dir, process.env);
    for (const side of sides) {
      expect(selfShare(side.stacks, /(^|\.)hot$/)).toBeGreaterThan(0.6);
      expect(totalShare(side.stacks, /BenchmarkHot$/)).toBeGreaterThan(0.8);
      expect(side.files[0]).toMatch(/\.pprof$/);
      expect((await stat(side.files[0]!)).size).toBeGreaterThan(0);
    }
    // go test kept its binary in the scratch directory, not in the user's tree
    await expect(stat(path.join(dir, 'hot.test'))).rejects.toThrow();
  });
});

describe('py-spy (python)', () => {
  it('folds py-spy raw output by function, hot dominating', async () => {
    const dir = await programDir({ 'hot.py': PYTHON_PROGRAM });
    roots.push(dir);
    const env = { ...process.env, PATH: `${pySpyDir()}:${process.env.PATH ?? ''}` };
    expect((await pySpy.ready(env)).problem).toBeNull();
    const { sides } = await profileBoth(pySpy, ['python3', 'hot.py'], dir, env);
    for (const side of sides) {
      expect(selfShare(side.stacks, /^hot \(hot\.py\)$/)).toBeGreaterThan(0.6);
      expect(side.files[0]).toMatch(/\.py-spy\.txt$/);
    }
  });

  it('says why when py-spy is not on the PATH', async () => {
    const empty = await mkdtemp(path.join(os.tmpdir(), 'duetkit-empty-path-'));
    roots.push(path.join(empty, 'x'));
    expect((await pySpy.ready({ ...process.env, PATH: empty })).problem).toBe(
      'py-spy is not installed (not on the PATH)',
    );
  });
});

describe('node (V8 cpu profile)', () => {
  it('node --cpu-prof: hotLoop dominating, the .cpuprofile kept', async () => {
    const dir = await programDir({ 'hot.js': NODE_PROGRAM });
    roots.push(dir);
    const { sides } = await profileBoth(
      nodeProfiler,
      [process.execPath, 'hot.js'],
      dir,
      process.env,
    );
    for (const side of sides) {
      expect(selfShare(side.stacks, /^hotLoop \(hot\.js\)$/)).toBeGreaterThan(0.6);
      expect(side.files[0]).toMatch(/\.cpuprofile$/);
    }
  });

  it('a command that starts node indirectly is profiled through the NODE_OPTIONS preload', async () => {
    const dir = await programDir({ 'hot.js': NODE_PROGRAM });
    roots.push(dir);
    const { sides } = await profileBoth(
      nodeProfiler,
      ['/bin/sh', '-c', `"${process.execPath}" hot.js`],
      dir,
      process.env,
    );
    for (const side of sides) {
      expect(selfShare(side.stacks, /^hotLoop \(hot\.js\)$/)).toBeGreaterThan(0.6);
    }
  });
});
