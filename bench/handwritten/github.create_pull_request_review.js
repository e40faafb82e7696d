// github.create_pull_request_review by hand, both flavours (bench/handwritten.js).
import { element, isJsonObject, isJsonValue, isOptionalString, isRecord, longerThan, notePrototypePollution, onlyKeys, ownKeysIfPolluted, shorterThan } from './support.js';

const events = new Set(['APPROVE', 'REQUEST_CHANGES', 'COMMENT']);
const userTypes = new Set(['User', 'Bot', 'Organization']);
const states = new Set(['APPROVED', 'CHANGES_REQUESTED', 'COMMENTED', 'DISMISSED', 'PENDING']);
const associations = new Set(['COLLABORATOR', 'CONTRIBUTOR', 'FIRST_TIMER', 'FIRST_TIME_CONTRIBUTOR', 'MANNEQUIN', 'MEMBER', 'NONE', 'OWNER']);
const isName = (value) => typeof value === 'string' && !shorterThan(value, 1);
const isLine = (value) => Number.isInteger(value) && value >= 1;
const isSide = (value) => value === 'LEFT' || value === 'RIGHT';
const isCommitId = (value) => typeof value === 'string' && !shorterThan(value, 40) && !longerThan(value, 40);

// ---- same guarantees

function soundComment(value) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  let required = 0;
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    const item = value[key];
    switch (key) {
      case 'path':
      case 'body':
        if (!isName(item)) return false;
        required++;
        break;
      case 'line':
      case 'start_line':
      case 'position':
        if (!isLine(item)) return false;
        break;
      case 'side':
      case 'start_side':
        if (!isSide(item)) return false;
        break;
      default:
        return false;
    }
  }
  return required === 2;
}

function soundInput(value) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  let required = 0;
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    const item = value[key];
    switch (key) {
      case 'owner':
      case 'repo':
        if (!isName(item)) return false;
        required++;
        break;
      case 'pull_number':
        if (!isLine(item)) return false;
        required++;
        break;
      case 'event':
        if (typeof item !== 'string' || !events.has(item)) return false;
        required++;
        break;
      case 'commit_id':
        if (!isCommitId(item)) return false;
        break;
      case 'body':
        if (typeof item !== 'string' || longerThan(item, 65536)) return false;
        break;
      case 'comments':
        if (!Array.isArray(item) || item.length > 50) return false;
        for (let i = 0; i < item.length; i++) if (!soundComment(element(item, i))) return false;
        break;
      default:
        return false;
    }
  }
  return required === 4;
}

function soundUser(value) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  let required = 0;
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    const item = value[key];
    switch (key) {
      case 'login':
        if (typeof item !== 'string') return false;
        required++;
        break;
      case 'id':
        if (!Number.isInteger(item)) return false;
        required++;
        break;
      case 'avatar_url':
      case 'url':
      case 'html_url':
        if (typeof item !== 'string') return false;
        break;
      case 'type':
        if (typeof item !== 'string' || !userTypes.has(item)) return false;
        break;
      default:
        if (!isJsonValue(item)) return false;
    }
  }
  return required === 2;
}

function soundLink(value) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  let required = 0;
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    const item = value[key];
    if (key === 'href') {
      if (typeof item !== 'string') return false;
      required++;
    } else if (!isJsonValue(item)) return false;
  }
  return required === 1;
}

function soundLinks(value) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  let required = 0;
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    const item = value[key];
    if (key === 'html' || key === 'pull_request') {
      if (!soundLink(item)) return false;
      required++;
    } else if (!isJsonValue(item)) return false;
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
      case 'id':
        if (!isLine(item)) return false;
        required++;
        break;
      case 'user':
        if (!soundUser(item)) return false;
        required++;
        break;
      case 'state':
        if (typeof item !== 'string' || !states.has(item)) return false;
        required++;
        break;
      case 'commit_id':
        if (!isCommitId(item)) return false;
        required++;
        break;
      case 'node_id':
      case 'body':
      case 'html_url':
      case 'pull_request_url':
      case 'submitted_at':
        if (typeof item !== 'string') return false;
        break;
      case 'author_association':
        if (typeof item !== 'string' || !associations.has(item)) return false;
        break;
      case '_links':
        if (!soundLinks(item)) return false;
        break;
      default:
        if (!isJsonValue(item)) return false;
    }
  }
  return required === 4;
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

const commentKeys = new Set(['path', 'line', 'side', 'start_line', 'start_side', 'position', 'body']);
const inputKeys = new Set(['owner', 'repo', 'pull_number', 'commit_id', 'body', 'event', 'comments']);

function usualComment(comment) {
  if (!isRecord(comment)) return false;
  const { path, line, side, start_line, start_side, position, body } = comment;
  if (!isName(path) || !isName(body)) return false;
  if (line !== undefined && !isLine(line)) return false;
  if (side !== undefined && !isSide(side)) return false;
  if (start_line !== undefined && !isLine(start_line)) return false;
  if (start_side !== undefined && !isSide(start_side)) return false;
  if (position !== undefined && !isLine(position)) return false;
  return onlyKeys(comment, commentKeys);
}

function usualUser(user) {
  if (!isRecord(user) || typeof user.login !== 'string' || !Number.isInteger(user.id)) return false;
  const { avatar_url, url, html_url, type } = user;
  return isOptionalString(avatar_url) && isOptionalString(url) && isOptionalString(html_url) && (type === undefined || userTypes.has(type));
}

const usualLink = (link) => isRecord(link) && typeof link.href === 'string';

export const asUsuallyWritten = {
  input: {
    is(value) {
      if (!isRecord(value)) return false;
      const { owner, repo, pull_number, commit_id, body, event, comments } = value;
      if (!isName(owner) || !isName(repo) || !isLine(pull_number) || !events.has(event)) return false;
      if (commit_id !== undefined && !isCommitId(commit_id)) return false;
      if (body !== undefined && (typeof body !== 'string' || longerThan(body, 65536))) return false;
      if (comments !== undefined && (!Array.isArray(comments) || comments.length > 50 || !comments.every(usualComment))) return false;
      return onlyKeys(value, inputKeys);
    },
  },
  output: {
    is(value) {
      if (!isRecord(value)) return false;
      const { id, node_id, user, body, state, html_url, pull_request_url, commit_id, submitted_at, author_association, _links } = value;
      if (!isLine(id) || !usualUser(user) || !states.has(state) || !isCommitId(commit_id)) return false;
      if (!isOptionalString(node_id) || !isOptionalString(body) || !isOptionalString(html_url) || !isOptionalString(pull_request_url) || !isOptionalString(submitted_at)) return false;
      if (author_association !== undefined && !associations.has(author_association)) return false;
      return _links === undefined || (isRecord(_links) && usualLink(_links.html) && usualLink(_links.pull_request));
    },
  },
};
