/**
 * A worked example: tools built from fixtures/valid with
 *   npx jtc build fixtures/valid -o examples/generated
 * registered with their contracts and called synchronously, deferred and from outside.
 * In your project the import is the same: '@json-tool-contracts/runtime' is the runtime.
 */
import { CapabilityRuntime, ToolError, ToolMetadata, type CallRecord } from '@json-tool-contracts/runtime';
import { mathAdd, notesSearch, type NotesSearchOutput } from './generated/index.js';

export function createRuntime(onRecord?: (record: CallRecord) => void): CapabilityRuntime {
  const runtime = new CapabilityRuntime(onRecord === undefined ? {} : { onRecord });

  // One entry per contract of the set, under its export name; TypeScript checks each handler's input
  // and output against its contract, and a missing or extra entry, by name.
  runtime.registerAll(
    { mathAdd, notesSearch },
    {
      mathAdd: {
        handler: ({ left, right }) => {
          if (!Number.isSafeInteger(left + right)) throw ToolError.denied('the sum is beyond 2^53; use smaller numbers');
          return { total: left + right };
        },
        budget: 3,
      },
      // Served outside the process (a worker, another service, a person): completed with complete().
      notesSearch: { protocol: true, metadata: ToolMetadata.of('Searches notes.') },
    },
  );
  return runtime;
}

/** What a host loop does; returns what it saw so the test suite can check it. */
export async function runExample(): Promise<{ sum: unknown; denied: string; searchHits: NotesSearchOutput['hits'] }> {
  const runtime = createRuntime();

  const sum = runtime.call('math.add', { left: 2, right: 3 });
  const bad = runtime.call('math.add', { left: 2, right: '3' });

  const search = runtime.defer('notes.search', { query: 'groceries', limit: 5 });
  // ... the peer does the work, then the host completes the call; the output contract is enforced here.
  runtime.complete(search.callId, { hits: [{ id: 'n1', score: 0.9, snippet: 'eggs, milk' }] });
  const found = await search.result;

  return {
    sum: sum.ok ? sum.output : undefined,
    denied: bad.ok ? '' : `${bad.error.code}: ${bad.error.message}`,
    searchHits: found.ok ? (found.output as NotesSearchOutput).hits : [],
  };
}
