import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  CodeActionRequest,
  CompletionRequest,
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidChangeWatchedFilesNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DidSaveTextDocumentNotification,
  ExitNotification,
  FileChangeType,
  HoverRequest,
  InitializedNotification,
  InitializeRequest,
  LogMessageNotification,
  PublishDiagnosticsNotification,
  RegistrationRequest,
  ShutdownRequest,
  type CodeAction,
  type CompletionItem,
  type Diagnostic,
  type Position,
  type ProtocolConnection,
  type TextEdit,
} from 'vscode-languageserver-protocol/node';

/** How the server is started: the built command, until `jtc lsp` is registered with the CLI. */
export const serverCommand = ['--input-type=module', '-e', `import { runLsp } from ${JSON.stringify(pathToFileURL(resolve('dist/cli/lsp.js')).href)}; process.exitCode = await runLsp(['--stdio']);`];

/** A workspace in a temporary folder, with copies of the given fixture folders or files under `contracts/`. */
export function scratchWorkspace(...fixtures: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'jtc-lsp-'));
  for (const fixture of fixtures) cpSync(fixture, join(dir, 'contracts', fixture.split('/').pop()!), { recursive: true });
  return dir;
}

export const uriOf = (path: string): string => pathToFileURL(path).href;

/**
 * The server as a child process, driven by the official protocol client over its stdio: requests
 * and notifications, and every publishDiagnostics kept as it arrives, to wait on by event.
 */
export class LanguageClient {
  readonly diagnostics = new Map<string, Diagnostic[]>();
  /** Every window/logMessage the server sent, in order. */
  readonly logMessages: string[] = [];
  private readonly listeners = new Set<() => void>();
  private readonly versions = new Map<string, number>();
  private readonly texts = new Map<string, string>();

  private constructor(
    private readonly child: ChildProcess,
    readonly connection: ProtocolConnection,
    readonly stderr: () => string,
  ) {
    connection.onNotification(PublishDiagnosticsNotification.type, ({ uri, diagnostics }) => {
      this.diagnostics.set(uri, diagnostics);
      for (const listener of this.listeners) listener();
    });
    connection.onRequest(RegistrationRequest.type, () => undefined);
    connection.onNotification(LogMessageNotification.type, ({ message }) => {
      this.logMessages.push(message);
    });
  }

  /** Starts the server on a workspace folder (and any other folder URIs, as given) and waits for its answer to initialize. */
  static async start(folder: string, otherFolderUris: readonly string[] = []): Promise<LanguageClient> {
    const child = spawn(process.execPath, serverCommand, { cwd: folder, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const connection = createProtocolConnection(child.stdout!, child.stdin!);
    const client = new LanguageClient(child, connection, () => stderr);
    connection.listen();
    await connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: uriOf(folder),
      workspaceFolders: [uriOf(folder), ...otherFolderUris].map((uri, index) => ({ uri, name: `workspace ${index}` })),
      capabilities: { workspace: { didChangeWatchedFiles: { dynamicRegistration: true } }, textDocument: { publishDiagnostics: { codeDescriptionSupport: true } } },
    });
    await connection.sendNotification(InitializedNotification.type, {});
    return client;
  }

  /** Waits (by event, never by the clock) until the diagnostics published for a file satisfy `until`. */
  waitFor(path: string, until: (diagnostics: Diagnostic[]) => boolean): Promise<Diagnostic[]> {
    const uri = uriOf(path);
    return new Promise((resolvePromise) => {
      const check = (): void => {
        const current = this.diagnostics.get(uri);
        if (current !== undefined && until(current)) {
          this.listeners.delete(check);
          resolvePromise(current);
        }
      };
      this.listeners.add(check);
      check();
    });
  }

  /** Waits for the diagnostics of a file to hold exactly these codes, in order. */
  waitForCodes(path: string, codes: readonly string[]): Promise<Diagnostic[]> {
    return this.waitFor(path, (diagnostics) => JSON.stringify(diagnostics.map((d) => d.code)) === JSON.stringify(codes));
  }

  async open(path: string, text = readFileSync(path, 'utf8')): Promise<void> {
    this.versions.set(path, 1);
    this.texts.set(path, text);
    await this.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: uriOf(path), languageId: 'json', version: 1, text } });
  }

  /** Replaces the open document's whole text, as one change. */
  async change(path: string, text: string): Promise<void> {
    const version = (this.versions.get(path) ?? 1) + 1;
    this.versions.set(path, version);
    this.texts.set(path, text);
    await this.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri: uriOf(path), version }, contentChanges: [{ text }] });
  }

  /** Applies edits the server proposed to the open document, as the editor would, and sends the change. */
  async applyEdits(path: string, edits: readonly TextEdit[]): Promise<string> {
    const text = this.texts.get(path)!;
    const lineStarts = [0, ...[...text.matchAll(/\n/g)].map((match) => match.index + 1)];
    const offset = (position: Position): number => lineStarts[position.line]! + position.character;
    const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
    const edited = sorted.reduce((result, edit) => result.slice(0, offset(edit.range.start)) + edit.newText + result.slice(offset(edit.range.end)), text);
    await this.change(path, edited);
    return edited;
  }

  /** Tells the server that the open document was saved (the test writes the file itself). */
  async save(path: string): Promise<void> {
    await this.connection.sendNotification(DidSaveTextDocumentNotification.type, { textDocument: { uri: uriOf(path) } });
  }

  /**
   * Waits until the server has handled everything sent before: it answers requests in order, so
   * once it answers one, whatever it published while handling the earlier messages has arrived.
   * (Not for a debounced re-check after a change, which comes later.)
   */
  async settled(): Promise<void> {
    await this.connection.sendRequest(HoverRequest.type, { textDocument: { uri: 'file:///settled' }, position: { line: 0, character: 0 } });
  }

  async close(path: string): Promise<void> {
    this.versions.delete(path);
    await this.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri: uriOf(path) } });
  }

  /** Tells the server that files changed on disk, as the editor's file watcher does. */
  async filesChanged(changes: readonly { readonly path: string; readonly type: 'created' | 'changed' | 'deleted' }[]): Promise<void> {
    const types: Record<'created' | 'changed' | 'deleted', FileChangeType> = { created: FileChangeType.Created, changed: FileChangeType.Changed, deleted: FileChangeType.Deleted };
    await this.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes: changes.map((change) => ({ uri: uriOf(change.path), type: types[change.type] })) });
  }

  hover(path: string, position: Position) {
    return this.connection.sendRequest(HoverRequest.type, { textDocument: { uri: uriOf(path) }, position });
  }

  async completions(path: string, position: Position): Promise<CompletionItem[]> {
    const result = await this.connection.sendRequest(CompletionRequest.type, { textDocument: { uri: uriOf(path) }, position });
    return Array.isArray(result) ? result : (result?.items ?? []);
  }

  async codeActions(path: string, diagnostics: Diagnostic[]): Promise<CodeAction[]> {
    const result = await this.connection.sendRequest(CodeActionRequest.type, { textDocument: { uri: uriOf(path) }, range: diagnostics[0]!.range, context: { diagnostics } });
    return (result ?? []).filter((action): action is CodeAction => 'title' in action && 'edit' in action);
  }

  /** Ends the session as an editor does, and waits for the process to exit; returns its exit code. */
  async stop(): Promise<number | null> {
    const exited = new Promise<number | null>((resolveExit) => this.child.once('exit', (code) => resolveExit(code)));
    await this.connection.sendRequest(ShutdownRequest.type);
    await this.connection.sendNotification(ExitNotification.type);
    const code = await exited;
    this.connection.dispose();
    return code;
  }
}
