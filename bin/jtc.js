#!/usr/bin/env node
import { main } from '../dist/cli/main.js';

// A reader that goes away (`jtc check | head -1`) ends what is printed, not the command: it still
// finishes its work and sets its exit code, with no stack trace for the closed pipe.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);

process.exitCode = await main(process.argv.slice(2));
