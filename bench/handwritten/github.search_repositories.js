// github.search_repositories by hand, both flavours (bench/handwritten.js).
import { element, isJsonObject, isJsonValue, isOptionalBoolean, isOptionalString, isRecord, longerThan, notePrototypePollution, ownKeysIfPolluted, shorterThan } from './support.js';

const sorts = new Set(['stars', 'forks', 'help-wanted-issues', 'updated']);
const ownerTypes = new Set(['User', 'Organization', 'Bot']);
const visibilities = new Set(['public', 'private', 'internal']);
const isPositive = (value) => Number.isInteger(value) && value >= 1;
const isCount = (value) => Number.isInteger(value) && value >= 0;
const isTopic = (value) => typeof value === 'string' && !longerThan(value, 50);

// ---- same guarantees

function soundInput(value) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  let required = 0;
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    const item = value[key];
    switch (key) {
      case 'query':
        if (typeof item !== 'string' || shorterThan(item, 1) || longerThan(item, 256)) return false;
        required++;
        break;
      case 'sort':
        if (typeof item !== 'string' || !sorts.has(item)) return false;
        break;
      case 'order':
        if (item !== 'asc' && item !== 'desc') return false;
        break;
      case 'page':
        if (typeof item !== 'number' || !Number.isFinite(item) || item < 1) return false;
        break;
      case 'perPage':
        if (typeof item !== 'number' || !(item >= 1 && item <= 100)) return false;
        break;
      case 'minimal_output':
        if (typeof item !== 'boolean') return false;
        break;
      default:
        if (!isJsonValue(item)) return false;
    }
  }
  return required === 1;
}

function soundOwner(value) {
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
      case 'type':
        if (typeof item !== 'string' || !ownerTypes.has(item)) return false;
        required++;
        break;
      case 'node_id':
      case 'avatar_url':
      case 'url':
      case 'html_url':
        if (typeof item !== 'string') return false;
        break;
      case 'site_admin':
        if (typeof item !== 'boolean') return false;
        break;
      default:
        if (!isJsonValue(item)) return false;
    }
  }
  return required === 3;
}

function soundLicense(value) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  let required = 0;
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    const item = value[key];
    switch (key) {
      case 'key':
        if (typeof item !== 'string') return false;
        required++;
        break;
      case 'name':
      case 'spdx_id':
        if (typeof item !== 'string') return false;
        break;
      default:
        if (!isJsonValue(item)) return false;
    }
  }
  return required === 1;
}

function soundRepository(value) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  let required = 0;
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    const item = value[key];
    switch (key) {
      case 'id':
        if (!isPositive(item)) return false;
        required++;
        break;
      case 'name':
        if (typeof item !== 'string' || shorterThan(item, 1) || longerThan(item, 100)) return false;
        required++;
        break;
      case 'full_name':
      case 'html_url':
        if (typeof item !== 'string') return false;
        required++;
        break;
      case 'private':
        if (typeof item !== 'boolean') return false;
        required++;
        break;
      case 'owner':
        if (!soundOwner(item)) return false;
        required++;
        break;
      case 'node_id':
      case 'description':
      case 'url':
      case 'created_at':
      case 'updated_at':
      case 'pushed_at':
      case 'clone_url':
      case 'default_branch':
      case 'language':
        if (typeof item !== 'string') return false;
        break;
      case 'fork':
      case 'archived':
        if (typeof item !== 'boolean') return false;
        break;
      case 'stargazers_count':
      case 'forks_count':
      case 'open_issues_count':
        if (!isCount(item)) return false;
        break;
      case 'topics':
        if (!Array.isArray(item) || item.length > 20) return false;
        for (let i = 0; i < item.length; i++) if (!isTopic(element(item, i))) return false;
        break;
      case 'license':
        if (!soundLicense(item)) return false;
        break;
      case 'visibility':
        if (typeof item !== 'string' || !visibilities.has(item)) return false;
        break;
      default:
        if (!isJsonValue(item)) return false;
    }
  }
  return required === 6;
}

function soundOutput(value) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  let required = 0;
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    const item = value[key];
    switch (key) {
      case 'total_count':
        if (!isCount(item)) return false;
        break;
      case 'incomplete_results':
        if (typeof item !== 'boolean') return false;
        break;
      case 'items':
        if (!Array.isArray(item) || item.length > 100) return false;
        for (let i = 0; i < item.length; i++) if (!soundRepository(element(item, i))) return false;
        break;
      default:
        if (!isJsonValue(item)) return false;
        continue;
    }
    required++;
  }
  return required === 3;
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

const isOptionalCount = (value) => value === undefined || isCount(value);

function usualOwner(owner) {
  if (!isRecord(owner)) return false;
  const { login, id, node_id, avatar_url, url, html_url, type, site_admin } = owner;
  if (typeof login !== 'string' || shorterThan(login, 1) || longerThan(login, 39) || !isPositive(id) || !ownerTypes.has(type)) return false;
  return isOptionalString(node_id) && isOptionalString(avatar_url) && isOptionalString(url) && isOptionalString(html_url) && isOptionalBoolean(site_admin);
}

function usualRepository(repository) {
  if (!isRecord(repository)) return false;
  const { id, node_id, name, full_name, owner, html_url, description, fork, url, created_at, updated_at, pushed_at, clone_url, default_branch, stargazers_count, forks_count, open_issues_count, language, topics, license, archived, visibility } = repository;
  if (!isPositive(id) || typeof name !== 'string' || shorterThan(name, 1) || longerThan(name, 100) || typeof full_name !== 'string' || typeof repository.private !== 'boolean' || !usualOwner(owner) || typeof html_url !== 'string') return false;
  if (!isOptionalString(node_id) || !isOptionalString(description) || !isOptionalString(url) || !isOptionalString(created_at) || !isOptionalString(updated_at) || !isOptionalString(pushed_at) || !isOptionalString(clone_url) || !isOptionalString(default_branch) || !isOptionalString(language)) return false;
  if (!isOptionalBoolean(fork) || !isOptionalBoolean(archived) || !isOptionalCount(stargazers_count) || !isOptionalCount(forks_count) || !isOptionalCount(open_issues_count)) return false;
  if (topics !== undefined && (!Array.isArray(topics) || topics.length > 20 || !topics.every(isTopic))) return false;
  if (license !== undefined && (!isRecord(license) || typeof license.key !== 'string' || !isOptionalString(license.name) || !isOptionalString(license.spdx_id))) return false;
  return visibility === undefined || visibilities.has(visibility);
}

export const asUsuallyWritten = {
  input: {
    is(value) {
      if (!isRecord(value)) return false;
      const { query, sort, order, page, perPage, minimal_output } = value;
      if (typeof query !== 'string' || shorterThan(query, 1) || longerThan(query, 256)) return false;
      if (sort !== undefined && !sorts.has(sort)) return false;
      if (order !== undefined && order !== 'asc' && order !== 'desc') return false;
      if (page !== undefined && (typeof page !== 'number' || page < 1)) return false;
      if (perPage !== undefined && (typeof perPage !== 'number' || perPage < 1 || perPage > 100)) return false;
      return isOptionalBoolean(minimal_output);
    },
  },
  output: {
    is(value) {
      if (!isRecord(value)) return false;
      const { total_count, incomplete_results, items } = value;
      return isCount(total_count) && typeof incomplete_results === 'boolean' && Array.isArray(items) && items.length <= 100 && items.every(usualRepository);
    },
  },
};
