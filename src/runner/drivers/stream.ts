import { processTree, signalAll } from '../../process/process-tree.js';
import { steadyStates } from '../../load/steady-state.js';
import { parseStreamLine, type StreamSample } from '../../load/stream-samples.js';
import { streamSchema } from '../../scenario/service-schema.js';
import { commandFailure, RunError } from '../../process/errors.js';
import { startGated, type GatedProcess } from '../../process/gated-process.js';
import type { Driver, Side } from './types.js';

/** How long a program may take to exit after SIGTERM before its tree is SIGKILLed, ms. */
const STOP_GRACE_MS = 5000;

/**
 * The `stream` driver (docs/services.md): a long-running program per iteration that prints
 * timestamped samples (a throughput every few seconds, say); duetkit cuts its warm-up and
 * cool-down and summarises the steady state (ShuffleBench's method), one value per metric per
 * iteration. In a duet both versions' programs start on the barrier and run at the same
 * time, each in its CPU slot; they are stopped after `stream.duration` (SIGTERM to the whole
 * tree, SIGKILL after 5 s) or end by themselves.
 */
export const streamDriver: Driver = {
  name: 'stream',
  async open(workload, ctx) {
    const spec = workload.stream ?? streamSchema.parse({});
    const name = workload.name ?? 'value';
    let current: GatedProcess | null = null;
    let killed = false;
    const fail = (round: number | null, what: string, stderr: string) =>
      commandFailure(
        { argv: workload.command, version: ctx.version, round, cwd: ctx.cwd },
        what,
        stderr,
      );
    const stopTree = (process_: GatedProcess, signal: NodeJS.Signals): void =>
      signalAll(processTree(process_.pid), signal, process_.pid);

    const side: Side = {
      async arm({ round, slot, gate }) {
        if (killed) throw new RunError('interrupted');
        try {
          current = await startGated(workload.command, {
            cwd: ctx.cwd,
            env: ctx.env,
            placement: ctx.placements[slot]!,
            flag: gate.flag,
            stdin: 'ignore',
          });
        } catch (error) {
          throw fail(round, `could not start: ${(error as Error).message}`, '');
        }
      },
      async prime() {
        await current?.prime().catch(() => undefined); // an early exit is reported by fire()
      },
      async fire(round) {
        const process_ = current!;
        const start = process.hrtime.bigint();
        let stoppedByUs = false;
        let overdue = false;
        const timers: NodeJS.Timeout[] = [];
        const stop = (): void => {
          stoppedByUs = true;
          stopTree(process_, 'SIGTERM');
          timers.push(setTimeout(() => stopTree(process_, 'SIGKILL'), STOP_GRACE_MS));
        };
        if (spec.duration !== undefined) timers.push(setTimeout(stop, spec.duration * 1000));
        const limit = Math.max(ctx.timeout, (spec.duration ?? 0) + STOP_GRACE_MS / 1000 + 5);
        timers.push(
          setTimeout(() => {
            overdue = true;
            stopTree(process_, 'SIGKILL');
          }, limit * 1000),
        );
        const result = await process_.finished.finally(() => timers.forEach(clearTimeout));
        const end = process.hrtime.bigint();
        current = null;
        if (killed) throw new RunError('interrupted');
        if (result.spawnError !== null) {
          throw fail(round, `could not start: ${result.spawnError.message}`, result.stderr);
        }
        if (overdue) {
          throw fail(
            round,
            `did not end within ${limit} s (the iteration's timeout; set workload.stream.duration to stop it)`,
            result.stderr,
          );
        }
        if (!stoppedByUs && result.code !== 0) {
          const how =
            result.signal !== null
              ? `was killed by ${result.signal}`
              : `exited with code ${result.code}`;
          throw fail(round, how, result.stderr);
        }
        const samples: StreamSample[] = [];
        const lines = result.stdout.split('\n');
        try {
          lines.forEach((line, i) => {
            try {
              samples.push(...parseStreamLine(line, name));
            } catch (error) {
              // A program stopped by us may have been cut in the middle of its last line.
              if (stoppedByUs && i === lines.length - 1) return;
              throw new Error(`line ${i + 1}: ${(error as Error).message}`);
            }
          });
          const states = steadyStates(samples, spec);
          return {
            start,
            end,
            metrics: states.map((s) => ({
              name: s.name,
              unit: s.unit,
              biggerIsBetter: s.biggerIsBetter,
              values: [s.value],
              valueKind: 'summary' as const,
            })),
          };
        } catch (error) {
          throw fail(round, `produced no steady state: ${(error as Error).message}`, result.stderr);
        }
      },
      kill() {
        killed = true;
        const running = current;
        if (running === null) return;
        stopTree(running, 'SIGTERM');
        const grace = setTimeout(() => stopTree(running, 'SIGKILL'), STOP_GRACE_MS);
        void running.finished.then(() => clearTimeout(grace));
      },
      async close() {},
      async stopped() {
        await current?.finished;
      },
    };
    return side;
  },
};
