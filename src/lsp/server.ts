import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { CodeAction, CompletionItem, Connection, Diagnostic as LspDiagnostic, Hover, InitializeParams, InitializeResult } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { findProjectConfig, findProjectConfigsBelow, type ProjectConfig, projectConfigFileName, readProjectConfig, readProjectConfigFile } from '../config/project-config.js';
import { contractSuffix, discoverContracts } from '../contract/discover.js';
import { readRegularFile } from '../diagnostics/read-file.js';
import { LineMap, maxSourceBytes } from '../source/parse.js';
import { quickFix } from './code-actions.js';
import { completionsAt } from './completion.js';
import { configProblemToLsp, diagnosticsLink, isOwnDiagnostic, rangeOf, toLspDiagnostic } from './diagnostics.js';
import { codeHover, hoverAt } from './hover.js';
import { ContractProject, type ContractText, type ProjectSettings, projectSettings } from './project.js';

/** The libraries `jtc lsp` loads when it starts (optional peer dependencies of the package). */
export interface ServerLibraries {
  readonly server: typeof import('vscode-languageserver/node');
  readonly textDocument: typeof import('vscode-languageserver-textdocument');
}

/** Quiet time after the last keystroke before a document is checked again. */
export const recheckDelayMs = 100;

/** A configuration's `contracts` path that does not exist is a problem on it: the editor would otherwise check nothing, silently. */
const readConfigOptions = { contractsMustExist: true };

/**
 * The language server: the checker's own diagnostics for every contract of the workspace (open
 * documents with their unsaved text, the others from disk, kept current through the client's file
 * watching), with the options of the `jtc.config.json` that applies, as `jtc check` finds and reads
 * it; the problems of that file on it; hovers, completions and exact quick fixes. Runs over the
 * given streams until the client says exit.
 *
 * A configuration takes effect as saved, as CI reads it: a change on disk (the client's file
 * watching) or a save in the editor re-reads it and re-checks every contract. The unsaved text of an
 * open `jtc.config.json` is checked as it is typed, for its own diagnostics only.
 */
export function startLanguageServer(libraries: ServerLibraries, input: NodeJS.ReadableStream, output: NodeJS.WritableStream): Connection {
  const lsp = libraries.server;
  const connection = lsp.createConnection(input, output);
  const documents = new lsp.TextDocuments(libraries.textDocument.TextDocument);
  let folders: string[] = [];
  let projects: ContractProject[] = [];
  /** The configurations the projects are made from, as last read from the disk, by file. */
  let configs = new Map<string, ProjectConfig>();
  /** What was last published for each path, so that only changes are sent and hovers can explain codes. */
  const published = new Map<string, LspDiagnostic[]>();
  const pending = new Map<ContractProject, NodeJS.Timeout>();

  /** The `file:` URIs already reported as naming no local path, so that each is reported once. */
  const foreignUris = new Set<string>();
  /**
   * The local path a URI names; undefined for another scheme and for a `file:` URI that names no
   * path here (a host, an encoded slash, a NUL), which the server leaves alone: an editor may send
   * them for a network share, and none may stop the server.
   */
  const pathOf = (uri: string): string | undefined => {
    if (!uri.startsWith('file:')) return undefined;
    let reason: string;
    try {
      const path = fileURLToPath(uri);
      if (!path.includes('\0')) return path;
      reason = 'the path holds a NUL';
    } catch (error) {
      reason = (error as Error).message;
    }
    if (!foreignUris.has(uri)) {
      foreignUris.add(uri);
      connection.console.warn(`jtc: ${uri} names no file on this machine (${reason}); it is not checked`);
    }
    return undefined;
  };
  const openDocument = (path: string): TextDocument | undefined => documents.get(pathToFileURL(path).href) ?? documents.all().find((document) => pathOf(document.uri) === path);
  const uriOf = (path: string): string => openDocument(path)?.uri ?? pathToFileURL(path).href;
  const textOf = (source: ContractText): string => (typeof source === 'string' ? source : new TextDecoder('utf-8', { ignoreBOM: true }).decode(source));

  /**
   * A contract's or configuration's bytes as `jtc check` reads them: a regular file, at most one
   * byte past the size limit (the parser reports a file over it); nothing for anything else (a
   * FIFO, a device, a link to /dev/zero), which would hang the server or fill its memory.
   */
  const readDisk = (path: string): Uint8Array | undefined => {
    try {
      return readRegularFile(path, { limit: maxSourceBytes + 1, role: 'a contract or configuration file', followLinks: true });
    } catch {
      return undefined;
    }
  };

  const isConfigFile = (path: string | undefined): path is string => path !== undefined && basename(path) === projectConfigFileName;

  /** The project of a folder, from the configuration that applies there (read once per reload). */
  const settingsFor = (folder: string): ProjectSettings => {
    const file = findProjectConfig(folder);
    if (file === undefined) return projectSettings(folder, undefined);
    const config = configs.get(file) ?? readProjectConfigFile(file, readConfigOptions);
    configs.set(file, config);
    return projectSettings(folder, config);
  };

  /**
   * The project that holds a contract: the innermost one that lists it. A workspace folder without a
   * configuration holds only the contracts no configuration applies to (in a monorepo opened at its
   * root, a package's contract that the package's configuration leaves out is not the root's).
   */
  const holderOf = (path: string): ContractProject | undefined => {
    const listing = projects.filter((project) => project.owns(path));
    const isUnconfigured = (project: ContractProject): boolean => project.settings.configFile === undefined;
    const holders = listing.some(isUnconfigured) && findProjectConfig(dirname(path)) !== undefined ? listing.filter((project) => !isUnconfigured(project)) : listing;
    return holders.sort((a, b) => b.settings.root.length - a.settings.root.length)[0];
  };

  /** The project of an open contract: its holder, else one of its own with the configuration that applies to its folder. */
  const projectOf = (path: string): ContractProject => {
    const holder = holderOf(path);
    if (holder !== undefined) return holder;
    const lone = new ContractProject({ ...settingsFor(dirname(path)), contracts: [path] });
    projects.push(lone);
    publishConfigProblems();
    return lone;
  };

  /** Sends a file's diagnostics if they changed. A clean file on disk is not announced; an open document always hears that it was checked. */
  const send = (path: string, diagnostics: LspDiagnostic[]): void => {
    const before = published.get(path);
    published.set(path, diagnostics);
    const unchanged = before === undefined ? diagnostics.length === 0 && openDocument(path) === undefined : JSON.stringify(before) === JSON.stringify(diagnostics);
    if (!unchanged) void connection.sendDiagnostics({ uri: uriOf(path), diagnostics });
  };

  const publish = (project: ContractProject): void => {
    for (const [path, list] of project.diagnostics()) {
      const text = openDocument(path)?.getText() ?? textOf(readDisk(path) ?? '');
      const lines = new LineMap(text);
      send(
        path,
        list.map((diagnostic) => toLspDiagnostic(diagnostic, text, lines, project.settings.strict)),
      );
    }
  };

  /** The configuration files that get diagnostics: the ones the projects use, and every open one. */
  const configFiles = (): Set<string> => {
    const open = documents.all().flatMap((document) => pathOf(document.uri) ?? []);
    return new Set([...configs.keys(), ...open.filter(isConfigFile)]);
  };

  /** Each configuration's problems: an open document's as typed, another's as read from the disk. */
  const publishConfigProblems = (): void => {
    for (const path of configFiles()) {
      const document = openDocument(path);
      const text = document?.getText() ?? textOf(readDisk(path) ?? '');
      const { problems } = document === undefined ? configs.get(path)! : readProjectConfig(path, text, readConfigOptions);
      const lines = new LineMap(text);
      send(
        path,
        problems.map((problem) => configProblemToLsp(problem, text, lines)),
      );
    }
  };

  /** Clears what was published for a file no project and no configuration has any more. */
  const clearGone = (): void => {
    const configured = configFiles();
    for (const [path, list] of published) {
      if (configured.has(path) || projects.some((project) => project.paths().includes(path))) continue;
      published.delete(path);
      if (list.length > 0) void connection.sendDiagnostics({ uri: uriOf(path), diagnostics: [] });
    }
  };

  const recheckSoon = (project: ContractProject): void => {
    clearTimeout(pending.get(project));
    pending.set(
      project,
      setTimeout(() => {
        pending.delete(project);
        publish(project);
        clearGone();
      }, recheckDelayMs),
    );
  };

  /**
   * Every project again from the configurations and the contracts on disk, as after a change of
   * configuration: each workspace folder's, and each configuration's inside a folder (a monorepo's
   * packages), once each.
   */
  const loadProjects = (): void => {
    for (const timer of pending.values()) clearTimeout(timer);
    pending.clear();
    configs = new Map();
    const roots = folders.flatMap((folder) => [folder, ...findProjectConfigsBelow(folder).map(dirname)]);
    const settings = new Map(roots.map((root) => settingsFor(root)).map((project) => [JSON.stringify([project.root, project.contracts]), project]));
    projects = [...settings.values()].map((project) => new ContractProject(project));
    // A contract several projects hold (a package's inside the workspace folder's) is the innermost one's only.
    const discovered = projects.flatMap((project) => discoverQuietly(project, (message) => connection.console.warn(message)));
    for (const path of new Set(discovered)) {
      const source = openDocument(path)?.getText() ?? readDisk(path);
      if (source !== undefined) holderOf(path)?.set(path, source);
    }
    for (const document of documents.all()) {
      const path = pathOf(document.uri);
      if (path?.endsWith(contractSuffix)) projectOf(path).set(path, document.getText());
    }
    for (const project of projects) publish(project);
    publishConfigProblems();
    clearGone();
  };

  let watchesFiles = false;
  connection.onInitialize((params: InitializeParams): InitializeResult => {
    const uris = params.workspaceFolders?.map((folder) => folder.uri) ?? (params.rootUri ? [params.rootUri] : []);
    folders = uris.flatMap((uri) => pathOf(uri) ?? []);
    watchesFiles = params.capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
    return {
      capabilities: {
        // Saves are heard for jtc.config.json: its saved text is the one that takes effect.
        textDocumentSync: { openClose: true, change: lsp.TextDocumentSyncKind.Incremental, save: { includeText: false } },
        hoverProvider: true,
        completionProvider: { triggerCharacters: ['"'] },
        codeActionProvider: { codeActionKinds: [lsp.CodeActionKind.QuickFix] },
      },
      serverInfo: { name: 'jtc' },
    };
  });

  connection.onInitialized(() => {
    if (watchesFiles) {
      void connection.client.register(lsp.DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: `**/*${contractSuffix}` }, { globPattern: `**/${projectConfigFileName}` }] });
    }
    loadProjects();
  });

  documents.onDidOpen(({ document }) => {
    const path = pathOf(document.uri);
    if (isConfigFile(path)) publishConfigProblems();
    if (!path?.endsWith(contractSuffix)) return;
    const project = projectOf(path);
    project.set(path, document.getText());
    published.delete(path);
    publish(project);
  });

  documents.onDidChangeContent(({ document }) => {
    const path = pathOf(document.uri);
    if (isConfigFile(path)) publishConfigProblems();
    if (!path?.endsWith(contractSuffix)) return;
    const project = projectOf(path);
    project.set(path, document.getText());
    recheckSoon(project);
  });

  documents.onDidSave(({ document }) => {
    if (isConfigFile(pathOf(document.uri))) loadProjects();
  });

  documents.onDidClose(({ document }) => {
    const path = pathOf(document.uri);
    if (isConfigFile(path)) {
      publishConfigProblems();
      clearGone();
    }
    if (!path?.endsWith(contractSuffix)) return;
    const project = projectOf(path);
    const onDisk = readDisk(path);
    if (onDisk === undefined || (project.settings.contracts.length === 1 && project.settings.contracts[0] === path)) {
      project.delete(path);
      projects = projects.filter((other) => other !== project || other.paths().length > 0);
    } else project.set(path, onDisk);
    recheckSoon(project);
  });

  connection.onDidChangeWatchedFiles(({ changes }) => {
    if (changes.some((change) => isConfigFile(pathOf(change.uri)))) {
      loadProjects();
      return;
    }
    for (const change of changes) {
      const path = pathOf(change.uri);
      if (path === undefined || openDocument(path) !== undefined) continue;
      const project = holderOf(path);
      if (project === undefined) continue;
      const onDisk = change.type === lsp.FileChangeType.Deleted ? undefined : readDisk(path);
      if (onDisk === undefined) project.delete(path);
      else project.set(path, onDisk);
      recheckSoon(project);
    }
  });

  connection.onHover(({ textDocument, position }): Hover | null => {
    const document = documents.get(textDocument.uri);
    const path = pathOf(textDocument.uri);
    if (document === undefined || !path?.endsWith(contractSuffix)) return null;
    const offset = document.offsetAt(position);
    const text = document.getText();
    const parts: string[] = [];
    const meaning = hoverAt(text, offset, projectOf(path).settings.emit);
    if (meaning !== undefined) parts.push(meaning.markdown);
    for (const diagnostic of published.get(path) ?? []) {
      if (!isOwnDiagnostic(diagnostic) || document.offsetAt(diagnostic.range.start) > offset || document.offsetAt(diagnostic.range.end) < offset) continue;
      parts.push(codeHover(diagnostic.code, diagnostic.data.hint, diagnosticsLink));
    }
    if (parts.length === 0) return null;
    const hover: Hover = { contents: { kind: 'markdown', value: parts.join('\n\n---\n\n') } };
    return meaning === undefined ? hover : { ...hover, range: rangeOf(new LineMap(text), meaning.start, meaning.end) };
  });

  connection.onCompletion(({ textDocument, position }): CompletionItem[] => {
    const document = documents.get(textDocument.uri);
    if (document === undefined || !pathOf(textDocument.uri)?.endsWith(contractSuffix)) return [];
    const kinds = { keyword: lsp.CompletionItemKind.Property, field: lsp.CompletionItemKind.Field, value: lsp.CompletionItemKind.Value };
    return completionsAt(document.getText(), document.offsetAt(position)).map((completion) => ({
      label: completion.label,
      kind: kinds[completion.kind],
      detail: completion.detail,
      documentation: { kind: 'markdown', value: completion.documentation },
      filterText: completion.filter,
      textEdit: { range: { start: document.positionAt(completion.start), end: document.positionAt(completion.end) }, newText: completion.text },
    }));
  });

  connection.onCodeAction(({ textDocument, context }): CodeAction[] => {
    const document = documents.get(textDocument.uri);
    const path = pathOf(textDocument.uri);
    if (document === undefined || path === undefined) return [];
    const text = document.getText();
    return context.diagnostics.flatMap((diagnostic) => {
      if (!isOwnDiagnostic(diagnostic)) return [];
      const fix = quickFix(text, { code: diagnostic.code, pointer: diagnostic.data.pointer, offset: document.offsetAt(diagnostic.range.start) }, () => projectOf(path).otherToolNames(path));
      if (fix === undefined) return [];
      const edits = fix.edits.map((edit) => ({ range: { start: document.positionAt(edit.start), end: document.positionAt(edit.end) }, newText: edit.text }));
      return [{ title: fix.title, kind: lsp.CodeActionKind.QuickFix, diagnostics: [diagnostic], isPreferred: true, edit: { changes: { [textDocument.uri]: edits } } }];
    });
  });

  documents.listen(connection);
  connection.listen();
  return connection;
}

/** The project's contract files on disk; a folder that cannot be read is reported, not fatal. */
function discoverQuietly(project: ContractProject, warn: (message: string) => void): string[] {
  const root = project.settings.root;
  try {
    return discoverContracts(project.settings.contracts, root).map((path) => resolve(root, path));
  } catch (error) {
    warn(`jtc: ${(error as Error).message}`);
    return [];
  }
}
