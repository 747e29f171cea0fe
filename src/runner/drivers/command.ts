import { commandFailure, RunError } from '../errors.js';
import { startGated, type GatedProcess } from '../gated-process.js';
import { clearOutputFile, iterationMetrics, nsToMs, readIterationOutput } from './metrics.js';
import type { Driver, Side } from './types.js';

/**
 * The `command` driver: a fresh process per iteration, run in the version's directory.
 * Metric: wall time from the gate opening to the exit, or what `format` reads from stdout.
 */
export const commandDriver: Driver = {
  name: 'command',
  async open(workload, ctx) {
    // The process armed or running now; kill() must reach it in either state.
    let current: GatedProcess | null = null;
    let armed = false;
    let killed = false;
    const fail = (round: number | null, what: string, stderr = '') =>
      commandFailure(
        { argv: workload.command, version: ctx.version, round, cwd: ctx.cwd },
        what,
        stderr,
      );
    const side: Side = {
      async arm(round, slot, flag) {
        if (killed) throw new RunError('interrupted');
        await clearOutputFile(workload, ctx.cwd);
        try {
          current = await startGated(workload.command, {
            cwd: ctx.cwd,
            env: ctx.env,
            placement: ctx.placements[slot]!,
            flag,
            stdin: 'ignore',
          });
          armed = true;
        } catch (error) {
          throw fail(round, `could not start: ${(error as Error).message}`);
        }
        if (killed) current.kill();
      },
      async prime() {
        if (current === null || !armed) throw new Error('prime() before arm()');
        await current.prime().catch(() => undefined); // an early exit is reported by fire()
      },
      async fire(round, start) {
        const child = current;
        if (child === null || !armed) throw new Error('fire() before arm()');
        armed = false;
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
        const wallMs = nsToMs(result.exitedAt - start);
        try {
          const output = await readIterationOutput(workload, result.stdout, ctx.cwd);
          const metrics = iterationMetrics(workload, wallMs, output, ctx.cwd);
          return { start, end: result.exitedAt, metrics };
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
    return side;
  },
};
