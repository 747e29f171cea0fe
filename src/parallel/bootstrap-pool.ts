import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { bootstrapChunks, chunkCount, type BootstrapPlan } from '../stats/bootstrap.js';
import { tsxExecArgv } from '../io/self-argv.js';
import type { ChunkReply, ChunkRequest } from './bootstrap-worker.js';

/**
 * Worker threads that compute bootstrap distributions in parallel. Chunk j of a plan always
 * draws from the same random stream (see `RESAMPLES_PER_CHUNK`), so the distribution is
 * identical to the single-threaded one, value for value; only the wall time changes.
 */
export interface BootstrapPool {
  /** Threads computing chunks: the workers plus this thread. */
  readonly threads: number;
  distribution(plan: BootstrapPlan): Promise<Float64Array>;
  close(): Promise<void>;
}

/** `threads` defaults to the CPUs available; 1 means no workers (everything on this thread). */
export function createBootstrapPool(threads = availableParallelism()): BootstrapPool {
  const workers: Worker[] = [];
  const pending = new Map<number, (reply: ChunkReply) => void>();
  let nextId = 0;
  const worker = (i: number): Worker => {
    let w = workers[i];
    if (w === undefined) {
      w = spawnWorker();
      w.on('message', (reply: ChunkReply) => {
        pending.get(reply.id)?.(reply);
        pending.delete(reply.id);
        if (pending.size === 0) for (const each of workers) each.unref();
      });
      workers[i] = w;
    }
    return w;
  };
  const ask = (i: number, plan: BootstrapPlan, chunks: number[]): Promise<Float64Array[]> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      const w = worker(i);
      const onError = (error: Error): void => reject(error);
      w.once('error', onError);
      pending.set(id, (reply) => {
        w.off('error', onError);
        if ('error' in reply) reject(new Error(`bootstrap worker: ${reply.error}`));
        else resolve(reply.parts);
      });
      w.ref();
      w.postMessage({ id, plan, chunks } satisfies ChunkRequest);
    });
  return {
    threads: Math.max(1, threads),
    async distribution(plan) {
      const k = chunkCount(plan.resamples);
      const share = Math.min(this.threads, k);
      // contiguous ranges of chunks, one per thread; this thread takes the first
      const ranges = Array.from({ length: share }, (_, t) => {
        const from = Math.floor((t * k) / share);
        const to = Math.floor(((t + 1) * k) / share);
        return Array.from({ length: to - from }, (_, j) => from + j);
      });
      const remote = ranges.slice(1).map((chunks, t) => ask(t, plan, chunks));
      const local = bootstrapChunks(plan, ranges[0] ?? []);
      const parts = [local, ...(await Promise.all(remote))].flat();
      const out = new Float64Array(plan.resamples);
      let offset = 0;
      for (const part of parts) {
        out.set(part, offset);
        offset += part.length;
      }
      return out;
    },
    async close() {
      await Promise.all(workers.map((w) => w.terminate()));
      workers.length = 0;
    },
  };
}

/**
 * The worker's script sits beside this module: `bootstrap-worker.js` in the bundle, or the
 * TypeScript source when running from `src/` (then loaded through tsx).
 */
function spawnWorker(): Worker {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    return new Worker(new URL('./bootstrap-worker.ts', here), { execArgv: tsxExecArgv(here) });
  }
  return new Worker(new URL('./bootstrap-worker.js', here));
}
