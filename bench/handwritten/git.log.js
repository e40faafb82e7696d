// git.log by hand, both flavours (bench/handwritten.js).
import { element, isJsonObject, isJsonValue, isRecord, longerThan, notePrototypePollution, onlyKeys, ownKeysIfPolluted, shorterThan } from './support.js';

const isHash = (value) => typeof value === 'string' && !shorterThan(value, 40) && !longerThan(value, 40);

// ---- same guarantees

function soundInput(value) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  let required = 0;
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    const item = value[key];
    switch (key) {
      case 'repo_path':
        if (typeof item !== 'string' || shorterThan(item, 1)) return false;
        required++;
        break;
      case 'max_count':
        if (!Number.isInteger(item) || item < 1 || item > 1000) return false;
        break;
      case 'start_timestamp':
      case 'end_timestamp':
        if (typeof item !== 'string') return false;
        break;
      default:
        if (!isJsonValue(item)) return false;
    }
  }
  return required === 1;
}

function soundCommit(value) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  let required = 0;
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    const item = value[key];
    switch (key) {
      case 'hash':
        if (!isHash(item)) return false;
        required++;
        break;
      case 'author':
      case 'date':
      case 'message':
        if (typeof item !== 'string') return false;
        required++;
        break;
      case 'author_email':
        if (typeof item !== 'string') return false;
        break;
      case 'parents':
        if (!Array.isArray(item)) return false;
        for (let i = 0; i < item.length; i++) if (!isHash(element(item, i))) return false;
        break;
      default:
        return false;
    }
  }
  return required === 4;
}

function soundOutput(value) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  let required = 0;
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    if (key !== 'commits') return false;
    const commits = value[key];
    if (!Array.isArray(commits)) return false;
    for (let i = 0; i < commits.length; i++) if (!soundCommit(element(commits, i))) return false;
    required++;
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

const commitKeys = new Set(['hash', 'author', 'author_email', 'date', 'message', 'parents']);
const outputKeys = new Set(['commits']);

function usualCommit(commit) {
  if (!isRecord(commit)) return false;
  const { hash, author, author_email, date, message, parents } = commit;
  if (!isHash(hash) || typeof author !== 'string' || typeof date !== 'string' || typeof message !== 'string') return false;
  if (author_email !== undefined && typeof author_email !== 'string') return false;
  if (parents !== undefined && (!Array.isArray(parents) || !parents.every(isHash))) return false;
  return onlyKeys(commit, commitKeys);
}

export const asUsuallyWritten = {
  input: {
    is(value) {
      if (!isRecord(value)) return false;
      const { repo_path, max_count, start_timestamp, end_timestamp } = value;
      if (typeof repo_path !== 'string' || shorterThan(repo_path, 1)) return false;
      if (max_count !== undefined && (!Number.isInteger(max_count) || max_count < 1 || max_count > 1000)) return false;
      if (start_timestamp !== undefined && typeof start_timestamp !== 'string') return false;
      return end_timestamp === undefined || typeof end_timestamp === 'string';
    },
  },
  output: {
    is(value) {
      if (!isRecord(value)) return false;
      const { commits } = value;
      return Array.isArray(commits) && commits.every(usualCommit) && onlyKeys(value, outputKeys);
    },
  },
};
