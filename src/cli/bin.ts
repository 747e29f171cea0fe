#!/usr/bin/env node
import { processContext } from './context.js';
import { main } from './main.js';

// The only place that ends the process.
process.exitCode = await main(process.argv.slice(2), processContext());
