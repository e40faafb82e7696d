import ts from 'typescript';

/** The strictest settings a user might compile generated code with. */
export const strictOptions: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2022.d.ts'],
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  noImplicitReturns: true,
  noPropertyAccessFromIndexSignature: true,
  noImplicitOverride: true,
  noEmit: true,
  types: [],
};

/** Type-checks files on disk; returns the diagnostics as `file(line,col): message` lines. */
export function typecheck(files: readonly string[], options: ts.CompilerOptions = strictOptions): string[] {
  const program = ts.createProgram([...files], options);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? `${d.file.fileName}(${d.file.getLineAndCharacterOfPosition(d.start).line + 1})` : '';
    return `${where}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}
