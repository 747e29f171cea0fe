// Builds the committed bundles in dist/ (one npm script: `npm run bundle`). CI rebuilds and
// fails when dist/ differs from what is committed, so the bundle always matches src/.
import { build } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { buildDashboard } from './build-dashboard.mjs';

const entries = {
  cli: 'src/cli/bin.ts', // `duetkit` (package.json bin)
  harness: 'src/harness/index.ts', // `duetkit/harness`: the persistent-protocol helper
  'bootstrap-worker': 'src/parallel/bootstrap-worker.ts', // threads of the parallel bootstrap
  'load-generator': 'src/load/generator-main.ts', // the http driver's load generator process
  index: 'src/action/main.ts', // the action's main step
  post: 'src/action/post.ts', // the action's post step
  // Cluster runs (AWS SDK, Kubernetes client: large), loaded only when a run needs them.
  cluster: 'src/pipeline/cluster-entry.ts',
};

rmSync('dist', { recursive: true, force: true });
mkdirSync('dist');
await build({
  entryPoints: Object.fromEntries(Object.entries(entries).filter(([, file]) => existsSync(file))),
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  splitting: false,
  legalComments: 'none',
  logLevel: 'warning',
  // CommonJS dependencies call require(); give the ESM bundle one.
  banner: {
    js: "import { createRequire as __duetkitCreateRequire } from 'node:module';\nconst require = __duetkitCreateRequire(import.meta.url);",
  },
});

// The command timer's C source, compiled on the machine that runs it (src/runner/timer): the
// bundle finds it beside itself, as the source finds it beside build.ts.
copyFileSync('src/runner/timer/duetkit-timer.c', 'dist/duetkit-timer.c');

// The history's dashboard (src/dashboard/), written to the history branch on publish.
await buildDashboard('dist/dashboard');

// The Kubernetes manifests a cluster run fills in (src/cluster/manifests.ts), found beside the
// bundle as the source finds them at the repository's k8s/.
mkdirSync('dist/k8s');
for (const file of readdirSync('k8s').filter((f) => f.endsWith('.yaml'))) {
  copyFileSync(`k8s/${file}`, `dist/k8s/${file}`);
}
