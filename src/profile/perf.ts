import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { StackCounter } from './fold.js';
import { runTool, whyFailed } from './tool.js';
import type { FoldedStack } from '../contracts/profile.js';
import type { ProfileJob, ProfilerRoute, Readiness } from './types.js';

const PARANOID = '/proc/sys/kernel/perf_event_paranoid';

/**
 * Linux perf on any command: `perf record -e cpu-clock` (a software clock: GitHub's x64
 * runners have no hardware counters) with call graphs from frame pointers, or DWARF
 * unwinding (`profile.callGraph: dwarf`) for code built without them. The raw profile kept is
 * `perf script`'s text, which the Firefox Profiler and speedscope open.
 */
export const perf: ProfilerRoute = {
  name: 'perf',
  workUnit: 'iteration',
  period: (frequency) => 1 / frequency,
  ready: perfReady,
  wrap(job) {
    return {
      argv: [
        'perf',
        'record',
        '--quiet',
        '-e',
        'cpu-clock',
        '-F',
        String(job.frequency),
        ...(job.callGraph === 'dwarf' ? ['--call-graph', 'dwarf,16384'] : ['-g']),
        '-o',
        dataFile(job),
        '--',
        ...job.argv,
      ],
      env: job.env,
    };
  },
  async read(job) {
    const script = await runTool(['perf', 'script', '-i', dataFile(job)], {
      env: job.env,
      cwd: job.cwd,
    });
    if (script.code !== 0) throw new Error(whyFailed('perf script', script));
    const file = path.join(job.dir, `${job.stem}.perf.txt`);
    await writeFile(file, script.stdout);
    return { stacks: parsePerfScript(script.stdout), files: [file] };
  },
};

/** perf.data stays in the scratch directory: the text of `perf script` is what is kept. */
function dataFile(job: ProfileJob): string {
  return path.join(job.scratch, `${job.stem}.perf.data`);
}

/**
 * perf script's default text: a sample is a header line (`comm pid time: period event:`)
 * followed by one indented line per frame, leaf first (`\t addr symbol (dso)`), and a blank
 * line. Frames are named by their symbol; perf's `[unknown]` stays as it is.
 */
export function parsePerfScript(text: string): FoldedStack[] {
  const counter = new StackCounter();
  let frames: string[] = [];
  const flush = (): void => {
    counter.add(frames.reverse());
    frames = [];
  };
  for (const line of text.split('\n')) {
    if (line.trim() === '') {
      flush();
      continue;
    }
    if (!/^\s/.test(line)) {
      flush();
      continue;
    }
    const m = /^\s+[0-9a-f]+\s+(.*?)(?:\s+\(([^()]*)\))?$/.exec(line);
    if (m === null) continue;
    frames.push(m[1]!.replace(/\+0x[0-9a-f]+$/, '') || '[unknown]');
  }
  flush();
  return counter.stacks();
}

/**
 * Whether perf may sample here. Root may; otherwise `kernel.perf_event_paranoid` decides
 * (GitHub's runners set it high), and it is lowered to 1 through `sudo -n`, as the cgroups are
 * made, when that works. Never asks for a password.
 */
async function perfReady(env: NodeJS.ProcessEnv): Promise<Readiness> {
  const first = await probe(env);
  if (first === null) return { problem: null, notes: [] };
  if (first.includes('not installed') || process.getuid?.() === 0) {
    return { problem: first, notes: [] };
  }
  const before = await readFile(PARANOID, 'utf8').then(
    (t) => t.trim(),
    () => 'unknown',
  );
  const lowered = await runTool(['sudo', '-n', 'tee', PARANOID], { env, input: '1\n' });
  if (lowered.code !== 0) {
    return {
      problem: `perf may not sample here (kernel.perf_event_paranoid ${before}, not root) and ${whyFailed('sudo -n', lowered)}: ${first}`,
      notes: [],
    };
  }
  const second = await probe(env);
  return second === null
    ? {
        problem: null,
        notes: [`kernel.perf_event_paranoid lowered from ${before} to 1 through sudo -n for perf`],
      }
    : { problem: `perf still fails after lowering perf_event_paranoid: ${second}`, notes: [] };
}

/** Null when a one-sample `perf record` of `true` works, else why not. */
async function probe(env: NodeJS.ProcessEnv): Promise<string | null> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'duetkit-perf-probe-'));
  try {
    const result = await runTool(
      [
        'perf',
        'record',
        '--quiet',
        '-e',
        'cpu-clock',
        '-g',
        '-o',
        path.join(dir, 'p'),
        '--',
        'true',
      ],
      { env },
    );
    return result.code === 0 && result.spawnError === null ? null : whyFailed('perf', result);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
