import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Workload } from '../../scenario/schema.js';
import { commandFailure, RunError } from '../../process/errors.js';
import { startGated, type GatedProcess } from '../../process/gated-process.js';
import { parseTimerLine } from '../timer/report.js';
import { openHarnessTimed } from './command-harness-timed.js';
import { createTimerPool } from './timer-pool.js';
import { createRng, fnv1a } from '../../stats/rng.js';
import { clearOutputFile, iterationMetrics, nsToMs, readIterationOutput } from './metrics.js';
import type { Driver, Side, SideContext } from './types.js';

/** How long the timer may take to answer `exit` or SIGTERM before it is killed. */
const GRACE_MS = 5000;
/** The end of a command's stderr that a failure report quotes. */
const STDERR_TAIL = 65536;

/**
 * The `command` driver: a fresh process per iteration, run in the version's directory.
 * Metric: the command's wall time, or what `format` reads from its output.
 *
 * Each side has one timer (src/runner/timer) for the whole run, inside its CPU set: it spawns
 * the command when the barrier opens and stamps its start and end on the side's own CPU, with
 * its CPU time from wait4. The harness shares the CPUs it measures and wakes late, so its own
 * clock would blur differences below its wake-up latency (BENCHMARKS.md, "Fidelity"). In a
 * duet the timer then keeps the CPU busy (`keepBusy`) until every side has finished, so no
 * side runs its last stretch alone. A long-lived timer also makes a step cheap: the harness
 * spawns nothing per iteration. Without a C compiler, see command-harness-timed.ts.
 */
export const commandDriver: Driver = {
  name: 'command',
  async open(workload, ctx) {
    return ctx.timer === null ? openHarnessTimed(workload, ctx) : openTimed(workload, ctx);
  },
};

async function openTimed(workload: Workload, ctx: SideContext): Promise<Side> {
  // tmpfs where there is one: the command's output files then cost no journal or disk I/O,
  // which would stall both sides of a duet at once.
  const parent = existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir();
  const dir = await mkdtemp(path.join(parent, 'duetkit-side-'));
  const out = path.join(dir, 'stdout');
  const err = path.join(dir, 'stderr');
  const fail = (round: number | null, what: string, stderr = '') =>
    commandFailure(
      { argv: workload.command, version: ctx.version, round, cwd: ctx.cwd },
      what,
      stderr,
    );
  // one timer per CPU set, never moved between sets (timer-pool.ts): the run's pool, or this
  // side's own
  const own = ctx.timers === undefined ? createTimerPool() : null;
  const pool = ctx.timers ?? own!;
  const held = new Map<number, { key: string; timer: GatedProcess }>();
  const keyOf = (slot: number): string =>
    [ctx.version, String(slot), ctx.cwd, JSON.stringify(ctx.env)].join('\0');
  const timerIn = async (slot: number): Promise<GatedProcess> => {
    const kept = held.get(slot);
    if (kept !== undefined) return kept.timer;
    const key = keyOf(slot);
    const timer = await pool.take(key, () =>
      startGated(workload.command, {
        cwd: ctx.cwd,
        env: ctx.env,
        placement: ctx.placements[slot]!,
        flag: '',
        stdin: 'ignore',
        gate: () => [ctx.timer!, 'serve', '--'],
      }),
    );
    held.set(slot, { key, timer });
    return timer;
  };
  // a program of several copies (ctx.programs): one drawn for each process, from draws of
  // this version and command's own (each benchmark of a suite its own sequence)
  const rng = createRng((ctx.seed ^ fnv1a([ctx.version, ...workload.command].join('\0'))) >>> 0);
  const programFor = (): { argv: string[]; program?: number } => {
    const copies = ctx.programs;
    if (copies === undefined || copies.length === 0) return { argv: workload.command };
    const program = rng.nextIndex(copies.length);
    return { argv: [copies[program]!, ...workload.command.slice(1)], program };
  };
  try {
    await timerIn(ctx.slot);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw fail(null, `could not start duetkit's timer: ${(error as Error).message}`);
  }
  let killed = false;
  let pending: {
    go: string;
    saved: string | null;
    slot: number;
    told: boolean;
    program: number | undefined;
  } | null = null;
  /** The timer ended without being told to: what its own stderr says. */
  const died = async (timer: GatedProcess, round: number | null): Promise<RunError> => {
    if (killed) return new RunError('interrupted');
    const result = await timer.finished;
    return fail(
      round,
      `lost duetkit's timer (it ended with ${result.code ?? result.signal})`,
      result.stderr,
    );
  };
  /** The timer's next line; an `error …` line (a bug of ours) fails the run. */
  const next = async (timer: GatedProcess, round: number | null): Promise<string> => {
    const line = await timer.controlLine();
    if (line === null) throw await died(timer, round);
    if (line.startsWith('error ')) throw fail(round, `duetkit's timer: ${line.slice(6)}`);
    return line;
  };

  return {
    async arm({ round, slot, gate, delayNs }) {
      if (killed) throw new RunError('interrupted');
      await clearOutputFile(workload, ctx.cwd);
      // the timer of this CPU set, started in it the first time the side runs there
      try {
        await timerIn(slot);
      } catch (error) {
        throw fail(round, `could not start duetkit's timer: ${(error as Error).message}`);
      }
      const output = workload.output === undefined ? null : path.resolve(ctx.cwd, workload.output);
      // Extra runs that keep the CPU busy write the output file too: the measured one is
      // moved aside first.
      const repeats = gate.target > 0 && ctx.keepBusy === 'repeat';
      const saved = output !== null && repeats ? `${output}.duetkit-measured` : null;
      const drawn = programFor();
      const fields = [
        'go',
        gate.flag,
        gate.sync,
        String(gate.target),
        ctx.keepBusy,
        out,
        err,
        saved === null ? '-' : output!,
        saved ?? '-',
        String(Math.round(ctx.timeout * 1000)),
        String(Math.round(delayNs)),
        ...drawn.argv,
      ];
      if (fields.some((f) => /[\t\n]/.test(f))) {
        throw fail(
          round,
          'has a path or an argument with a tab or a line break, which the timer cannot take',
        );
      }
      pending = {
        go: `${fields.join('\t')}\n`,
        saved,
        slot,
        told: false,
        program: drawn.program,
      };
    },
    async prime() {
      if (pending === null) throw new Error('prime() before arm()');
      const timer = held.get(pending.slot)!.timer;
      timer.tell(pending.go);
      pending.told = true;
      // `ready`: the timer spins at the start line. A timer that died is reported by fire().
      const line = await timer.controlLine();
      if (line?.startsWith('error ')) throw fail(null, `duetkit's timer: ${line.slice(6)}`);
    },
    async fire(round) {
      const step = pending;
      if (step === null) throw new Error('fire() before arm()');
      pending = null;
      const timer = held.get(step.slot)!.timer;
      // The timer enforces the time limit itself; this only catches a timer that hangs (the
      // other side may take up to its own limit first, while this one keeps its CPU busy).
      const watchdog = setTimeout(() => timer.kill(), 2 * ctx.timeout * 1000 + GRACE_MS);
      const line = await next(timer, round).finally(() => clearTimeout(watchdog));
      const seenEnd = process.hrtime.bigint();
      if (killed) throw new RunError('interrupted');
      const stderr = await readTail(err);
      const report = parseTimerLine(line);
      if (report instanceof Error) throw fail(round, `could not start: ${report.message}`);
      if (report.timedOut) throw fail(round, `timed out after ${ctx.timeout} s`, stderr);
      if (report.code !== 0) {
        const how =
          report.signal !== null
            ? `was killed by ${report.signal}`
            : `exited with code ${report.code}`;
        throw fail(round, how, stderr);
      }
      try {
        const stdout = await readFile(out, 'utf8');
        const output = await readIterationOutput(workload, stdout, ctx.cwd, step.saved);
        const wallMs = nsToMs(report.endNs - report.startNs);
        const cpuMs = report.userMs + report.systemMs;
        return {
          start: report.startNs,
          end: report.endNs,
          metrics: iterationMetrics(
            workload,
            { wallMs, cpuMs, rssKb: report.maxRssKb },
            output,
            ctx.cwd,
          ),
          cpuMs,
          seenEnd,
          ...(step.program === undefined ? {} : { program: step.program }),
        };
      } catch (error) {
        throw fail(round, `produced no value: ${(error as Error).message}`, stderr);
      }
    },
    kill() {
      killed = true;
      // Each timer kills what it started, then itself; its group, should it not answer.
      for (const { timer } of held.values()) timer.terminate();
      held.clear();
    },
    async close() {
      // a timer told a step that never fired (a failure elsewhere) is waiting in it: ended
      if (pending?.told === true) {
        held.get(pending.slot)?.timer.terminate();
        held.delete(pending.slot);
      }
      for (const { key, timer } of held.values()) pool.give(key, timer);
      held.clear();
      await own?.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The end of a file the command wrote (its stderr), '' when there is none. */
async function readTail(file: string): Promise<string> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.slice(-STDERR_TAIL);
}
