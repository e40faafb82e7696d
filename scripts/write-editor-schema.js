#!/usr/bin/env node
// Writes the editor schemas: schema/contract.schema.json from the keyword table and
// schema/jtc.config.schema.json from the configuration's field table: `npm run editor-schema`
// (a test fails while either is stale).
import { writeFileSync } from 'node:fs';
import { projectConfigSchema } from '../dist/config/project-config.js';
import { editorSchema } from '../dist/contract/editor-schema.js';

writeFileSync(new URL('../schema/contract.schema.json', import.meta.url), `${JSON.stringify(editorSchema(), null, 2)}\n`);
writeFileSync(new URL('../schema/jtc.config.schema.json', import.meta.url), `${JSON.stringify(projectConfigSchema(), null, 2)}\n`);
