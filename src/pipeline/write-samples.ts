import { rename, writeFile } from 'node:fs/promises';
import type { SamplesFile } from '../contracts/samples.js';

/** Writes the file atomically, so an interruption never leaves half a JSON document. */
export async function writeSamples(file: string, samples: SamplesFile): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(samples, null, 2)}\n`);
  await rename(temporary, file);
}
