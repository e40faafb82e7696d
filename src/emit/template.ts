import { readFileSync } from 'node:fs';

/** A template cut once at its placeholders: static text at even indices, names at odd ones. */
export type TemplateParts = readonly string[];

/** The text of a file of `templates/`. */
export function readTemplate(file: string): string {
  return readFileSync(new URL(`../../templates/${file}`, import.meta.url), 'utf8');
}

export function templateParts(text: string): TemplateParts {
  return text.split(/\{\{(\w+)\}\}/);
}

/**
 * Replaces each `{{name}}`. A section left empty takes the blank line after it along, so unused
 * sections leave no gaps (the values themselves never hold a blank line's worth of newlines).
 */
export function fillTemplate(parts: TemplateParts, values: Readonly<Record<string, string>>): string {
  let text = parts[0]!;
  for (let i = 1; i < parts.length; i += 2) {
    const value = values[parts[i]!];
    if (value === undefined) throw new Error(`template placeholder {{${parts[i]}}} has no value`);
    const after = parts[i + 1]!;
    text += value === '' && text.endsWith('\n\n') && after.startsWith('\n\n') ? after.slice(2) : value + after;
  }
  return text;
}
