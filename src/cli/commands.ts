/**
 * Every command of `jtc`, one line each: a command declares itself (name, arguments, options, help,
 * action) in its own file, and this list is all `main` knows of it. `jtc --help` lists them by name.
 */
export { buildCommand } from './build.js';
export { checkCommand } from './check.js';
export { diffCommand } from './diff.js';
export { importCommand } from './import.js';
export { inferCommand } from './infer.js';
export { initCommand } from './init.js';
export { lspCommand } from './lsp.js';
export { proxyCommand } from './proxy.js';
