/**
 * The routes a measurement can take through duetkit: a program (C, Go, Node), a driver
 * (command, persistent) and how its values are read (the command's wall or CPU time, the
 * program's own clock through a format or the protocol, the harness's round trip). Each route
 * says how to measure its ground truth without duetkit: alone, one at a time, on one CPU.
 */
import type { ScenarioInput } from '../../src/scenario/schema.js';
import type { Programs, StepRates } from './programs.js';

/** How one recording is read: several views share a recording (wall and CPU time). */
export type View = 'wall' | 'cpu' | 'harness' | 'reported';

export type TruthMethod =
  /** hyperfine -N, pinned: wall time per run, CPU time (user + system) per invocation. */
  | { kind: 'hyperfine'; argv: (p: Programs) => string[] }
  /** The program run alone, pinned; its own printed value (jsonl or the Go format). */
  | { kind: 'self-reported'; argv: (p: Programs) => string[]; parse: 'jsonl' | 'go' }
  /** Both servers alone on one CPU, driven one `go` at a time by a pinned client. */
  | { kind: 'protocol'; argv: (p: Programs) => string[]; clock: 'self' | 'round-trip' };

export interface Route {
  id: string;
  label: string;
  language: keyof StepRates;
  views: View[];
  /** Iteration sizes (ms of chain per iteration) this route is measured at. */
  sizes: number[];
  /** Chain runs per iteration (the Go benchmark's -benchtime Nx); 1 elsewhere. */
  opsPerIteration: number;
  workload: (p: Programs) => ScenarioInput['workload'];
  truth: TruthMethod;
  /** Environment for every run (the Node harness's location). */
  env?: (p: Programs) => Record<string, string>;
}

const GO_OPS = 10;
const goBench = (p: Programs): string[] => [
  p.goTest,
  '-test.run',
  '^$',
  '-test.bench',
  'Work',
  '-test.benchtime',
  `${GO_OPS}x`,
];
const nodeHarness = (p: Programs): Record<string, string> => ({
  DUETKIT_HARNESS: `file://${p.harness}`,
});

export const ROUTES: Route[] = [
  {
    id: 'c-command',
    label: 'C, command',
    language: 'c',
    views: ['wall', 'cpu', 'harness'],
    sizes: [1, 10, 100],
    opsPerIteration: 1,
    workload: (p) => ({ command: [p.c] }),
    truth: { kind: 'hyperfine', argv: (p) => [p.c] },
  },
  {
    id: 'go-command',
    label: 'Go, command',
    language: 'go',
    views: ['wall', 'cpu'],
    sizes: [10],
    opsPerIteration: 1,
    workload: (p) => ({ command: [p.goCommand] }),
    truth: { kind: 'hyperfine', argv: (p) => [p.goCommand] },
  },
  {
    id: 'node-command',
    label: 'Node, command',
    language: 'node',
    views: ['wall', 'cpu'],
    sizes: [10],
    opsPerIteration: 1,
    workload: (p) => ({ command: [p.nodeBin, p.node] }),
    truth: { kind: 'hyperfine', argv: (p) => [p.nodeBin, p.node] },
  },
  {
    id: 'c-jsonl',
    label: 'C, command + jsonl format (self-timed)',
    language: 'c',
    views: ['reported'],
    sizes: [10],
    opsPerIteration: 1,
    workload: (p) => ({ command: [p.c, '--jsonl'], format: 'jsonl' }),
    truth: { kind: 'self-reported', argv: (p) => [p.c, '--jsonl'], parse: 'jsonl' },
  },
  {
    id: 'go-format',
    label: `Go, go test -bench (go format, ${GO_OPS} ops per run)`,
    language: 'go',
    views: ['reported'],
    sizes: [10],
    opsPerIteration: GO_OPS,
    workload: (p) => ({ command: goBench(p), format: 'go' }),
    truth: { kind: 'self-reported', argv: goBench, parse: 'go' },
  },
  {
    id: 'c-persistent',
    label: 'C, persistent protocol (self-timed results)',
    language: 'c',
    views: ['reported'],
    sizes: [1, 10],
    opsPerIteration: 1,
    workload: (p) => ({ driver: 'persistent', command: [p.c, '--serve'] }),
    truth: { kind: 'protocol', argv: (p) => [p.c, '--serve'], clock: 'self' },
  },
  {
    id: 'c-persistent-ok',
    label: 'C, persistent protocol ({"ok"}: the harness times the round trip)',
    language: 'c',
    views: ['reported'],
    sizes: [1, 10],
    opsPerIteration: 1,
    workload: (p) => ({ driver: 'persistent', command: [p.c, '--serve-ok'], name: 'work' }),
    truth: { kind: 'protocol', argv: (p) => [p.c, '--serve-ok'], clock: 'round-trip' },
  },
  {
    id: 'node-persistent',
    label: 'Node, persistent protocol (duetkit/harness, self-timed)',
    language: 'node',
    views: ['reported'],
    sizes: [1, 10],
    opsPerIteration: 1,
    workload: (p) => ({ driver: 'persistent', command: [p.nodeBin, p.node, '--serve'] }),
    truth: { kind: 'protocol', argv: (p) => [p.nodeBin, p.node, '--serve'], clock: 'self' },
    env: nodeHarness,
  },
];

/** Chain steps per run of the program for an iteration of `sizeMs`, with `change` more work. */
export function stepsFor(route: Route, rates: StepRates, sizeMs: number, change: number): number {
  const base = Math.round((rates[route.language] * sizeMs) / route.opsPerIteration);
  return Math.round(base * (1 + change));
}

export function getRoute(id: string): Route {
  const route = ROUTES.find((r) => r.id === id);
  if (route === undefined) {
    throw new RangeError(`unknown route ${id}; accepted: ${ROUTES.map((r) => r.id).join(', ')}`);
  }
  return route;
}
