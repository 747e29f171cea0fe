import { registerDeriver } from '../history/store.js';
import { deriveVariability } from './derive.js';

// Every publish, prune and import of the history writes the dashboard's variability data of a
// suite that got a nightly run (src/variability/derive.ts). Imported for this effect alone.
registerDeriver(deriveVariability);
