import type { Workload } from '../../scenario/schema.js';
import { commandDriver } from './command.js';
import { httpDriver } from './http.js';
import { k6Driver } from './k6.js';
import { persistentDriver } from './persistent.js';
import { streamDriver } from './stream.js';
import type { Driver } from './types.js';

/** Every workload driver, one entry each. */
const DRIVERS: readonly Driver[] = [
  commandDriver,
  persistentDriver,
  httpDriver,
  streamDriver,
  k6Driver,
];

export function getDriver(name: Workload['driver']): Driver {
  const driver = DRIVERS.find((d) => d.name === name);
  if (driver === undefined) {
    throw new RangeError(
      `unknown driver "${name}"; accepted: ${DRIVERS.map((d) => d.name).join(', ')}`,
    );
  }
  return driver;
}
