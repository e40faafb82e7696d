// The headline ratios as a picture: `npm run bench` writes docs/performance.svg from the run's
// results (bench/results/latest.json, monomorphic.json, startup.json and server.json), so the chart is always the last full run.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { summary } = JSON.parse(readFileSync(join(root, 'bench', 'results', 'latest.json'), 'utf8'));
const startup = JSON.parse(readFileSync(join(root, 'bench', 'results', 'startup.json'), 'utf8'));
const monomorphic = JSON.parse(readFileSync(join(root, 'bench', 'results', 'monomorphic.json'), 'utf8'));
const server = JSON.parse(readFileSync(join(root, 'bench', 'results', 'server.json'), 'utf8'));

/** Panels of horizontal bars, one row per engine, one bar per series; 1× (the anchor) marked. */
const panels = [
  {
    title: 'Validation time in the corpus setting, ratio to ajv standalone (lower is faster)',
    series: [
      ['valid samples', '#2b6cb0'],
      ['invalid samples', '#c05621'],
    ],
    rows: Object.entries(summary.ratios).map(([engine, r]) => [engine, [r.valid, r.invalid]]),
  },
  {
    title: 'Monomorphic setting (one schema, one object, one engine per process), ratio to ajv standalone',
    series: [
      ['assertStrict (closed)', '#2b6cb0'],
      ['assertLoose (open)', '#c05621'],
    ],
    rows: Object.keys(monomorphic.settings.assertStrict).map((engine) => [engine, [monomorphic.settings.assertStrict[engine].ratio, monomorphic.settings.assertLoose[engine].ratio]]),
  },
  {
    title: 'Cold start (process start to first validated call, time added to node), ratio to ajv compiling at start',
    series: [
      ['20 tools', '#2f855a'],
      ['200 tools', '#6b46c1'],
    ],
    rows: Object.keys(startup.coldStart[20].ratioToAjv).map((engine) => [engine, [startup.coldStart[20].ratioToAjv[engine], startup.coldStart[200].ratioToAjv[engine]]]),
  },
  {
    title: 'MCP servers: requests/s, ratio to SDK v2 + zod 4 (higher is faster; both wires, both tools)',
    series: [
      ['2 tools', '#2b6cb0'],
      ['20 tools', '#2f855a'],
      ['200 tools', '#6b46c1'],
    ],
    rows: Object.entries(server.headline).map(([variant, byCount]) => [server.variants[variant], [byCount[2], byCount[20], byCount[200]]]),
  },
];

const width = 900;
const labelWidth = 230;
const barHeight = 11;
const rowGap = 8;
const plotWidth = width - labelWidth - 80;
const xmlText = (text) => String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const parts = [];
let y = 20;
for (const panel of panels) {
  const max = Math.max(1, ...panel.rows.flatMap(([, values]) => values.filter((v) => Number.isFinite(v))));
  const x = (value) => labelWidth + (Math.min(value, max) / max) * plotWidth;
  parts.push(`<text x="10" y="${y}" font-weight="bold">${xmlText(panel.title)}</text>`);
  y += 10;
  panel.series.forEach(([name, color], i) => {
    parts.push(`<rect x="${labelWidth + i * 150}" y="${y}" width="10" height="10" fill="${color}"/><text x="${labelWidth + i * 150 + 14}" y="${y + 9}">${xmlText(name)}</text>`);
  });
  y += 20;
  const top = y;
  for (const [engine, values] of panel.rows) {
    const ours = engine.startsWith('ours') || engine.startsWith('our ') || engine.includes('serveToolsOnMcpServer');
    parts.push(`<text x="${labelWidth - 8}" y="${y + barHeight + 2}" text-anchor="end"${ours ? ' font-weight="bold"' : ''}>${xmlText(engine)}</text>`);
    values.forEach((value, i) => {
      const [, color] = panel.series[i];
      if (!Number.isFinite(value)) return;
      parts.push(`<rect x="${labelWidth}" y="${y}" width="${(x(value) - labelWidth).toFixed(1)}" height="${barHeight}" fill="${color}"/><text x="${(x(value) + 4).toFixed(1)}" y="${y + barHeight - 1}" font-size="10">${value.toFixed(2)}×</text>`);
      y += barHeight;
    });
    y += rowGap;
  }
  parts.push(`<line x1="${x(1).toFixed(1)}" y1="${top - 4}" x2="${x(1).toFixed(1)}" y2="${y - rowGap + 2}" stroke="#333" stroke-dasharray="3,3"/><text x="${(x(1) + 3).toFixed(1)}" y="${top - 6}" font-size="10">1×</text>`);
  y += 24;
}
const machine = `${summary.date}, ${summary.machine.cpus} × ${summary.machine.model}, Node ${summary.machine.node}; geometric means over the corpus`;
parts.push(`<text x="10" y="${y}" font-size="10" fill="#555">${xmlText(machine)}</text>`);
const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${y + 12}" font-family="sans-serif" font-size="12">\n<rect width="100%" height="100%" fill="#fff"/>\n${parts.join('\n')}\n</svg>\n`;
writeFileSync(join(root, 'docs', 'performance.svg'), svg);
console.log('wrote docs/performance.svg');
