import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const BIN = path.resolve('src/cli/bin.ts');
const TSX = pathToFileURL(path.resolve('node_modules/tsx/dist/loader.mjs')).href;
const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());

/** CPU seconds (user + system, all threads) a process has used, from /proc/<pid>/stat. */
export function cpuSeconds(pid: number): number {
  // Fields after the command name, which is in parentheses and may contain spaces.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** `duetkit noise ...` in its own process; resolves once it says it has started. */
export async function startNoiseProcess(args: string[]): Promise<{
  child: ChildProcessWithoutNullStreams;
  stderr: () => string;
  exited: Promise<number | null>;
  startedAt: number;
}> {
  const child = spawn(process.execPath, ['--import', TSX, BIN, 'noise', ...args]);
  let stderr = '';
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => resolve(code)),
  );
  await new Promise<void>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('noise: ')) resolve();
    });
    void exited.then(() => reject(new Error(`noise exited early: ${stderr}`)));
  });
  return { child, stderr: () => stderr, exited, startedAt: performance.now() };
}

/** Share of one CPU the process used between two moments (ms after `startedAt`). */
export async function cpuShare(
  pid: number,
  startedAt: number,
  from: number,
  to: number,
): Promise<number> {
  await sleepUntil(startedAt + from);
  const c0 = cpuSeconds(pid);
  const t0 = performance.now();
  await sleepUntil(startedAt + to);
  return (cpuSeconds(pid) - c0) / ((performance.now() - t0) / 1000);
}

function sleepUntil(at: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, at - performance.now())));
}
