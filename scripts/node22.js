#!/usr/bin/env node
// The official MCP conformance suite needs Node >= 22, while the project supports Node 20 too.
// `node scripts/node22.js` prints the path of a Node >= 22 binary, and nothing else on standard
// output: this Node when it is recent enough, else the one in tools/node22, installed from its
// lockfile on first use (scripts/node-binary.js).
import { fileURLToPath } from 'node:url';
import { nodeBinary, printBinary } from './node-binary.js';

/** A Node >= 22 binary. */
export const node22 = () => nodeBinary(22, { orNewer: true });

if (process.argv[1] === fileURLToPath(import.meta.url)) printBinary('node22', node22);
