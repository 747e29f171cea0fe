import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsxExecArgv } from '../io/self-argv.js';
import type { FromGenerator, PhaseResult, ToGenerator } from './protocol.js';

/** A running load generator process, driven by messages (protocol.ts). */
export interface GeneratorProcess {
  readonly pid: number;
  /** Sends a message and waits for the generator's answer to it. */
  request(message: ToGenerator): Promise<FromGenerator>;
  phase(message: Extract<ToGenerator, { type: 'phase' }>): Promise<PhaseResult>;
  /** CPUs the process may run on (its affinity list, as the kernel states it). */
  cpus(): string | null;
  close(): Promise<void>;
  kill(): void;
}

/**
 * The argv of the generator's entry point: `dist/load-generator.js` beside the bundle, or
 * `src/load/generator-main.ts` under tsx when running from the sources (tests).
 */
export function generatorArgv(moduleUrl: string = import.meta.url): string[] {
  const self = fileURLToPath(moduleUrl);
  if (!self.endsWith('.ts')) {
    return [process.execPath, path.join(path.dirname(self), 'load-generator.js')];
  }
  const root = path.resolve(path.dirname(self), '..', '..');
  return [
    process.execPath,
    ...tsxExecArgv(moduleUrl),
    path.join(root, 'src', 'load', 'generator-main.ts'),
  ];
}

/** Starts the generator (under `prefix`, e.g. `taskset -c 3`) and waits until it is ready. */
export async function startGenerator(
  prefix: readonly string[] = [],
  env: NodeJS.ProcessEnv = process.env,
): Promise<GeneratorProcess> {
  const [file, ...args] = [...prefix, ...generatorArgv()];
  const child: ChildProcess = spawn(file!, args, {
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    env,
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr = (stderr + c).slice(-8192)));
  const waiting: ((m: FromGenerator | Error) => void)[] = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const gone = (why: string): Error =>
    new Error(`the load generator ${why}${stderr === '' ? '' : `: ${stderr.trim().slice(-2000)}`}`);
  child.on('message', (message: FromGenerator) => waiting.shift()?.(message));
  child.once('exit', (code, signal) => {
    for (const w of waiting.splice(0)) w(gone(`exited (${code ?? signal})`));
  });
  child.once('error', (error) => {
    for (const w of waiting.splice(0)) w(gone(`could not start (${error.message})`));
  });
  const next = (): Promise<FromGenerator> =>
    new Promise((resolve, reject) =>
      waiting.push((m) => (m instanceof Error ? reject(m) : resolve(m))),
    );
  const first = await next();
  if (first.type !== 'ready') throw gone(`said ${JSON.stringify(first)} instead of ready`);
  const request = async (message: ToGenerator): Promise<FromGenerator> => {
    const answer = next();
    child.send(message);
    const reply = await answer;
    if (reply.type === 'failed') throw new Error(`the load generator failed: ${reply.message}`);
    return reply;
  };
  return {
    pid: child.pid!,
    request,
    async phase(message) {
      const reply = await request(message);
      if (reply.type !== 'result') throw gone(`answered a phase with ${reply.type}`);
      return reply;
    },
    cpus() {
      const status = `/proc/${child.pid}/status`;
      if (!existsSync(status)) return null;
      return /^Cpus_allowed_list:\s*(.+)$/m.exec(readFileSync(status, 'utf8'))?.[1] ?? null;
    },
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      if (child.connected) child.send({ type: 'close' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited.finally(() => clearTimeout(timer));
    },
    kill() {
      child.kill('SIGKILL');
    },
  };
}
