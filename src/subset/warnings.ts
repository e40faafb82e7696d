import { compareDecimals } from '../runtime/json.js';
import type { DiagnosticInput } from '../diagnostics/diagnostic.js';
import { canonicalJson } from '../ir/canonical.js';
import { equalityKey } from '../ir/json-equality.js';
import { requiredWithoutSchema, rulesOf, type Located, type SchemaNode } from '../ir/schema-node.js';
import type { JsonNode } from '../source/json-node.js';
import { evaluate, type NumericReading } from './evaluate.js';

/**
 * Schemas that are legal but almost certainly not what the author meant: bounds no value can meet,
 * enum values or defaults the schema itself rejects. Reported as warnings (errors with --strict).
 */
export function findSchemaWarnings(node: SchemaNode, numeric: NumericReading, report: (d: DiagnosticInput) => void): void {
  const warn = (code: DiagnosticInput['code'], at: Located, message: string, hint: string): void => report({ code, position: at.position, pointer: at.pointer, message, hint });

  const rules = rulesOf(node);
  const { string, number, array, object } = rules;
  if (string?.minLength && string.maxLength && string.minLength.value > string.maxLength.value) {
    warn('JTC202', string.minLength, `"minLength" ${string.minLength.value} is greater than "maxLength" ${string.maxLength.value}: no string is valid`, 'swap or correct the bounds');
  }
  if (array?.minItems && array.maxItems && array.minItems.value > array.maxItems.value) {
    warn('JTC202', array.minItems, `"minItems" ${array.minItems.value} is greater than "maxItems" ${array.maxItems.value}: no array is valid`, 'swap or correct the bounds');
  }
  if (number?.minimum && number.maximum && compareDecimals(numeric(number.minimum.lexeme), numeric(number.maximum.lexeme)) > 0) {
    warn('JTC202', number.minimum, `"minimum" ${number.minimum.lexeme} is greater than "maximum" ${number.maximum.lexeme}: no number is valid`, 'swap or correct the bounds');
  }

  if (node.enum !== undefined) {
    const values = node.enum.values;
    if (values.length === 0) warn('JTC204', node.enum, '"enum" is empty: no value is valid', 'list the allowed values, or remove the property');
    const seen = new Set<string>();
    values.forEach((value) => {
      const key = equalityKey(value, numeric);
      const repeated = seen.has(key);
      seen.add(key);
      if (repeated) warn('JTC205', value, `enum value ${canonicalJson(value)} repeats an earlier one`, 'remove the repetition');
      else if (!evaluate(node, value, numeric, { ignoreEnum: true })) {
        warn('JTC203', value, `enum value ${canonicalJson(value)} is rejected by the schema's own type or bounds`, 'remove it or correct the schema');
      }
    });
  }

  if (object?.additionalProperties === false) {
    for (const name of requiredWithoutSchema(object)) {
      warn('JTC206', node, `"required" names ${JSON.stringify(name)}, which "additionalProperties": false forbids: no object is valid`, `add ${JSON.stringify(name)} to "properties"`);
    }
  }

  const checkAnnotation = (value: JsonNode, what: string): void => {
    if (!evaluate(node, value, numeric)) warn('JTC207', value, `${what} ${canonicalJson(value)} is rejected by its own schema`, 'correct the value or the schema');
  };
  if (node.annotations.default !== undefined) checkAnnotation(node.annotations.default, '"default"');
  for (const example of node.annotations.examples ?? []) checkAnnotation(example, 'example');

  for (const property of object?.properties ?? []) findSchemaWarnings(property.schema, numeric, report);
  if (array?.items !== undefined) findSchemaWarnings(array.items, numeric, report);
}
