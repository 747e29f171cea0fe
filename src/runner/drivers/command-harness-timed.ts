import { commandFailure, RunError } from '../../process/errors.js';
import { startGated, type GatedProcess } from '../../process/gated-process.js';
import { clearOutputFile, iterationMetrics, nsToMs, readIterationOutput } from './metrics.js';
import type { Side, SideContext } from './types.js';
import type { Workload } from '../../scenario/schema.js';

/**
 * The command driver without a timer (no C compiler could build one; the samples say so):
 * a process per iteration behind the shell gate, its wall time from the barrier's release to
 * the exit as the harness sees it. Late by the harness's wake-up latency, so less exact; no
 * CPU time, and nothing keeps a duet's early side busy.
 */
export function openHarnessTimed(workload: Workload, ctx: SideContext): Side {
  let current: GatedProcess | null = null;
  let killed = false;
  const fail = (round: number | null, what: string, stderr = '') =>
    commandFailure(
      { argv: workload.command, version: ctx.version, round, cwd: ctx.cwd },
      what,
      stderr,
    );
  return {
    async arm({ round, slot, gate }) {
      if (killed) throw new RunError('interrupted');
      await clearOutputFile(workload, ctx.cwd);
      try {
        current = await startGated(workload.command, {
          cwd: ctx.cwd,
          env: ctx.env,
          placement: ctx.placements[slot]!,
          flag: gate.flag,
          stdin: 'ignore',
        });
      } catch (error) {
        throw fail(round, `could not start: ${(error as Error).message}`);
      }
      if (killed) current.kill();
    },
    async prime() {
      await current?.prime().catch(() => undefined); // an early exit is reported by fire()
    },
    async fire(round, start) {
      const child = current;
      if (child === null) throw new Error('fire() before arm()');
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        child.kill();
      }, ctx.timeout * 1000);
      const result = await child.finished.finally(() => clearTimeout(timer));
      current = null;
      if (killed) throw new RunError('interrupted');
      if (result.spawnError !== null) {
        throw fail(round, `could not start: ${result.spawnError.message}`);
      }
      if (timedOut) throw fail(round, `timed out after ${ctx.timeout} s`, result.stderr);
      if (result.code !== 0) {
        const how =
          result.signal !== null
            ? `was killed by ${result.signal}`
            : `exited with code ${result.code}`;
        throw fail(round, how, result.stderr);
      }
      try {
        const output = await readIterationOutput(workload, result.stdout, ctx.cwd);
        const wallMs = nsToMs(result.exitedAt - start);
        const metrics = iterationMetrics(workload, { wallMs }, output, ctx.cwd);
        return { start, end: result.exitedAt, metrics, seenEnd: result.exitedAt };
      } catch (error) {
        throw fail(round, `produced no value: ${(error as Error).message}`, result.stderr);
      }
    },
    kill() {
      killed = true;
      current?.kill();
    },
    async close() {
      current?.kill();
      current = null;
    },
  };
}
