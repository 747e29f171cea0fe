import { existsSync } from 'node:fs';
import { runScenario } from '../../src/pipeline/local-run.js';
import type { SamplesFile, Trial } from '../../src/contracts/samples.js';
import { cpusetV1Available } from '../isolation/helpers.js';
import { loadedScenario, makeWorkspace, never, removeWorkspace } from './helpers.js';

// Prints the CPUs the process may use as a jsonl value ("1" → 1); "0-1" would not parse,
// so an unconfined process fails the run.
const PRINT_CPU = `c=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status); echo "{\\"name\\":\\"cpu\\",\\"value\\":$c}"`;

// The moment the process really started, as it sees it (wall clock, in seconds).
const STAMP = 'echo "{\\"name\\":\\"started\\",\\"value\\":$(date +%s.%N)}"\n';

function byRound(samples: SamplesFile): Map<number, Trial[]> {
  const rounds = new Map<number, Trial[]>();
  for (const t of samples.trials) rounds.set(t.round, [...(rounds.get(t.round) ?? []), t]);
  return rounds;
}

describe('duet', () => {
  let root: string;
  beforeAll(async () => {
    root = await makeWorkspace({
      fast: { 'cpu.sh': PRINT_CPU, 'run.sh': STAMP + 'sleep 0.05\n' },
      slow: { 'cpu.sh': PRINT_CPU, 'run.sh': STAMP + 'sleep 0.25\n' },
    });
  });
  afterAll(() => removeWorkspace(root));

  it('runs each side confined to its own CPU set (real cgroups where available) and removes them', async () => {
    const samples = await runScenario(
      loadedScenario(
        {
          versions: [
            { name: 'base', path: 'fast' },
            { name: 'head', path: 'slow' },
          ],
          workload: { command: 'sh cpu.sh', format: 'jsonl' },
          iterations: 8,
          warmup: 0,
          seed: 3,
        },
        root,
      ),
      { signal: never, env: process.env },
    );
    expect(samples.error).toBeNull();
    expect(samples.complete).toBe(true);
    expect(samples.isolation.kind).toBe(cpusetV1Available() ? 'cgroup-v1' : 'taskset');
    expect(samples.isolation.slots).toHaveLength(2);
    expect(new Set(samples.isolation.slots).size).toBe(2);
    for (const trial of samples.trials) {
      expect(trial.metrics[0]!.values[0]).toBe(Number(samples.isolation.slots[trial.slot]));
    }
    // Slots are drawn per round: each version ran on both CPUs at some point.
    for (const version of [0, 1]) {
      const used = new Set(samples.trials.filter((t) => t.version === version).map((t) => t.slot));
      expect(used.size).toBe(2);
    }
    if (samples.isolation.cgroup !== null) expect(existsSync(samples.isolation.cgroup)).toBe(false);
  });

  it('starts iteration i of both sides together: the side that finishes early waits', async () => {
    const samples = await runScenario(
      loadedScenario(
        {
          versions: [
            { name: 'base', path: 'fast' },
            { name: 'head', path: 'slow' },
          ],
          workload: { command: 'sh run.sh', format: 'jsonl', stagger: 'off' },
          iterations: 6,
          warmup: 1,
          seed: 1,
        },
        root,
      ),
      { signal: never, env: process.env },
    );
    expect(samples.error).toBeNull();
    const rounds = [...byRound(samples).values()];
    expect(rounds).toHaveLength(7);
    expect(samples.trials.filter((t) => t.warmup)).toHaveLength(2);
    const skews: number[] = [];
    for (const [r, trials] of rounds.entries()) {
      const [fast, slow] = [
        trials.find((t) => t.version === 0)!,
        trials.find((t) => t.version === 1)!,
      ];
      // Released by one barrier (not staggered here), each side's start stamped by its timer
      // on its own CPU: together (typically well under a millisecond apart; the bound is
      // generous for a loaded shared machine).
      expect(Math.abs(fast.startMs - slow.startMs)).toBeLessThan(20);
      skews.push(Math.abs(fast.metrics[0]!.values[0]! - slow.metrics[0]!.values[0]!) * 1000);
      expect(slow.wallMs).toBeGreaterThan(fast.wallMs + 100);
      const next = rounds[r + 1];
      if (next === undefined) continue;
      const nextFast = next.find((t) => t.version === 0)!;
      // The fast side did not start its next iteration until the slow one had finished.
      expect(nextFast.startMs).toBeGreaterThanOrEqual(slow.endMs);
      expect(nextFast.startMs - fast.endMs).toBeGreaterThan(100);
    }
    skews.sort((a, b) => a - b);
    expect(skews[Math.floor(skews.length / 2)]).toBeLessThan(20);
  });

  it('staggers the starts: a random side starts the offset later, and never ends with the other', async () => {
    const samples = await runScenario(
      loadedScenario(
        {
          versions: [
            { name: 'base', path: 'fast' },
            { name: 'head', path: 'fast' },
          ],
          workload: { command: 'sh run.sh', format: 'jsonl', stagger: '30ms' },
          iterations: 10,
          warmup: 0,
          seed: 4,
        },
        root,
      ),
      { signal: never, env: process.env },
    );
    expect(samples.error).toBeNull();
    expect(samples.timing?.staggerMs).toBe(30);
    const late = new Set<number>();
    const gaps: number[] = [];
    for (const trials of byRound(samples).values()) {
      const [a, b] = [trials.find((t) => t.version === 0)!, trials.find((t) => t.version === 1)!];
      const stamped = b.startMs - a.startMs;
      // 30 ms apart, as stamped by the timers, and as the processes themselves saw it; one
      // round's gap may shrink by a few ms when a busy machine is late to start the early side
      expect(Math.abs(stamped)).toBeGreaterThan(15);
      expect(Math.abs(stamped)).toBeLessThan(45);
      gaps.push(Math.abs(stamped));
      const seen = (b.metrics[0]!.values[0]! - a.metrics[0]!.values[0]!) * 1000;
      expect(Math.abs(seen - stamped)).toBeLessThan(10);
      late.add(stamped > 0 ? 1 : 0);
      // Neither ran its iteration alone at the end: the early one's CPU stayed busy, and
      // the harness heard of both only after both had ended.
      expect(Math.min(a.seenEndMs!, b.seenEndMs!)).toBeGreaterThanOrEqual(
        Math.max(a.endMs, b.endMs),
      );
    }
    gaps.sort((x, y) => x - y);
    expect(gaps[gaps.length >> 1]).toBeGreaterThan(25);
    // Which side starts late is drawn per round.
    expect(late.size).toBe(2);
  });
});
