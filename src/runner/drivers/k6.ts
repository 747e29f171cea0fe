import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startServers, type ServerSet } from '../../load/servers.js';
import { formatArgv } from '../../scenario/argv.js';
import { RunError } from '../../process/errors.js';
import { commandDriver } from './command.js';
import type { Driver, Side } from './types.js';

/**
 * The `k6` driver (docs/services.md): a user's k6 script per version, one `k6 run` per
 * iteration, read with the k6 format from the summary it exports; with `server`, the
 * version's servers run for the whole experiment and the script finds them in `BASE_URL`
 * (the first replica) and `BASE_URLS` (all, comma-separated). It is the command driver with
 * these additions: k6 runs with `--no-usage-report` (and `K6_NO_USAGE_REPORT=true`), so it never
 * phones home, `--quiet`, and `--summary-export` to a file of duetkit's. k6 and the servers
 * share the version's CPU slot.
 */
export const k6Driver: Driver = {
  name: 'k6',
  async open(workload, ctx) {
    const run = workload.command.indexOf('run');
    if (run < 0) {
      throw new RunError(
        `workload.command: a k6 command such as "k6 run script.js", got ${formatArgv(workload.command)}`,
      );
    }
    let servers: ServerSet | null = null;
    if (workload.server !== undefined) {
      servers = await startServers(workload.server, {
        version: ctx.version,
        cwd: ctx.cwd,
        env: ctx.env,
        placement: ctx.placements[ctx.slot]!,
        signal: ctx.signal,
      });
    }
    const dir = await mkdtemp(path.join(os.tmpdir(), 'duetkit-k6-'));
    const summary = path.join(dir, 'summary.json');
    const origins = servers?.replicas.map((r) => r.origin) ?? [];
    const urls =
      origins.length === 0
        ? []
        : ['-e', `BASE_URL=${origins[0]}`, '-e', `BASE_URLS=${origins.join(',')}`];
    const command = [
      ...workload.command.slice(0, run + 1),
      '--no-usage-report',
      '--quiet',
      '--summary-export',
      summary,
      ...urls,
      ...workload.command.slice(run + 1),
    ];
    let inner: Side;
    try {
      inner = await commandDriver.open(
        {
          ...workload,
          driver: 'command',
          command,
          format: 'k6',
          output: summary,
          server: undefined,
        },
        { ...ctx, env: { ...ctx.env, K6_NO_USAGE_REPORT: 'true' } },
      );
    } catch (error) {
      await servers?.stop();
      await rm(dir, { recursive: true, force: true });
      throw error;
    }
    let slot = ctx.slot;
    let stopping: Promise<void> | null = null;
    const stopServers = (): Promise<void> => (stopping ??= servers?.stop() ?? Promise.resolve());
    return {
      async arm(arming) {
        if (servers !== null && arming.slot !== slot) {
          await servers.move(ctx.placements[arming.slot]!);
          slot = arming.slot;
        }
        await inner.arm(arming);
      },
      prime: () => inner.prime(),
      async fire(round, releasedAt) {
        const result = await inner.fire(round, releasedAt);
        await servers?.checkAlive();
        return result;
      },
      kill() {
        inner.kill();
        void stopServers();
      },
      async close() {
        await inner.close();
        await stopServers();
        await rm(dir, { recursive: true, force: true });
      },
      async stopped() {
        await stopServers();
        await rm(dir, { recursive: true, force: true });
      },
    };
  },
};
