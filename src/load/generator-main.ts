import { LoadGenerator } from './generator.js';
import type { FromGenerator, ToGenerator } from './protocol.js';

/**
 * Entry point of the load generator process (dist/load-generator.js): takes `configure`,
 * `phase` and `close` messages from the harness over the IPC channel and answers each.
 * Ends by itself when the harness goes away.
 */
let generator: LoadGenerator | null = null;
const send = (message: FromGenerator): void => {
  process.send?.(message);
};

process.on('message', (message: ToGenerator) => {
  void handle(message).catch((error: Error) =>
    send({ type: 'failed', message: error.stack ?? error.message }),
  );
});
process.on('disconnect', () => void stop());

async function handle(message: ToGenerator): Promise<void> {
  if (message.type === 'configure') {
    generator = new LoadGenerator(message);
    send({ type: 'configured' });
  } else if (message.type === 'phase') {
    if (generator === null) throw new Error('phase before configure');
    send(await generator.phase(message));
  } else await stop();
}

async function stop(): Promise<void> {
  await generator?.close();
  process.disconnect?.();
  process.exit(0);
}

send({ type: 'ready' });
