import type { DiagnosticInput } from '../diagnostics/diagnostic.js';
import type { SchemaNode } from '../ir/schema-node.js';
import { evaluate } from './evaluate.js';
import type { WarnScope } from './keyword.js';
import { keywordFamilies } from './keywords/index.js';
import type { NumericReading } from './numeric-reading.js';

/**
 * Schemas that are legal but almost certainly not what the author meant: bounds no value can meet,
 * enum values or defaults the schema itself rejects. Each family says what it warns about; reported
 * as warnings (errors with --strict).
 */
export function findSchemaWarnings(root: SchemaNode, numeric: NumericReading, report: (d: DiagnosticInput) => void): void {
  const scope: WarnScope = {
    numeric,
    warn: (code, at, message, hint) => report({ code, position: at.position, pointer: at.pointer, message, hint }),
    accepts: (schema, value, ignoreEnum = false) => evaluate(schema, value, numeric, { ignoreEnum }),
  };
  const visit = (node: SchemaNode): void => {
    for (const family of keywordFamilies) family.warn?.(node, scope);
    for (const family of keywordFamilies) for (const child of family.children?.(node) ?? []) visit(child);
  };
  visit(root);
}
