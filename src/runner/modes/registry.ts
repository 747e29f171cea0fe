import type { Mode } from '../../scenario/schema.js';
import { duet } from './duet.js';
import { mct } from './mct.js';
import { mit } from './mit.js';
import { rmit } from './rmit.js';
import { single } from './single.js';
import type { ModeDefinition } from './types.js';

const MODES: Record<Mode, ModeDefinition> = { duet, rmit, mit, mct, single };

export function getMode(name: Mode): ModeDefinition {
  return MODES[name];
}
