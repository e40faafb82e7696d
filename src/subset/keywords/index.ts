import type { KeywordDefinition, KeywordFamily, KeywordRewriter, RuleFamily, RuleGroupName } from '../keyword.js';
import { descriptiveAnnotations, valueAnnotations } from './annotations.js';
import { arrayRules } from './array.js';
import { enumValues } from './enum.js';
import { numberBounds } from './number-bounds.js';
import { objectRules } from './object.js';
import { stringLength } from './string-length.js';
import { typeKeyword } from './type.js';
import { unsupportedRewrites } from './unsupported.js';

/**
 * The keyword table: every family, in the exported schema's order. Consumers iterate it (or the
 * views below) and never name a keyword; a new keyword is an entry in its family's file.
 */
export const keywordFamilies: readonly KeywordFamily[] = [descriptiveAnnotations, typeKeyword, stringLength, numberBounds, arrayRules, objectRules, enumValues, valueAnnotations];

/** The whole subset: every keyword a contract schema may use, by name. Anything else is rejected. */
export const keywordTable: ReadonlyMap<string, KeywordDefinition> = new Map(keywordFamilies.flatMap((family) => family.keywords).map((definition) => [definition.keyword, definition]));

/** The family that owns each group's rules. */
export const ruleFamilies: { readonly [G in RuleGroupName]: RuleFamily<G> } = { string: stringLength, number: numberBounds, array: arrayRules, object: objectRules };

/** The families that speak in JSDoc, in its order: what the value is, its examples, then what its type cannot say. */
export const documentingFamilies: readonly KeywordFamily[] = [descriptiveAnnotations, valueAnnotations, typeKeyword, stringLength, numberBounds, arrayRules];

/**
 * Every exact rewrite, by the keyword it rewrites: the families' own (a value the subset does not
 * take, such as a one-element type array) and those of unsupported keywords with an exact equivalent.
 */
export const keywordRewrites: ReadonlyMap<string, KeywordRewriter> = new Map([...keywordFamilies.flatMap((family) => Object.entries(family.rewrites ?? {})), ...Object.entries(unsupportedRewrites)]);
