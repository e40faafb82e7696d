import { describe, expect, it } from 'vitest';
import { mathAdd } from '../../../../examples/generated/index.js';
import { CapabilityRuntime, ToolPolicy } from '../../src/index.js';

/**
 * The type-level half of this file is checked by `npm run typecheck` (part of `npm test`): each
 * `@ts-expect-error` fails the build if TypeScript stops rejecting the handler below it.
 */
describe('typed registration', () => {
  it('gives the handler the contract types and rejects handlers that do not match', () => {
    const runtime = new CapabilityRuntime();
    runtime.registerTypedJsonTool(ToolPolicy.json('math.add'), mathAdd, (input) => {
      const left: number = input.left;
      // @ts-expect-error: the contract has no "middle"
      void input.middle;
      return { total: left + input.right };
    });

    expect(runtime.call('math.add', { left: 40, right: 2 })).toMatchObject({ ok: true, output: { total: 42 } });
  });
});

/** Never run: only compiled, so that each handler below must stay a type error. */
export function handlersTypeScriptRejects(other: CapabilityRuntime): void {
  // @ts-expect-error: "total" must be a number
  other.registerTypedJsonTool(ToolPolicy.json('math.add'), mathAdd, () => ({ total: 'five' }));
  // @ts-expect-error: the output lacks "total"
  other.registerTypedJsonTool(ToolPolicy.json('math.add'), mathAdd, () => ({}));
  // @ts-expect-error: the input is not a string
  other.registerTypedJsonTool(ToolPolicy.json('math.add'), mathAdd, (input: string) => ({ total: input.length }));
  // @ts-expect-error: there is no typed registration without a contract
  other.registerTypedJsonTool(ToolPolicy.json('math.add'), (input: { left: number }) => ({ total: input.left }));
}
