import { UsageError } from '../diagnostics/usage-error.js';
import { startLanguageServer, type ServerLibraries } from '../lsp/server.js';
import type { CliCommand } from './command.js';

/** The language server's libraries: optional peer dependencies, so only this command needs them. */
const libraryNames = ['vscode-languageserver@10', 'vscode-languageserver-textdocument@1'];

/** `jtc lsp --stdio`: the language server, for an editor. */
export const lspCommand: CliCommand = (program, context) => {
  program
    .command('lsp')
    .summary('run the language server for an editor (docs/editor-support.md)')
    .description(`Run the language server over standard input and output, for an editor: the checker's diagnostics while a contract is typed, hovers, completions and quick fixes (docs/editor-support.md). Needs ${libraryNames.join(' and ')} installed beside json-tool-contracts.`)
    .option('--stdio', 'speak the Language Server Protocol over standard input and output (the one transport)')
    .action(async (flags: { stdio?: true }) => {
      if (flags.stdio !== true) throw new UsageError('lsp: the server speaks over standard input and output: jtc lsp --stdio');
      context.exitCode = await runLsp(['--stdio']);
    });
};

/** Runs `jtc lsp`: resolves when the client ends the session, with the exit code. */
export async function runLsp(args: readonly string[]): Promise<number> {
  const unknown = args.find((arg) => arg !== '--stdio');
  if (unknown !== undefined) throw new UsageError(`lsp: unknown option "${unknown}"; the server speaks over --stdio (jtc lsp --help)`);
  const libraries = await loadLibraries();
  const connection = startLanguageServer(libraries, process.stdin, process.stdout);
  return new Promise((resolve) => connection.onExit(() => resolve(0)));
}

async function loadLibraries(): Promise<ServerLibraries> {
  try {
    const [server, textDocument] = await Promise.all([import('vscode-languageserver/node'), import('vscode-languageserver-textdocument')]);
    return { server, textDocument };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new UsageError(`lsp needs ${libraryNames.join(' and ')}: npm install --save-dev ${libraryNames.join(' ')}`);
  }
}
