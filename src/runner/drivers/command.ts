import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Workload } from '../../scenario/schema.js';
import { commandFailure, RunError } from '../../process/errors.js';
import { startGated, type GatedProcess } from '../../process/gated-process.js';
import { parseTimerLine } from '../timer/report.js';
import { openHarnessTimed } from './command-harness-timed.js';
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
  let timer: GatedProcess;
  try {
    timer = await startGated(workload.command, {
      cwd: ctx.cwd,
      env: ctx.env,
      placement: ctx.placements[ctx.slot]!,
      flag: '',
      stdin: 'ignore',
      gate: () => [ctx.timer!, 'serve', '--'],
    });
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw fail(null, `could not start duetkit's timer: ${(error as Error).message}`);
  }
  let slot = ctx.slot;
  let killed = false;
  let pending: { go: string; saved: string | null } | null = null;
  /** The timer ended without being told to: what its own stderr says. */
  const died = async (round: number | null): Promise<RunError> => {
    if (killed) return new RunError('interrupted');
    const result = await timer.finished;
    return fail(
      round,
      `lost duetkit's timer (it ended with ${result.code ?? result.signal})`,
      result.stderr,
    );
  };
  /** The timer's next line; an `error …` line (a bug of ours) fails the run. */
  const next = async (round: number | null): Promise<string> => {
    const line = await timer.controlLine();
    if (line === null) throw await died(round);
    if (line.startsWith('error ')) throw fail(round, `duetkit's timer: ${line.slice(6)}`);
    return line;
  };

  return {
    async arm({ round, slot: toSlot, gate, delayNs }) {
      if (killed) throw new RunError('interrupted');
      await clearOutputFile(workload, ctx.cwd);
      if (toSlot !== slot) {
        await ctx.placements[toSlot]!.move(timer.pid);
        slot = toSlot;
      }
      const output = workload.output === undefined ? null : path.resolve(ctx.cwd, workload.output);
      // Extra runs that keep the CPU busy write the output file too: the measured one is
      // moved aside first.
      const repeats = gate.target > 0 && ctx.keepBusy === 'repeat';
      const saved = output !== null && repeats ? `${output}.duetkit-measured` : null;
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
      ];
      if (fields.some((f) => /[\t\n]/.test(f))) {
        throw fail(round, 'has a path with a tab or a line break, which the timer cannot take');
      }
      pending = { go: `${fields.join('\t')}\n`, saved };
    },
    async prime() {
      if (pending === null) throw new Error('prime() before arm()');
      timer.tell(pending.go);
      // `ready`: the timer spins at the start line. A timer that died is reported by fire().
      const line = await timer.controlLine();
      if (line?.startsWith('error ')) throw fail(null, `duetkit's timer: ${line.slice(6)}`);
    },
    async fire(round) {
      const step = pending;
      if (step === null) throw new Error('fire() before arm()');
      pending = null;
      // The timer enforces the time limit itself; this only catches a timer that hangs (the
      // other side may take up to its own limit first, while this one keeps its CPU busy).
      const watchdog = setTimeout(() => timer.kill(), 2 * ctx.timeout * 1000 + GRACE_MS);
      const line = await next(round).finally(() => clearTimeout(watchdog));
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
        };
      } catch (error) {
        throw fail(round, `produced no value: ${(error as Error).message}`, stderr);
      }
    },
    kill() {
      killed = true;
      // The timer kills what it started, then itself; its group, should it not answer.
      timer.terminate();
    },
    async close() {
      timer.tell('exit\n');
      const grace = setTimeout(() => timer.kill(), GRACE_MS);
      await timer.finished.finally(() => clearTimeout(grace));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The end of a file the command wrote (its stderr), '' when there is none. */
async function readTail(file: string): Promise<string> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.slice(-STDERR_TAIL);
}
