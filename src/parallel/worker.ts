import { parentPort, workerData } from 'node:worker_threads';
import { compileSource } from '../compiler.js';
import type { WorkerInput } from './compile-in-parallel.js';

const { sources, options } = workerData as WorkerInput;
parentPort!.postMessage(sources.map((source) => compileSource(source, options)));
