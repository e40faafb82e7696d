#!/usr/bin/env node
// Writes schema/contract.schema.json from the keyword table: `npm run editor-schema` (a test fails while it is stale).
import { writeFileSync } from 'node:fs';
import { editorSchema } from '../dist/contract/editor-schema.js';

writeFileSync(new URL('../schema/contract.schema.json', import.meta.url), `${JSON.stringify(editorSchema(), null, 2)}\n`);
