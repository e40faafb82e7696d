// github.list_issues by hand, both flavours (bench/handwritten.js).
import { element, isJsonObject, isJsonValue, isOptionalString, isRecord, longerThan, notePrototypePollution, onlyKeys, ownKeysIfPolluted, shorterThan } from './support.js';

const orderings = new Set(['CREATED_AT', 'UPDATED_AT', 'COMMENTS']);
const fieldNames = new Set(['number', 'title', 'body', 'state', 'user', 'labels', 'assignees', 'comments', 'created_at', 'updated_at', 'field_values']);
const isState = (value) => value === 'OPEN' || value === 'CLOSED';
const isLabelName = (value) => typeof value === 'string' && !shorterThan(value, 1) && !longerThan(value, 50);
const isFieldName = (value) => typeof value === 'string' && fieldNames.has(value);
const isPositive = (value) => Number.isInteger(value) && value >= 1;
const isCount = (value) => Number.isInteger(value) && value >= 0;

// ---- same guarantees

function soundFieldFilter(value) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  let required = 0;
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    const item = value[key];
    switch (key) {
      case 'field_name':
        if (typeof item !== 'string' || shorterThan(item, 1)) return false;
        break;
      case 'value':
        if (typeof item !== 'string') return false;
        break;
      default:
        return false;
    }
    required++;
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
        if (typeof item !== 'string' || shorterThan(item, 1) || longerThan(item, 39)) return false;
        required++;
        break;
      case 'repo':
        if (typeof item !== 'string' || shorterThan(item, 1) || longerThan(item, 100)) return false;
        required++;
        break;
      case 'state':
        if (!isState(item)) return false;
        break;
      case 'labels':
        if (!Array.isArray(item) || item.length > 20) return false;
        for (let i = 0; i < item.length; i++) if (!isLabelName(element(item, i))) return false;
        break;
      case 'orderBy':
        if (typeof item !== 'string' || !orderings.has(item)) return false;
        break;
      case 'direction':
        if (item !== 'ASC' && item !== 'DESC') return false;
        break;
      case 'since':
      case 'after':
        if (typeof item !== 'string') return false;
        break;
      case 'perPage':
        if (typeof item !== 'number' || !(item >= 1 && item <= 100)) return false;
        break;
      case 'fields':
        if (!Array.isArray(item) || item.length > 11) return false;
        for (let i = 0; i < item.length; i++) if (!isFieldName(element(item, i))) return false;
        break;
      case 'field_filters':
        if (!Array.isArray(item) || item.length > 10) return false;
        for (let i = 0; i < item.length; i++) if (!soundFieldFilter(element(item, i))) return false;
        break;
      default:
        if (!isJsonValue(item)) return false;
    }
  }
  return required === 2;
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
        if (typeof item !== 'string' || shorterThan(item, 1) || longerThan(item, 39)) return false;
        required++;
        break;
      case 'id':
        if (!isPositive(item)) return false;
        required++;
        break;
      case 'avatar_url':
      case 'html_url':
        if (typeof item !== 'string') return false;
        break;
      default:
        if (!isJsonValue(item)) return false;
    }
  }
  return required === 2;
}

function soundLabel(value) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  let required = 0;
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    const item = value[key];
    switch (key) {
      case 'name':
        if (typeof item !== 'string') return false;
        required++;
        break;
      case 'color':
        if (typeof item !== 'string' || shorterThan(item, 6) || longerThan(item, 6)) return false;
        break;
      case 'description':
        if (typeof item !== 'string') return false;
        break;
      default:
        if (!isJsonValue(item)) return false;
    }
  }
  return required === 1;
}

function soundFieldValue(value) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  let required = 0;
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    const item = value[key];
    if (key === 'field_name' || key === 'value') {
      if (typeof item !== 'string') return false;
      required++;
    } else if (!isJsonValue(item)) return false;
  }
  return required === 2;
}

const isString = (value) => typeof value === 'string';

function soundIssue(value) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  let required = 0;
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    const item = value[key];
    switch (key) {
      case 'number':
        if (!isPositive(item)) return false;
        required++;
        break;
      case 'title':
        if (typeof item !== 'string' || longerThan(item, 256)) return false;
        required++;
        break;
      case 'state':
        if (!isState(item)) return false;
        required++;
        break;
      case 'body':
      case 'created_at':
      case 'updated_at':
        if (typeof item !== 'string') return false;
        break;
      case 'user':
        if (!soundUser(item)) return false;
        break;
      case 'labels':
        if (!Array.isArray(item)) return false;
        for (let i = 0; i < item.length; i++) if (!soundLabel(element(item, i))) return false;
        break;
      case 'assignees':
        if (!Array.isArray(item)) return false;
        for (let i = 0; i < item.length; i++) if (!isString(element(item, i))) return false;
        break;
      case 'comments':
        if (!isCount(item)) return false;
        break;
      case 'field_values':
        if (!Array.isArray(item)) return false;
        for (let i = 0; i < item.length; i++) if (!soundFieldValue(element(item, i))) return false;
        break;
      default:
        if (!isJsonValue(item)) return false;
    }
  }
  return required === 3;
}

function soundPageInfo(value) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  let required = 0;
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    const item = value[key];
    switch (key) {
      case 'hasNextPage':
      case 'hasPreviousPage':
        if (typeof item !== 'boolean') return false;
        required++;
        break;
      case 'startCursor':
      case 'endCursor':
        if (typeof item !== 'string') return false;
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
      case 'issues':
        if (!Array.isArray(item)) return false;
        for (let i = 0; i < item.length; i++) if (!soundIssue(element(item, i))) return false;
        required++;
        break;
      case 'pageInfo':
        if (!soundPageInfo(item)) return false;
        required++;
        break;
      case 'totalCount':
        if (!isCount(item)) return false;
        break;
      default:
        return false;
    }
  }
  return required === 2;
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

const fieldFilterKeys = new Set(['field_name', 'value']);
const pageInfoKeys = new Set(['hasNextPage', 'hasPreviousPage', 'startCursor', 'endCursor']);
const outputKeys = new Set(['issues', 'pageInfo', 'totalCount']);

const usualFieldFilter = (filter) => isRecord(filter) && typeof filter.field_name === 'string' && !shorterThan(filter.field_name, 1) && typeof filter.value === 'string' && onlyKeys(filter, fieldFilterKeys);
const usualLabel = (label) => isRecord(label) && typeof label.name === 'string' && (label.color === undefined || (typeof label.color === 'string' && !shorterThan(label.color, 6) && !longerThan(label.color, 6))) && isOptionalString(label.description);
const usualFieldValue = (field) => isRecord(field) && typeof field.field_name === 'string' && typeof field.value === 'string';

function usualUser(user) {
  if (!isRecord(user)) return false;
  const { login, id, avatar_url, html_url } = user;
  return typeof login === 'string' && !shorterThan(login, 1) && !longerThan(login, 39) && isPositive(id) && isOptionalString(avatar_url) && isOptionalString(html_url);
}

function usualIssue(issue) {
  if (!isRecord(issue)) return false;
  const { number, title, body, state, user, labels, assignees, comments, created_at, updated_at, field_values } = issue;
  if (!isPositive(number) || typeof title !== 'string' || longerThan(title, 256) || !isState(state)) return false;
  if (!isOptionalString(body) || !isOptionalString(created_at) || !isOptionalString(updated_at)) return false;
  if (user !== undefined && !usualUser(user)) return false;
  if (labels !== undefined && !(Array.isArray(labels) && labels.every(usualLabel))) return false;
  if (assignees !== undefined && !(Array.isArray(assignees) && assignees.every(isString))) return false;
  if (comments !== undefined && !isCount(comments)) return false;
  return field_values === undefined || (Array.isArray(field_values) && field_values.every(usualFieldValue));
}

function usualPageInfo(pageInfo) {
  if (!isRecord(pageInfo)) return false;
  const { hasNextPage, hasPreviousPage, startCursor, endCursor } = pageInfo;
  return typeof hasNextPage === 'boolean' && typeof hasPreviousPage === 'boolean' && isOptionalString(startCursor) && isOptionalString(endCursor) && onlyKeys(pageInfo, pageInfoKeys);
}

export const asUsuallyWritten = {
  input: {
    is(value) {
      if (!isRecord(value)) return false;
      const { owner, repo, state, labels, orderBy, direction, since, perPage, after, fields, field_filters } = value;
      if (typeof owner !== 'string' || shorterThan(owner, 1) || longerThan(owner, 39) || typeof repo !== 'string' || shorterThan(repo, 1) || longerThan(repo, 100)) return false;
      if (state !== undefined && !isState(state)) return false;
      if (labels !== undefined && !(Array.isArray(labels) && labels.length <= 20 && labels.every(isLabelName))) return false;
      if (orderBy !== undefined && !orderings.has(orderBy)) return false;
      if (direction !== undefined && direction !== 'ASC' && direction !== 'DESC') return false;
      if (!isOptionalString(since) || !isOptionalString(after)) return false;
      if (perPage !== undefined && (typeof perPage !== 'number' || perPage < 1 || perPage > 100)) return false;
      if (fields !== undefined && !(Array.isArray(fields) && fields.length <= 11 && fields.every(isFieldName))) return false;
      return field_filters === undefined || (Array.isArray(field_filters) && field_filters.length <= 10 && field_filters.every(usualFieldFilter));
    },
  },
  output: {
    is(value) {
      if (!isRecord(value)) return false;
      const { issues, pageInfo, totalCount } = value;
      return Array.isArray(issues) && issues.every(usualIssue) && usualPageInfo(pageInfo) && (totalCount === undefined || isCount(totalCount)) && onlyKeys(value, outputKeys);
    },
  },
};
