// Harvests the tools/list of the MCP servers in fixtures/import/servers.json (installed as pinned
// devDependencies) over stdio with jtc import's own client, and writes each as
// fixtures/import/<name>/tools.json. Run after `npm run build`; then write the expected results
// beside each with `jtc import fixtures/import/<name>/tools.json -o fixtures/import/<name>/contracts
// > fixtures/import/<name>/report.txt`, and review the change. Nothing here touches the network.
import { writeFileSync, mkdirSync, readFileSync } from 'node:fs';
import { listToolsOverStdio } from '../dist/import/mcp-client.js';
import { renderJson } from '../dist/import/render.js';

const servers = JSON.parse(readFileSync('fixtures/import/servers.json', 'utf8'));
for (const server of servers) {
  const tools = await listToolsOverStdio(server.command, { timeoutMs: 120_000 });
  const list = { kind: 'object', position: { line: 1, column: 1, offset: 0 }, pointer: '', members: [{ key: 'tools', keyPosition: { line: 1, column: 1, offset: 0 }, value: { kind: 'array', position: { line: 1, column: 1, offset: 0 }, pointer: '/tools', items: tools } }] };
  mkdirSync(`fixtures/import/${server.name}`, { recursive: true });
  writeFileSync(`fixtures/import/${server.name}/tools.json`, `${renderJson(list)}\n`);
  console.log(`${server.name}: ${tools.length} tools`);
}
