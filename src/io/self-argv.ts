import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The argv that runs duetkit's own CLI in a fresh process (the reference workload, the noise
 * generator). From the bundle (`dist/cli.js`) that is the bundle itself; from the sources (tests,
 * `npx tsx`) it is `src/cli/bin.ts` under the tsx loader.
 */
export function selfArgv(moduleUrl: string = import.meta.url): string[] {
  const self = fileURLToPath(moduleUrl);
  if (!self.endsWith('.ts')) return [process.execPath, self];
  const root = path.resolve(path.dirname(self), '..', '..');
  return [process.execPath, ...tsxExecArgv(moduleUrl), path.join(root, 'src', 'cli', 'bin.ts')];
}

/**
 * Node options that load TypeScript sources through tsx, for a process or worker thread
 * started from `src/` (module `moduleUrl`, two levels below the repository root).
 */
export function tsxExecArgv(moduleUrl: string): string[] {
  const root = path.resolve(path.dirname(fileURLToPath(moduleUrl)), '..', '..');
  const loader = path.join(root, 'node_modules', 'tsx', 'dist', 'loader.mjs');
  if (!existsSync(loader)) {
    throw new Error(`running from the sources needs tsx: ${loader} is missing (run npm install)`);
  }
  return ['--import', pathToFileURL(loader).href];
}
