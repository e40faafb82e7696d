#!/usr/bin/env node
// Writes templates/module.js.tpl and templates/module.d.ts.tpl from templates/module.ts.tpl, and
// templates/support.js.tpl and templates/support.d.ts.tpl from templates/support.ts.tpl, so
// --emit js needs no compiler: `npm run templates` (a test fails while they are stale). The TS
// templates' {{placeholders}} become identifiers for TypeScript, and back again. Also writes the
// conformance example's OpenTelemetry wiring from what `jtc init --template mcp` writes, so the
// two stay one.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const folder = new URL('../templates/', import.meta.url);
const asTypeScript = (template) => template.replace(/\{\{(\w+)\}\}/g, '__tpl_$1__');
const options = { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, newLine: ts.NewLineKind.LineFeed };
const restore = (text) =>
  text
    .replace(/^(?: {4})+/gm, (indent) => '  '.repeat(indent.length / 4))
    .replace(/^__tpl_(\w+)__;$/gm, '{{$1}}')
    .replace(/__tpl_(\w+)__/g, '{{$1}}')
    .replace(/\n{3,}/g, '\n\n')
    .split('\n')
    .reduce((lines, line) => {
      // A blank line before each top-level declaration, as the TypeScript template has.
      const previous = lines[lines.length - 1];
      const topLevel = /^(\/\*\*|function |const |export |type |interface |\{\{)/.test(line);
      const afterComment = previous !== undefined && /^(\/\*\*| \*)/.test(previous);
      if (topLevel && previous !== undefined && previous !== '' && !afterComment) lines.push('');
      lines.push(line);
      return lines;
    }, [])
    .join('\n');
const javaScriptOf = (template) => restore(ts.transpileModule(asTypeScript(template), { compilerOptions: options }).outputText);
const declarationsOf = (template) =>
  restore(ts.transpileDeclaration(asTypeScript(template), { compilerOptions: { ...options, declaration: true } }).outputText)
    .replace('export {};\n', '')
    .trimEnd();

/**
 * The support template's declarations: its header and number types (statements, which declarations
 * leave out) put back, the helpers' place kept between the two halves, and `maxIssues` declared
 * with its value (an initialiser that is a placeholder has no type of its own).
 */
function supportDeclarations(template) {
  const [head, tail] = template.replace('{{header}}\n\n{{numberTypes}}\n\n', '').split('\n{{helpers}}\n');
  const maxIssues = 'export declare const maxIssues: any;';
  const declaredHead = declarationsOf(head);
  if (!declaredHead.includes(maxIssues)) throw new Error(`support.ts.tpl: expected ${maxIssues} in its declarations`);
  return `{{header}}\n\n{{numberTypes}}\n\n${declaredHead.replace(maxIssues, 'export declare const maxIssues = {{maxIssues}};')}\n\n{{helpers}}\n\n${declarationsOf(tail)}\n`;
}

/** The four templates as they should be; the test compares them with the committed ones. */
export function renderTemplates() {
  const module = readFileSync(new URL('module.ts.tpl', folder), 'utf8');
  const support = readFileSync(new URL('support.ts.tpl', folder), 'utf8');
  return {
    'module.js.tpl': javaScriptOf(module),
    'module.d.ts.tpl': `{{header}}\n\n{{imports}}\n\n{{types}}\n\n{{supportHead}}\n\n${declarationsOf(module)}\n`,
    'support.js.tpl': javaScriptOf(support),
    'support.d.ts.tpl': supportDeclarations(support),
  };
}

const telemetryTemplate = new URL('init/mcp/src/telemetry.ts', folder);
const exampleTelemetry = new URL('../examples/mcp-conformance/telemetry.mjs', folder);

/** examples/mcp-conformance/telemetry.mjs as it should be: the mcp template's telemetry.ts without its types. */
export function renderExampleTelemetry() {
  const javaScript = ts.transpileModule(readFileSync(telemetryTemplate, 'utf8'), { compilerOptions: options }).outputText;
  const indented = javaScript.replace(/^(?: {4})+/gm, (indent) => '  '.repeat(indent.length / 4));
  return `// Written by \`npm run templates\` from templates/init/mcp/src/telemetry.ts (what \`jtc init --template mcp\` writes): edit that file.\n${indented}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [file, text] of Object.entries(renderTemplates())) writeFileSync(new URL(file, folder), text);
  writeFileSync(exampleTelemetry, renderExampleTelemetry());
}
