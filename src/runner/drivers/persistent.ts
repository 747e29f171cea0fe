import { parseOutput } from '../../formats/registry.js';
import { commandFailure, RunError } from '../../process/errors.js';
import { startGated } from '../../process/gated-process.js';
import { relayGate } from '../timer/report.js';
import { LineReader } from './line-reader.js';
import { nsToMs } from './metrics.js';
import type { Driver, Side } from './types.js';

/** How long a program may take to exit after `exit`, before it is killed. */
const EXIT_GRACE_MS = 5000;

/**
 * The `persistent` driver (docs/protocol.md): the program starts once per version and runs
 * one iteration per `go` line, answering with one JSON line. For benchmarks far shorter than
 * a process start-up.
 *
 * The program runs behind the timer in relay mode (src/runner/timer), which passes the lines
 * on and stamps each `go` and its answer on the program's own CPU: an `{"ok": true}` answer is
 * timed there, not when the harness, sharing the CPUs it measures, happens to wake. In a duet
 * the relay also staggers the `go` and keeps the CPU busy after the answer until every side
 * has answered (`keepBusy`: `repeat` spins, there being nothing to repeat).
 */
export const persistentDriver: Driver = {
  name: 'persistent',
  async open(workload, ctx) {
    const reader = new LineReader();
    const fail = (round: number | null, what: string, stderr: string) =>
      commandFailure(
        { argv: workload.command, version: ctx.version, round, cwd: ctx.cwd },
        what,
        stderr,
      );
    let process_;
    try {
      process_ = await startGated(workload.command, {
        cwd: ctx.cwd,
        env: { ...ctx.env, DUETKIT_PROTOCOL: '1' },
        placement: ctx.placements[ctx.slot]!,
        // Released at once: the protocol's `go` lines, not the barrier, start its iterations.
        flag: '/',
        stdin: 'pipe',
        onStdout: (chunk) => reader.push(chunk),
        ...(ctx.timer === null ? {} : { gate: relayGate(ctx.timer) }),
      });
    } catch (error) {
      throw fail(null, `could not start: ${(error as Error).message}`, '');
    }
    const child = process_;
    let stderr = '';
    child.child.stderr!.on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-65536)));
    void child.finished.then(() => reader.end());
    const stdin = child.child.stdin!;
    stdin.on('error', () => undefined); // a dead program is reported through its exit instead
    let killed = false;
    let currentSlot = ctx.slot;
    // Behind the relay, the program is the relay's child: it moves between slots too.
    const pids = [child.pid];
    /** The relay's stamps of the last `go` and its answer (hrtime, ns). */
    const stamps: { next(): Promise<[bigint, bigint] | null> } = {
      async next() {
        for (
          let line = await child.controlLine();
          line !== null;
          line = await child.controlLine()
        ) {
          const time = /^time (\d+) (\d+)$/.exec(line);
          if (time !== null) return [BigInt(time[1]!), BigInt(time[2]!)];
        }
        return null;
      },
    };

    /** Waits for the next protocol line within the timeout; null when the program exited. */
    const reply = async (round: number | null): Promise<Record<string, unknown>> => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), ctx.timeout * 1000);
      });
      const line = await Promise.race([reader.next(), timeout]).finally(() => clearTimeout(timer));
      if (killed) throw new RunError('interrupted');
      if (line === 'timeout') {
        child.kill();
        throw fail(round, `did not answer within ${ctx.timeout} s`, stderr);
      }
      if (line === null) {
        const result = await child.finished;
        throw fail(round, `exited (code ${result.code ?? result.signal}) before answering`, stderr);
      }
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw fail(round, `answered with a line that is not JSON: ${line.slice(0, 200)}`, stderr);
      }
    };

    await child.prime().catch(() => undefined); // an early exit is reported by reply()
    if (ctx.timer !== null) {
      const started = await child.controlLine();
      const pid = /^pid (\d+)$/.exec(started ?? '');
      if (pid === null) {
        child.kill();
        const why = started?.startsWith('fail ') ? 'could not be started' : 'ended at once';
        throw fail(null, `${why} (the timer said ${JSON.stringify(started)})`, stderr);
      }
      pids.push(Number(pid[1]));
    }
    const hello = await reply(null);
    if (hello.ready !== true) {
      child.kill();
      throw fail(
        null,
        `must first print {"ready": true}, printed ${JSON.stringify(hello)}`,
        stderr,
      );
    }

    const side: Side = {
      async prime() {},
      async arm({ slot, gate, delayNs }) {
        if (killed) throw new RunError('interrupted');
        // The relay holds this step's `go` for the stagger and, once the answer is in, keeps
        // the CPU busy until every side has answered (as the command timer does).
        if (ctx.timer !== null && (gate.target > 0 || delayNs > 0)) {
          const busy = ctx.keepBusy === 'off' ? 'off' : 'spin';
          child.tell(`step\t${gate.sync}\t${gate.target}\t${busy}\t${Math.round(delayNs)}\n`);
        }
        if (slot === currentSlot) return;
        for (const pid of pids) await ctx.placements[slot]!.move(pid);
        currentSlot = slot;
      },
      async fire(round) {
        const sent = process.hrtime.bigint();
        stdin.write('go\n');
        const answer = await reply(round);
        const seenEnd = process.hrtime.bigint();
        const stamped = ctx.timer === null ? null : await stamps.next();
        const [start, end] = stamped ?? [sent, seenEnd];
        if (typeof answer.error === 'string') {
          throw fail(round, `reported an error: ${answer.error}`, stderr);
        }
        if (answer.results === undefined) {
          if (answer.ok !== true) {
            throw fail(
              round,
              `answered ${JSON.stringify(answer)}; expected {"ok": true}, {"results": [...]} or {"error": "..."}`,
              stderr,
            );
          }
          const wallMs = nsToMs(end - start);
          return {
            start,
            end,
            seenEnd,
            metrics: [
              {
                name: workload.name ?? 'wall-time',
                unit: 'ms',
                biggerIsBetter: false,
                values: [wallMs],
                valueKind: 'samples',
              },
            ],
          };
        }
        if (!Array.isArray(answer.results)) {
          throw fail(
            round,
            `answered "results" that is not a list: ${JSON.stringify(answer.results)}`,
            stderr,
          );
        }
        // The records are the jsonl format's, so they are checked by the same code.
        const text = answer.results.map((r) => JSON.stringify(r)).join('\n');
        try {
          const metrics = parseOutput('jsonl', text, { cwd: ctx.cwd }).map((b) => ({
            name: b.name,
            unit: b.unit,
            biggerIsBetter: b.biggerIsBetter,
            values: b.values,
            valueKind: b.valueKind,
          }));
          return { start, end, seenEnd, metrics };
        } catch (error) {
          throw fail(round, `produced no value: ${(error as Error).message}`, stderr);
        }
      },
      kill() {
        killed = true;
        child.kill();
      },
      async close() {
        stdin.end('exit\n');
        const timer = setTimeout(child.kill, EXIT_GRACE_MS);
        await child.finished.finally(() => clearTimeout(timer));
      },
    };
    return side;
  },
};
