import { parentPort } from 'node:worker_threads';
import { bootstrapChunks, type BootstrapPlan } from '../stats/bootstrap.js';

/** Worker thread of the bootstrap pool: computes the chunks it is sent, transfers them back. */
export interface ChunkRequest {
  id: number;
  plan: BootstrapPlan;
  chunks: number[];
}

export type ChunkReply = { id: number; parts: Float64Array[] } | { id: number; error: string };

parentPort?.on('message', (request: ChunkRequest) => {
  let reply: ChunkReply;
  try {
    reply = { id: request.id, parts: bootstrapChunks(request.plan, request.chunks) };
  } catch (error) {
    reply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
  const transfer = 'parts' in reply ? reply.parts.map((p) => p.buffer as ArrayBuffer) : [];
  parentPort?.postMessage(reply, transfer);
});
