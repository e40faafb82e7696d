// Where the workspace's own compiler is: the extension runs the `jtc lsp` the project installed, so
// the editor checks with the same version, profiles and configuration as the project's CI.
const { existsSync } = require('node:fs');
const { isAbsolute, join } = require('node:path');

const installedBin = ['node_modules', 'json-tool-contracts', 'bin', 'jtc.js'];

/** The configured `bin/jtc.js` (relative to the first folder), else the first folder's installed one; undefined when none exists. */
function compilerBin(folders, configured) {
  if (configured) {
    const path = isAbsolute(configured) || folders.length === 0 ? configured : join(folders[0], configured);
    return existsSync(path) ? path : undefined;
  }
  return folders.map((folder) => join(folder, ...installedBin)).find((path) => existsSync(path));
}

module.exports = { compilerBin };
