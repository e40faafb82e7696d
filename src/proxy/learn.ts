import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OutputSample } from '@json-tool-contracts/runtime/mcp/proxy';

/**
 * `jtc proxy --learn <dir>`: the outputs of tools whose contract accepts any output, recorded for
 * `jtc infer`. Bounded: at most `maxSamples` per tool (those already in the folder count, so a
 * restart adds none past it), each at most `maxSampleBytes` of JSON (a larger one is not written),
 * and the arguments of a call only when asked (`withArguments`): by default nothing the caller
 * sent is written. One JSON line per sample, in `<dir>/<tool>.samples.jsonl` (the name
 * percent-encoded where it holds characters a file name cannot).
 */
export interface LearnOptions {
  readonly dir: string;
  readonly maxSamples: number;
  readonly maxSampleBytes: number;
  readonly withArguments: boolean;
}

/** One line of a samples file: the JSON the result carried, or the kinds of content it carried instead. */
export interface RecordedSample {
  readonly output?: unknown;
  readonly content?: readonly string[];
  readonly arguments?: Record<string, unknown>;
}

export const samplesSuffix = '.samples.jsonl';

export function sampleFile(dir: string, tool: string): string {
  return join(dir, `${tool.replace(/[^A-Za-z0-9._-]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)}${samplesSuffix}`);
}

export function outputLearner(options: LearnOptions): { readonly onSample: (sample: OutputSample) => void; readonly skipped: () => number } {
  mkdirSync(options.dir, { recursive: true });
  const counts = new Map<string, number>();
  let skipped = 0;
  const countOf = (file: string): number => {
    let count = counts.get(file);
    if (count === undefined) {
      count = existsSync(file)
        ? readFileSync(file, 'utf8')
            .split('\n')
            .filter((line) => line !== '').length
        : 0;
      counts.set(file, count);
    }
    return count;
  };
  return {
    skipped: () => skipped,
    onSample: (sample) => {
      const file = sampleFile(options.dir, sample.tool);
      const count = countOf(file);
      if (count >= options.maxSamples) return;
      const recorded: RecordedSample = {
        ...(sample.output === undefined ? { content: sample.content.map((block) => block.type) } : { output: sample.output }),
        ...(options.withArguments ? { arguments: sample.arguments } : {}),
      };
      const line = `${JSON.stringify(recorded)}\n`;
      if (Buffer.byteLength(line) > options.maxSampleBytes) {
        skipped++;
        return;
      }
      appendFileSync(file, line);
      counts.set(file, count + 1);
    },
  };
}
