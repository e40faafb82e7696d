import type { HelperName } from './helpers.js';
import { jsonString } from './json-string.js';

const noUses: ReadonlySet<HelperName> = new Set();

/**
 * Generated code is built only through `code`: a tagged template in which every interpolated
 * value is encoded as a JavaScript literal unless it is already `Code`. User text (property
 * names, descriptions, enum strings) therefore cannot change the shape of generated code. Code
 * also carries the support helpers it calls (`Code.helper`), so what a module needs is derived
 * from the code it holds.
 */
export class Code {
  private constructor(
    /** The TypeScript. */
    readonly text: string,
    /** The support helpers this code calls. */
    readonly uses: ReadonlySet<HelperName> = noUses,
    /** The JavaScript, where it differs (type annotations left out). */
    private readonly javaScript?: string,
  ) {}

  /** The same code without its types: what `--emit js` writes. */
  get js(): string {
    return this.javaScript ?? this.text;
  }

  /** TypeScript only (an annotation, a cast, type arguments): absent from the JavaScript. */
  static typeOnly(text: string): Code {
    return new Code(text, noUses, '');
  }

  /** A support helper, by name: code that holds it makes its module carry the helper. */
  static helper(name: HelperName): Code {
    return new Code(name, new Set([name]));
  }

  /** Text and the helpers of its parts, for the builders below. */
  static composed(text: string, parts: readonly (Code | undefined)[], js?: () => string): Code {
    let uses: Set<HelperName> | undefined;
    let typed = false;
    for (const part of parts) {
      if (part === undefined) continue;
      if (part.javaScript !== undefined) typed = true;
      if (part.uses.size === 0) continue;
      uses ??= new Set();
      for (const name of part.uses) uses.add(name);
    }
    return new Code(text, uses ?? noUses, typed && js !== undefined ? js() : undefined);
  }

  /**
   * The one escape hatch for text that is code already (an operator, a piece of a statement): never
   * user text. Every use is greppable as `Code.raw(`.
   */
  static raw(text: string): Code {
    return new Code(text);
  }

  /** A name of generated code (a function, a local), checked to be an identifier. */
  static identifier(name: string): Code {
    if (!identifierPattern.test(name)) throw new Error(`not an identifier: ${JSON.stringify(name)}`);
    return new Code(name);
  }

  toString(): string {
    return this.text;
  }
}

export type Literal = string | number | boolean | null;
export type Interpolated = Code | Literal | readonly Code[];

export function code(strings: TemplateStringsArray, ...values: Interpolated[]): Code {
  let text = strings[0]!;
  const parts: Code[] = [];
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    if (value instanceof Code) parts.push(value);
    else if (Array.isArray(value)) parts.push(...(value as readonly Code[]));
    text += interpolate(value, false) + strings[i + 1]!;
  }
  // The JavaScript is rendered only where a part differs from its TypeScript.
  return Code.composed(text, parts, () => {
    let js = strings[0]!;
    for (let i = 0; i < values.length; i++) js += interpolate(values[i]!, true) + strings[i + 1]!;
    return js;
  });
}

function interpolate(value: Interpolated, js: boolean): string {
  if (value instanceof Code) return js ? value.js : value.text;
  if (Array.isArray(value)) return (value as readonly Code[]).map((part) => (js ? part.js : part.text)).join('');
  return literal(value as Literal);
}

/** A JavaScript literal for a JSON scalar, safe inside any source context. */
export function literal(value: Literal): string {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`cannot emit non-finite number ${value}`);
    return Object.is(value, -0) ? '-0' : String(value);
  }
  if (typeof value === 'string') return stringLiteral(value);
  return String(value);
}

/**
 * JSON.stringify escapes quotes, backslashes, control characters and lone surrogates; line and
 * paragraph separators are escaped too, so the literal also survives tools that split lines on them.
 */
export function stringLiteral(value: string): string {
  const json = jsonString(value);
  return lineSeparators.test(json) ? json.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029') : json;
}

const lineSeparators = /[\u2028\u2029]/;

export function join(parts: readonly Code[], separator: string): Code {
  return Code.composed(parts.map((part) => part.text).join(separator), parts, () => parts.map((part) => part.js).join(separator));
}

/** A block of statements, one per line, indented by the caller's nesting. */
export function lines(parts: readonly (Code | undefined)[]): Code {
  const render = (js: boolean): string => {
    let text = '';
    for (const part of parts) {
      const line = part === undefined ? '' : js ? part.js : part.text;
      if (line === '') continue;
      text = text === '' ? line : `${text}\n${line}`;
    }
    return text;
  };
  return Code.composed(render(false), parts, () => render(true));
}

const identifierPattern = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * A key in an object literal. `__proto__` as a plain key would set the prototype instead of
 * creating a property, so it is written as a computed key.
 */
export function propertyKey(name: string): Code {
  if (name === '__proto__') return code`[${name}]`;
  return identifierPattern.test(name) ? Code.raw(name) : Code.raw(stringLiteral(name));
}

/** A member name of a type: an identifier as it is, anything else as a string literal (`__proto__` is an ordinary name in a type). */
export function typeMemberName(name: string): Code {
  return identifierPattern.test(name) ? Code.identifier(name) : code`${name}`;
}

/**
 * A JSDoc comment ending in a line break, or nothing: the one way user text enters generated code
 * outside a literal. `*\/` is broken up and every line terminator (including U+2028/U+2029) starts
 * a new comment line, so the text can neither end the comment nor leave it.
 */
export function docComment(textLines: readonly string[], indent: string): Code {
  if (textLines.length === 0) return Code.raw('');
  const docLines = textLines.flatMap((line) => line.split(/\r\n|[\n\r\u2028\u2029]/)).map((line) => line.replace(/\*\//g, '*\\/').trimEnd());
  if (docLines.length === 1) return Code.raw(`${indent}/** ${docLines[0]} */\n`);
  return Code.raw(`${indent}/**\n${docLines.map((line) => (line === '' ? `${indent} *` : `${indent} * ${line}`)).join('\n')}\n${indent} */\n`);
}
