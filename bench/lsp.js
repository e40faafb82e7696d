// jtc lsp: time from didChange to publishDiagnostics on a contract at the 32 KiB schema limit.
// Part of `npm run bench` (bench/run.js); `node bench/lsp.js` runs it alone (after `npm run build`).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createProtocolConnection, DidChangeTextDocumentNotification, DidOpenTextDocumentNotification, ExitNotification, InitializedNotification, InitializeRequest, PublishDiagnosticsNotification, ShutdownRequest } from 'vscode-languageserver-protocol/node';
import { checkContract } from '../dist/contract/check-contract.js';
import { recheckDelayMs } from '../dist/lsp/server.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const schemaLimit = 32 * 1024;

/**
 * A contract whose input schema is exactly 32 KiB as compact JSON (the limit), with 100 properties,
 * and the same contract with one value made invalid at the same length (`maxLength` 10 → -1): the
 * edit the benchmark makes back and forth, so that every change publishes new diagnostics.
 */
export function contractsAtLimit() {
  const properties = {};
  for (let i = 0; i < 100; i++) properties[`field_${String(i).padStart(3, '0')}`] = { type: 'string', maxLength: 10, description: 'x'.repeat(250) };
  const input = { type: 'object', properties, additionalProperties: false };
  const padding = schemaLimit - JSON.stringify(input).length;
  properties.field_000.description += 'y'.repeat(padding);
  if (JSON.stringify(input).length !== schemaLimit) throw new Error('the benchmark contract is not at the limit');
  const valid = JSON.stringify({ name: 'bench.at_limit', description: 'A contract at the 32 KiB schema limit.', input, output: {} }, null, 2);
  const invalid = valid.replace('"maxLength": 10', '"maxLength": -1');
  return { valid, invalid };
}

export async function measureLanguageServer(rounds = 50) {
  const { valid, invalid } = contractsAtLimit();
  const dir = mkdtempSync(join(tmpdir(), 'jtc-bench-lsp-'));
  const file = join(dir, 'bench.at_limit.contract.json');
  writeFileSync(file, valid);
  const uri = pathToFileURL(file).href;
  const child = spawn(process.execPath, [join(root, 'bin/jtc.js'), 'lsp', '--stdio'], { cwd: dir, stdio: ['pipe', 'pipe', 'inherit'] });
  const connection = createProtocolConnection(child.stdout, child.stdin);
  let onPublish = () => undefined;
  connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
    if (params.uri === uri) onPublish(params.diagnostics);
  });
  connection.listen();
  const published = () => new Promise((resolve) => (onPublish = resolve));
  await connection.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri: pathToFileURL(dir).href, workspaceFolders: [{ uri: pathToFileURL(dir).href, name: 'bench' }], capabilities: {} });
  await connection.sendNotification(InitializedNotification.type, {});
  let next = published();
  await connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'json', version: 1, text: valid } });
  await next;

  const latencies = [];
  for (let version = 2; version < rounds + 2; version++) {
    const text = version % 2 === 0 ? invalid : valid;
    next = published();
    const start = process.hrtime.bigint();
    await connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ text }] });
    const diagnostics = await next;
    latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
    if (diagnostics.length > 0 !== (text === invalid)) throw new Error('the server published the wrong diagnostics');
  }
  await connection.sendRequest(ShutdownRequest.type);
  await connection.sendNotification(ExitNotification.type);
  connection.dispose();
  rmSync(dir, { recursive: true, force: true });

  const checks = [];
  for (let i = 0; i < rounds; i++) {
    const start = process.hrtime.bigint();
    checkContract(i % 2 === 0 ? invalid : valid, 'bench.at_limit.contract.json');
    checks.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  return { rounds, debounceMs: recheckDelayMs, medianMs: median(latencies), fastestMs: Math.min(...latencies), checkMedianMs: median(checks) };
}

export function describeLanguageServer(result) {
  return `jtc lsp, didChange → publishDiagnostics on a contract at the 32 KiB limit: median ${result.medianMs.toFixed(1)} ms, fastest ${result.fastestMs.toFixed(1)} ms over ${result.rounds} edits (the ${result.debounceMs} ms debounce included; the check itself ${result.checkMedianMs.toFixed(1)} ms)`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(describeLanguageServer(await measureLanguageServer()));
