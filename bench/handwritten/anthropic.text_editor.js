// anthropic.text_editor by hand, both flavours (bench/handwritten.js).
import { element, isJsonObject, isRecord, notePrototypePollution, onlyKeys, ownKeysIfPolluted, shorterThan } from './support.js';

const commands = new Set(['view', 'create', 'str_replace', 'insert', 'undo_edit']);
const isLine = (value) => Number.isInteger(value) && value >= -1;
const isSnippetLine = (value) => Number.isInteger(value) && value >= 1;

// ---- same guarantees

function soundInput(value) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  let required = 0;
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    const item = value[key];
    switch (key) {
      case 'command':
        if (typeof item !== 'string' || !commands.has(item)) return false;
        required++;
        break;
      case 'path':
        if (typeof item !== 'string' || shorterThan(item, 1)) return false;
        required++;
        break;
      case 'file_text':
      case 'old_str':
      case 'new_str':
        if (typeof item !== 'string') return false;
        break;
      case 'insert_line':
        if (!Number.isInteger(item) || item < 0) return false;
        break;
      case 'view_range':
        if (!Array.isArray(item) || item.length !== 2 || !isLine(element(item, 0)) || !isLine(element(item, 1))) return false;
        break;
      default:
        return false;
    }
  }
  return required === 2;
}

function soundOutput(value) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  let required = 0;
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    const item = value[key];
    switch (key) {
      case 'ok':
        if (typeof item !== 'boolean') return false;
        required++;
        break;
      case 'path':
      case 'output':
        if (typeof item !== 'string') return false;
        break;
      case 'line_count':
        if (!Number.isInteger(item) || item < 0) return false;
        break;
      case 'snippet_range':
        if (!Array.isArray(item) || item.length !== 2 || !isSnippetLine(element(item, 0)) || !isSnippetLine(element(item, 1))) return false;
        break;
      default:
        return false;
    }
  }
  return required === 1;
}

export const sameGuarantees = {
  input: {
    is(value) {
      try {
        notePrototypePollution();
        return soundInput(value);
      } catch {
        return false;
      }
    },
  },
  output: {
    is(value) {
      try {
        notePrototypePollution();
        return soundOutput(value);
      } catch {
        return false;
      }
    },
  },
};

// ---- as usually written

const inputKeys = new Set(['command', 'path', 'file_text', 'old_str', 'new_str', 'insert_line', 'view_range']);
const outputKeys = new Set(['ok', 'path', 'output', 'line_count', 'snippet_range']);

export const asUsuallyWritten = {
  input: {
    is(value) {
      if (!isRecord(value)) return false;
      const { command, path, file_text, old_str, new_str, insert_line, view_range } = value;
      if (!commands.has(command) || typeof path !== 'string' || shorterThan(path, 1)) return false;
      if (file_text !== undefined && typeof file_text !== 'string') return false;
      if (old_str !== undefined && typeof old_str !== 'string') return false;
      if (new_str !== undefined && typeof new_str !== 'string') return false;
      if (insert_line !== undefined && (!Number.isInteger(insert_line) || insert_line < 0)) return false;
      if (view_range !== undefined && (!Array.isArray(view_range) || view_range.length !== 2 || !view_range.every(isLine))) return false;
      return onlyKeys(value, inputKeys);
    },
  },
  output: {
    is(value) {
      if (!isRecord(value) || typeof value.ok !== 'boolean') return false;
      const { path, output, line_count, snippet_range } = value;
      if (path !== undefined && typeof path !== 'string') return false;
      if (output !== undefined && typeof output !== 'string') return false;
      if (line_count !== undefined && (!Number.isInteger(line_count) || line_count < 0)) return false;
      if (snippet_range !== undefined && (!Array.isArray(snippet_range) || snippet_range.length !== 2 || !snippet_range.every(isSnippetLine))) return false;
      return onlyKeys(value, outputKeys);
    },
  },
};
