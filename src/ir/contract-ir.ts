import type { Position } from '../diagnostics/diagnostic.js';
import type { SchemaNode } from './schema-node.js';

/** A checked contract: everything code generation needs, and nothing it must re-check. */
export interface ContractIR {
  /** The file name as given, used in diagnostics and generated headers. */
  readonly file: string;
  readonly name: string;
  readonly namePosition: Position;
  readonly description: string;
  readonly input: SchemaNode;
  readonly output: SchemaNode;
  /** SHA-256 of the contract's canonical JSON: changes exactly when the contract's meaning can. */
  readonly hash: string;
  readonly exactNumbers: boolean;
}
