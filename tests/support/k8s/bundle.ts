import { build } from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/**
 * duetkit's CLI bundled from src/ as scripts/bundle.mjs does (cli.js, the bootstrap worker, the
 * timer's source), for the cluster tests to copy into the pod: the code as it is now, not a
 * stale dist/.
 */
export async function bundleCli(outDir: string): Promise<string> {
  mkdirSync(outDir, { recursive: true });
  await build({
    entryPoints: {
      cli: path.join(ROOT, 'src/cli/bin.ts'),
      'bootstrap-worker': path.join(ROOT, 'src/parallel/bootstrap-worker.ts'),
    },
    outdir: outDir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    legalComments: 'none',
    logLevel: 'error',
    banner: {
      js: "import { createRequire as __duetkitCreateRequire } from 'node:module';\nconst require = __duetkitCreateRequire(import.meta.url);",
    },
  });
  copyFileSync(
    path.join(ROOT, 'src/runner/timer/duetkit-timer.c'),
    path.join(outDir, 'duetkit-timer.c'),
  );
  return outDir;
}
