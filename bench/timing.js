// How bench/run.js and bench/handwritten.js time a validator: batches of about `batchNs`, loops
// built fresh per case, cases visited in a new pseudo-random order each round. Method: bench/README.md.

/** How many runs of `fn(samples)` (one pass over every sample) make a batch of about batchNs. */
export function calibrate(fn, samples, batchNs) {
  let iterations = 1;
  for (;;) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) fn(samples);
    const elapsed = Number(process.hrtime.bigint() - start);
    if (elapsed > batchNs / 4) return Math.max(1, Math.round((iterations * batchNs) / elapsed));
    iterations *= 4;
  }
}

/** ns per validation of one batch. */
export function timeBatch(fn, samples, iterations) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) fn(samples);
  return Number(process.hrtime.bigint() - start) / (iterations * samples.length);
}

export const geomean = (values) => Math.exp(values.reduce((sum, v) => sum + Math.log(v), 0) / values.length);

/**
 * A loop over samples judged by `input` (where `sideOf[i]` is 0) or `output`, counting the ones
 * accepted, so no work can be optimised away. A fresh function per case keeps every call site
 * monomorphic (closures of one literal share their type feedback).
 */
export const sampleLoop = (input, output, sideOf) => new Function('input', 'output', 'sideOf', 'return function run(values) { let accepted = 0; for (let i = 0; i < values.length; i++) if ((sideOf[i] === 0 ? input : output)(values[i])) accepted++; return accepted; };')(input, output, sideOf);

/** A seeded pseudo-random number in [0, 1): the same orders in every run. */
export function seededRandom(seed) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}
