// Builds the dashboard (src/dashboard/) into a directory: index.html, dashboard.js (one
// bundle, uPlot and the virtual list inside) and dashboard.css (uPlot's styles and ours).
// Static files only: the history branch serves them as they are, no build step there.
// `npm run bundle` writes them to dist/dashboard/; tests build a fresh copy.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

/** @param {string} outDir */
export async function buildDashboard(outDir) {
  mkdirSync(outDir, { recursive: true });
  await build({
    entryPoints: [path.join(ROOT, 'src/dashboard/main.ts')],
    outfile: path.join(outDir, 'dashboard.js'),
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: ['es2020'],
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  const css = [
    readFileSync(path.join(ROOT, 'node_modules/uplot/dist/uPlot.min.css'), 'utf8'),
    readFileSync(path.join(ROOT, 'src/dashboard/style.css'), 'utf8'),
  ].join('\n');
  writeFileSync(path.join(outDir, 'dashboard.css'), css);
  copyFileSync(path.join(ROOT, 'src/dashboard/index.html'), path.join(outDir, 'index.html'));
}
