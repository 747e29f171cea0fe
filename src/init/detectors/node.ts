import path from 'node:path';
import { filesContaining, type ProjectFiles } from '../project.js';
import type { Detector, ToolPlan, WorkflowStep } from '../types.js';
import { describeFiles } from './describe.js';

/**
 * Node.js benchmarks, from package.json's dependencies: `vitest bench` (its `--outputJson`
 * report), tinybench (a script that prints its tasks' results as JSON) and benchmark.js (its
 * `String(event.target)` lines). None of them can run one benchmark alone: each run is the
 * whole suite.
 */
interface PackageJson {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  scripts?: Record<string, string>;
}

async function readPackage(project: ProjectFiles): Promise<PackageJson | null> {
  const text = await project.read('package.json');
  if (text === null) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' ? (parsed as PackageJson) : null;
  } catch {
    return null;
  }
}

function dependsOn(pkg: PackageJson, name: string): boolean {
  return name in (pkg.dependencies ?? {}) || name in (pkg.devDependencies ?? {});
}

const SCRIPTS = /\.(c|m)?(j|t)sx?$/;

/** Script files that import or require `module`, outside tests of other kinds. */
function importing(
  project: ProjectFiles,
  module: string,
): Promise<{ file: string; text: string }[]> {
  const escaped = module.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`(from\\s*|require\\(\\s*|import\\(\\s*)['"]${escaped}['"]`);
  return filesContaining(project, project.matching(SCRIPTS), pattern);
}

/** `node file.js`, else an npm script that runs the file, else `npx tsx file.ts`. */
function runScript(pkg: PackageJson, file: string): string {
  if (/\.(c|m)?js$/.test(file)) return `node ${file}`;
  const script = Object.entries(pkg.scripts ?? {}).find(([, body]) =>
    body.includes(path.posix.basename(file)),
  );
  return script === undefined ? `npx tsx ${file}` : `npm run --silent ${script[0]}`;
}

function nodeSteps(project: ProjectFiles): WorkflowStep[] {
  const nvmrc = ['.nvmrc', '.node-version'].find((f) => project.files.includes(f));
  const steps: WorkflowStep[] = [
    {
      uses: 'actions/setup-node@v4',
      with: nvmrc === undefined ? { 'node-version': 'lts/*' } : { 'node-version-file': nvmrc },
    },
  ];
  if (project.files.includes('pnpm-lock.yaml')) steps.push({ run: 'npm install -g pnpm' });
  return steps;
}

/** Installs the dependencies in each version's checkout, the way its lock file asks. */
function installCommand(project: ProjectFiles): string {
  if (project.files.includes('pnpm-lock.yaml')) return 'pnpm install --frozen-lockfile';
  if (project.files.includes('yarn.lock')) return 'yarn install --frozen-lockfile';
  if (project.files.includes('package-lock.json')) return 'npm ci --no-audit --no-fund';
  return 'npm install --no-audit --no-fund';
}

function nodePlan(
  project: ProjectFiles,
  plan: Pick<ToolPlan, 'tool' | 'evidence' | 'workload' | 'comments' | 'notes'>,
): ToolPlan {
  return { ...plan, setup: installCommand(project), timeout: '2m', steps: nodeSteps(project) };
}

export const vitestDetector: Detector = {
  id: 'vitest',
  aliases: ['vitest-bench'],
  lookedFor: 'vitest: vitest in package.json and *.bench.* files',
  async detect(project) {
    const pkg = await readPackage(project);
    if (pkg === null || !dependsOn(pkg, 'vitest')) return null;
    const benchFiles = project.matching(/\.bench\.(c|m)?(j|t)sx?$/);
    if (benchFiles.length === 0) return null;
    return nodePlan(project, {
      tool: 'vitest',
      evidence: `vitest and ${describeFiles(benchFiles)}`,
      workload: {
        command: 'npx vitest bench --run --outputJson duetkit-vitest.json',
        format: 'tinybench',
        output: 'duetkit-vitest.json',
      },
      comments: [
        'vitest bench runs the whole suite each time; its --outputJson report holds each',
        "benchmark's mean (vitest 3 keeps no samples).",
      ],
      notes: [],
    });
  },
};

export const tinybenchDetector: Detector = {
  id: 'tinybench',
  aliases: [],
  lookedFor: 'tinybench: tinybench in package.json and a script importing it',
  async detect(project) {
    const pkg = await readPackage(project);
    if (pkg === null || !dependsOn(pkg, 'tinybench')) return null;
    const scripts = await importing(project, 'tinybench');
    if (scripts.length === 0) return null;
    const { file, text } = scripts[0]!;
    const printsJson = /JSON\.stringify/.test(text);
    return nodePlan(project, {
      tool: 'tinybench',
      evidence: `tinybench imported by ${describeFiles(scripts.map((s) => s.file))}`,
      workload: { command: runScript(pkg, file), format: 'tinybench' },
      comments: [
        'The script must print its tasks as JSON, with retainSamples: true for raw samples:',
        'console.log(JSON.stringify(bench.tasks.map(({ name, result }) => ({ name, result }))))',
      ],
      notes: printsJson
        ? []
        : [
            `tinybench: ${file} does not seem to print JSON; end it with console.log(JSON.stringify(bench.tasks.map(({ name, result }) => ({ name, result }))))`,
          ],
    });
  },
};

export const benchmarkjsDetector: Detector = {
  id: 'benchmarkjs',
  aliases: ['benchmark.js', 'benchmark'],
  lookedFor: 'benchmarkjs: benchmark in package.json and a script importing it',
  async detect(project) {
    const pkg = await readPackage(project);
    if (pkg === null || !dependsOn(pkg, 'benchmark')) return null;
    const scripts = await importing(project, 'benchmark');
    if (scripts.length === 0) return null;
    const { file } = scripts[0]!;
    return nodePlan(project, {
      tool: 'benchmarkjs',
      evidence: `benchmark.js imported by ${describeFiles(scripts.map((s) => s.file))}`,
      workload: { command: runScript(pkg, file), format: 'benchmarkjs' },
      comments: [
        'The script prints one line per benchmark (String(event.target) on "cycle"); each is',
        'one ops/sec value per run.',
      ],
      notes: [],
    });
  },
};
