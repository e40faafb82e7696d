// The heap a benchmark holds, for bench/store.js and bench/tasks.js: garbage collection is exposed
// to this process (no `node --expose-gc` needed) and run before each reading.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');

/** Heap after a full collection, in bytes. */
export async function settledHeap() {
  gc();
  await new Promise((resolve) => setTimeout(resolve, 50));
  gc();
  return process.memoryUsage().heapUsed;
}
