import { z } from 'zod';
import { splitArgv } from './argv.js';
import { parseDuration } from './duration.js';

/** Field types shared by the scenario schema's parts (schema.ts, service-schema.ts). */

/** An argv array, or a string split like a shell would (never run by a shell). */
export const argv = z
  .union([z.array(z.string()).min(1), z.string().min(1)], {
    error: 'a command: an argv list such as [node, bench.js] or a string such as "node bench.js"',
  })
  .transform((value, ctx) => {
    if (Array.isArray(value)) return value;
    try {
      const words = splitArgv(value);
      if (words.length > 0) return words;
      ctx.addIssue({ code: 'custom', message: 'a non-empty command' });
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
    }
    return z.NEVER;
  });

/** Seconds as a number, or a string with a unit: `500ms`, `90s`, `2m`, `1h`. */
export const duration = z
  .union([z.number(), z.string()], { error: 'a duration: seconds, or "500ms", "90s", "2m", "1h"' })
  .transform((value, ctx) => {
    const seconds = parseDuration(value);
    if (seconds !== null) return seconds;
    ctx.addIssue({
      code: 'custom',
      message: 'a positive duration: seconds, or "500ms", "90s", "2m"',
    });
    return z.NEVER;
  });

export const versionName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'a name of letters, digits, ".", "_" or "-"');
