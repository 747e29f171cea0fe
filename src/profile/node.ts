import { copyFile, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { StackCounter } from './fold.js';
import type { FoldedStack } from '../contracts/profile.js';
import type { ProfileJob, ProfilerRoute } from './types.js';

/**
 * Node's V8 sampling profiler. `node …` commands get `--cpu-prof`; anything else that starts
 * Node (npx, npm run, vitest) gets a preload through NODE_OPTIONS, which does not accept
 * `--cpu-prof` itself: the preload starts the same profiler through `node:inspector` and
 * writes the same `.cpuprofile` when the process exits. Every Node process of the run writes
 * one; all are kept and folded together.
 */
export const nodeProfiler: ProfilerRoute = {
  name: 'node',
  workUnit: 'iteration',
  period: (frequency) => 1 / frequency,
  ready: async () => ({ problem: null, notes: [] }),
  wrap(job) {
    const dir = outDir(job);
    const interval = String(Math.max(1, Math.round(1e6 / job.frequency)));
    if (isNode(job.argv)) {
      return {
        argv: [
          job.argv[0]!,
          '--cpu-prof',
          `--cpu-prof-dir=${dir}`,
          `--cpu-prof-interval=${interval}`,
          ...job.argv.slice(1),
        ],
        env: job.env,
      };
    }
    const preload = path.join(job.scratch, 'cpu-prof-preload.cjs');
    return {
      argv: [...job.argv],
      env: {
        ...job.env,
        NODE_OPTIONS: `${job.env.NODE_OPTIONS ?? ''} --require=${JSON.stringify(preload)}`.trim(),
        DUETKIT_CPU_PROF_DIR: dir,
        DUETKIT_CPU_PROF_INTERVAL_US: interval,
      },
    };
  },
  async prepare(job: ProfileJob) {
    // The scratch directory is the whole stage's: a run of another benchmark with the same
    // stem (`base.1`) left its files here, and `read` takes every file it finds.
    await rm(outDir(job), { recursive: true, force: true });
    await mkdir(outDir(job), { recursive: true });
    await writeFile(path.join(job.scratch, 'cpu-prof-preload.cjs'), PRELOAD);
  },
  async read(job) {
    const dir = outDir(job);
    const names = (await readdir(dir)).filter((n) => n.endsWith('.cpuprofile')).sort();
    if (names.length === 0) throw new Error('no Node process of the command wrote a .cpuprofile');
    const counter = new StackCounter();
    const files: string[] = [];
    for (const [i, name] of names.entries()) {
      const file = path.join(
        job.dir,
        `${job.stem}${names.length > 1 ? `.${i + 1}` : ''}.cpuprofile`,
      );
      await copyFile(path.join(dir, name), file);
      files.push(file);
      for (const s of foldCpuProfile(JSON.parse(await readFile(file, 'utf8')) as CpuProfile)) {
        counter.add(s.frames, s.count);
      }
    }
    return { stacks: counter.stacks(), files };
  },
};

function outDir(job: ProfileJob): string {
  return path.join(job.scratch, `${job.stem}.cpuprofiles`);
}

function isNode(argv: readonly string[]): boolean {
  return /^(node|nodejs)(\.exe)?$/.test(path.basename(argv[0] ?? ''));
}

/** The part of V8's `.cpuprofile` (the DevTools protocol's `Profiler.Profile`) folded here. */
export interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string };
    children?: number[];
  }[];
  samples?: number[];
}

/**
 * A `.cpuprofile` folded: each sample names its node, whose parents (through `children`) are
 * its callers. V8's synthetic `(root)` is dropped; `(program)`, `(garbage collector)` and
 * `(idle)` stay as frames of their own. A frame is `function (file)`, anonymous functions
 * `(anonymous)`.
 */
export function foldCpuProfile(profile: CpuProfile): FoldedStack[] {
  const parent = new Map<number, number>();
  const names = new Map<number, string>();
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) parent.set(child, node.id);
    const { functionName, url } = node.callFrame;
    const fn = functionName === '' ? '(anonymous)' : functionName;
    names.set(node.id, url === '' ? fn : `${fn} (${path.basename(url)})`);
  }
  const stacks = new Map<number, string[]>();
  const stackOf = (id: number): string[] => {
    const known = stacks.get(id);
    if (known !== undefined) return known;
    const frames: string[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      if (parent.has(at)) frames.push(names.get(at)!); // the root has no parent: dropped
    }
    frames.reverse();
    stacks.set(id, frames);
    return frames;
  };
  const counter = new StackCounter();
  for (const id of profile.samples ?? []) counter.add(stackOf(id));
  return counter.stacks();
}

/** The preload: V8's profiler through the inspector, written synchronously at exit. */
const PRELOAD = `'use strict';
const dir = process.env.DUETKIT_CPU_PROF_DIR;
if (dir) {
  const { Session } = require('node:inspector');
  const { writeFileSync } = require('node:fs');
  const { join } = require('node:path');
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: Number(process.env.DUETKIT_CPU_PROF_INTERVAL_US) || 1000 });
  session.post('Profiler.start');
  process.on('exit', () => {
    session.post('Profiler.stop', (error, result) => {
      if (error === null && result) {
        writeFileSync(join(dir, 'CPU.' + process.pid + '.' + Date.now() + '.cpuprofile'), JSON.stringify(result.profile));
      }
    });
  });
}
`;
