// Packages the extension: installs its own dependencies here (not in the repository's lockfile),
// then writes json-tool-contracts-<version>.vsix with vsce.
const { execFileSync } = require('node:child_process');

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
execFileSync(npm, ['install', '--no-audit', '--no-fund'], { cwd: __dirname, stdio: 'inherit' });
execFileSync(npm, ['exec', '--', 'vsce', 'package', '--allow-missing-repository', '--skip-license'], { cwd: __dirname, stdio: 'inherit' });
