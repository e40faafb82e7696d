export * from './runtime/index.js';
