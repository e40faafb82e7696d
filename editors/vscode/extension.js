// A thin client: it starts `jtc lsp --stdio` from the workspace's installed json-tool-contracts and
// leaves everything else (diagnostics, hovers, completions, quick fixes, file watching) to it.
const { window, workspace } = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');
const { compilerBin } = require('./server-path.js');

let client;

async function activate() {
  const folders = (workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath);
  const bin = compilerBin(folders, workspace.getConfiguration('jsonToolContracts').get('compilerPath'));
  if (bin === undefined) {
    window.showWarningMessage('JSON tool contracts: json-tool-contracts is not installed in this workspace. Run: npm install --save-dev json-tool-contracts vscode-languageserver@10 vscode-languageserver-textdocument');
    return;
  }
  // The module transport runs the bin with the editor's own Node.js and adds --stdio.
  const server = { module: bin, args: ['lsp'], transport: TransportKind.stdio };
  // jtc.config.json too: the server checks it as it is typed and applies it when it is saved.
  const documentSelector = [
    { scheme: 'file', pattern: '**/*.contract.json' },
    { scheme: 'file', pattern: '**/jtc.config.json' },
  ];
  client = new LanguageClient('jsonToolContracts', 'JSON tool contracts', { run: server, debug: server }, { documentSelector });
  await client.start();
}

function deactivate() {
  return client?.stop();
}

module.exports = { activate, deactivate };
