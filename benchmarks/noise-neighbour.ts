import { spawn } from 'node:child_process';

/**
 * Runs `f` with a noisy neighbour beside it when `noise` is true: `duetkit noise --threads 2
 * --load 0.5` (bench:suites --noise, bench:bisect --noise), started a second before and
 * stopped after, whatever `f` does.
 */
export async function withNoise<T>(noise: boolean, f: () => Promise<T> | T): Promise<T> {
  if (!noise) return f();
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/cli/bin.ts',
      'noise',
      '--threads',
      '2',
      '--load',
      '0.5',
      '--duration',
      '1h',
    ],
    { stdio: 'ignore' },
  );
  await new Promise((r) => setTimeout(r, 1000));
  try {
    return await f();
  } finally {
    child.kill('SIGTERM');
  }
}
