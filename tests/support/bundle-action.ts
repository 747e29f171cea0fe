import { build } from 'esbuild';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Bundles the action's two entries from src/ into `outDir` (index.js, post.js) with the
 * options of scripts/bundle.mjs, so tests run the code as it is now, not a stale dist/.
 */
export async function bundleAction(outDir: string): Promise<void> {
  await mkdir(outDir, { recursive: true });
  await build({
    entryPoints: {
      index: path.join(ROOT, 'src/action/main.ts'),
      post: path.join(ROOT, 'src/action/post.ts'),
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
}

export { ROOT };
