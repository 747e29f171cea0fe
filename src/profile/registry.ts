import path from 'node:path';
import type { ProfilerName } from '../contracts/profile.js';
import type { ProfilerChoice } from '../scenario/profile-schema.js';
import type { Workload } from '../scenario/schema.js';
import { nodeProfiler } from './node.js';
import { perf } from './perf.js';
import { isGoTest, isTestBinary, pprof } from './pprof.js';
import { pySpy } from './py-spy.js';
import type { ProfilerRoute } from './types.js';

const ROUTES: Record<ProfilerName, ProfilerRoute> = {
  perf,
  pprof,
  'py-spy': pySpy,
  node: nodeProfiler,
};

export function getProfiler(name: ProfilerName): ProfilerRoute {
  return ROUTES[name];
}

const PYTHON = /^(python[\d.]*|pytest|py\.test)$/;
const NODE = /^(node|nodejs|npx|npm|pnpm|yarn|vitest)$/;
const NODE_FORMATS = new Set(['tinybench', 'benchmarkjs']);

/**
 * The profiler of a workload, unless `profile.profiler` names one: the ecosystem's own where
 * the command or the format says which (Go: pprof; Python: py-spy; Node: V8's profiler), and
 * perf for everything else (C, C++, Rust, any command). By the format first, then by the
 * program the command starts.
 */
export function chooseProfiler(choice: ProfilerChoice, workload: Workload): ProfilerName {
  if (choice !== 'auto') return choice;
  const argv = workload.command;
  const program = path.basename(argv[0] ?? '');
  if (workload.format === 'go' || isGoTest(argv) || isTestBinary(argv)) return 'pprof';
  if (workload.format === 'pytest' || PYTHON.test(program)) return 'py-spy';
  if (NODE_FORMATS.has(workload.format ?? '') || NODE.test(program)) return 'node';
  return 'perf';
}
