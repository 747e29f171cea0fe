import { spawn } from 'node:child_process';
import { selfArgv } from '../io/self-argv.js';
import type { NoiseKind } from './options.js';

/** A noise generator running in its own process (unconfined: it competes for every CPU). */
export interface NoiseProcess {
  readonly pid: number;
  /** SIGTERMs it and resolves when it has exited. */
  stop(): Promise<void>;
}

/**
 * Starts `duetkit noise` as a separate process, as in Japke et al. (2025), where the noise
 * generator is deliberately left outside the benchmark's isolation. Resolves once it runs.
 */
export async function spawnNoise(options: {
  threads: number;
  load: number;
  kind: NoiseKind;
  /** Upper bound; `stop()` normally ends it first. */
  durationSeconds: number;
}): Promise<NoiseProcess> {
  const [file, ...args] = selfArgv();
  const child = spawn(
    file!,
    [
      ...args,
      'noise',
      '--threads',
      String(options.threads),
      '--load',
      String(options.load),
      '--kind',
      options.kind,
      '--duration',
      `${Math.ceil(options.durationSeconds)}s`,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      if (stderr.includes('noise:')) resolve();
    });
    child.on('error', reject);
    void exited.then(() =>
      reject(new Error(`the noise generator exited at once: ${stderr.trim()}`)),
    );
  });
  return {
    pid: child.pid!,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
