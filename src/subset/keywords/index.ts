import type { KeywordDefinition } from '../keyword.js';
import { defaultValue, description, examples, id, schemaUri, title } from './annotations.js';
import { enumKeyword } from './enum.js';
import { maxItems, minItems } from './item-count.js';
import { maximum, minimum } from './number-bounds.js';
import { additionalProperties, items, properties, required } from './object.js';
import { maxLength, minLength } from './string-length.js';
import { type } from './type.js';

/** The whole subset: every keyword a contract schema may use. Anything else is rejected. */
export const keywordTable: ReadonlyMap<string, KeywordDefinition> = new Map(
  ([type, enumKeyword, minLength, maxLength, minimum, maximum, minItems, maxItems, items, properties, required, additionalProperties, title, description, defaultValue, examples, schemaUri, id] as KeywordDefinition[]).map((definition) => [definition.keyword, definition]),
);
