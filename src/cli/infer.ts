import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { checkContracts } from '../contract/check-contracts.js';
import { discoverContracts, readContractSources } from '../contract/discover.js';
import { escapeForTerminal } from '../diagnostics/diagnostic.js';
import { UsageError, withIoErrors } from '../diagnostics/usage-error.js';
import { renderJson } from '../import/render.js';
import { writeContracts } from '../import/write-contracts.js';
import { inferSchema } from '../infer/infer-schema.js';
import { samplesSuffix, type RecordedSample } from '../proxy/learn.js';
import { findMember, type JsonObjectNode } from '../source/json-node.js';
import { parseSourceText } from '../source/parse.js';
import type { CliCommand } from './command.js';

export interface InferCommandOptions {
  /** The folder `jtc proxy --learn` recorded into. */
  readonly samples: string;
  /** The contracts the samples were recorded under (their inputs are kept). */
  readonly contracts: string;
  /** Where the proposed contracts go: never the contracts folder itself. */
  readonly out: string;
}

/** What became of one tool's samples. */
interface Inferred {
  readonly tool: string;
  readonly samples: number;
  readonly file?: string;
  readonly why?: string;
}

/**
 * `jtc infer`: for every tool with recorded samples, its contract with the tightest output of the
 * subset that accepts every recorded output (src/infer/infer-schema.ts), the output's description
 * saying it was inferred, written to another folder for a person to review and copy in: a
 * proposal is never enforced without that.
 */
export function runInfer(options: InferCommandOptions, write: (text: string) => void): number {
  if (!withIoErrors(options.samples, () => statSync(options.samples)).isDirectory()) throw new UsageError(`infer: ${options.samples} is not a folder; name the folder of jtc proxy --learn`);
  if (resolve(options.out) === resolve(options.contracts)) throw new UsageError(`infer: -o ${options.out} is the contracts folder; write the proposals elsewhere and review them before they replace a contract`);
  const checked = checkContracts(readContractSources(discoverContracts([options.contracts])).map((source) => ({ file: source.file, text: source.bytes })));
  if (checked.contracts.length === 0) throw new UsageError(`infer: no contract without errors in ${options.contracts}; name the folder the samples were recorded with (jtc proxy <dir>)`);
  const byName = new Map(checked.contracts.map((contract) => [contract.name, contract.file]));
  const results: Inferred[] = [];
  const files: { path: string; text: string }[] = [];
  for (const entry of readdirSync(options.samples)
    .filter((name) => name.endsWith(samplesSuffix))
    .sort()) {
    const tool = decodeURIComponent(entry.slice(0, -samplesSuffix.length));
    const samples = readSamples(join(options.samples, entry));
    const outputs = samples.flatMap((sample) => (sample.output === undefined ? [] : [sample.output]));
    const file = byName.get(tool);
    if (file === undefined) {
      results.push({ tool, samples: samples.length, why: `no contract in ${options.contracts} is for it` });
    } else if (outputs.length === 0) {
      results.push({ tool, samples: samples.length, why: 'it answered with content only (no JSON output): there is no output contract to propose' });
    } else {
      const path = basename(file);
      files.push({ path, text: proposal(readFileSync(file, 'utf8'), outputs) });
      results.push({ tool, samples: outputs.length, file: path });
    }
  }
  writeContracts(options.out, files);
  const lines = results.map((result) => escapeForTerminal(result.file === undefined ? `${JSON.stringify(result.tool)}: not inferred, ${result.why}` : `${JSON.stringify(result.tool)}: inferred from ${result.samples} output${result.samples === 1 ? '' : 's'} as ${join(options.out, result.file)}`));
  lines.push(`${results.length} tool${results.length === 1 ? '' : 's'} with samples: ${files.length} inferred; review each before it replaces its contract`);
  write(`${lines.join('\n')}\n`);
  return 0;
}

function readSamples(path: string): RecordedSample[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, index) => {
      try {
        return JSON.parse(line) as RecordedSample;
      } catch {
        throw new UsageError(`${path}:${index + 1}: not a recorded sample (a JSON line)`);
      }
    });
}

/** The contract's text with its output replaced by the inferred schema, its input and everything else as they were. */
function proposal(text: string, outputs: readonly unknown[]): string {
  const root = parseSourceText(text).root as JsonObjectNode;
  const schema = { description: `Inferred by jtc infer from ${outputs.length} recorded output${outputs.length === 1 ? '' : 's'}: review it before it is enforced.`, ...inferSchema(outputs) };
  const output = findMember(root, 'output')!;
  const inferred = parseSourceText(JSON.stringify(schema)).root!;
  return `${renderJson({ ...root, members: root.members.map((member) => (member === output ? { ...member, value: inferred } : member)) })}\n`;
}

/** `jtc infer <samples> --contracts <dir> -o <out>`. */
export const inferCommand: CliCommand = (program, context) => {
  program
    .command('infer')
    .summary('propose output contracts from the outputs jtc proxy --learn recorded')
    .description(
      'For every tool whose outputs jtc proxy --learn recorded, write its contract with the tightest output of the subset that accepts every recorded output (types, required, closed objects where every sample agrees, enums for small sets of strings, array bounds no tighter than seen), the output marked as inferred, to another folder: review each before it replaces its contract. Exit codes: 0 done, 2 usage or I/O errors.',
    )
    .argument('<samples>', 'the folder of jtc proxy --learn')
    .requiredOption('--contracts <dir>', 'the contracts the gateway served when it recorded (their inputs are kept)')
    .requiredOption('-o, --out <dir>', 'the folder to write the proposed contracts to (not the contracts folder)')
    .action((samples: string, flags: { contracts: string; out: string }) => {
      context.exitCode = runInfer({ samples, contracts: flags.contracts, out: flags.out }, context.write);
    });
};
