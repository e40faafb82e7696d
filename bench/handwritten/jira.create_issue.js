// jira.create_issue by hand, both flavours (bench/handwritten.js).
import { element, isJsonObject, isJsonValue, isRecord, longerThan, notePrototypePollution, onlyKeys, ownKeysIfPolluted, shorterThan } from './support.js';

const issueTypes = new Set(['Task', 'Bug', 'Story', 'Epic', 'Subtask']);
const priorities = new Set(['Highest', 'High', 'Medium', 'Low', 'Lowest']);
const statusCategories = new Set(['new', 'indeterminate', 'done']);
// A summary or a label: 1 to 255 characters.
const isShortText = (value) => typeof value === 'string' && !shorterThan(value, 1) && !longerThan(value, 255);
const isString = (value) => typeof value === 'string';

// ---- same guarantees

function soundInput(value) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  let required = 0;
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    const item = value[key];
    switch (key) {
      case 'project_key':
        if (typeof item !== 'string' || shorterThan(item, 2) || longerThan(item, 10)) return false;
        required++;
        break;
      case 'summary':
        if (!isShortText(item)) return false;
        required++;
        break;
      case 'issue_type':
        if (typeof item !== 'string' || !issueTypes.has(item)) return false;
        required++;
        break;
      case 'description':
        if (typeof item !== 'string' || longerThan(item, 32767)) return false;
        break;
      case 'assignee':
      case 'parent_key':
        if (typeof item !== 'string') return false;
        break;
      case 'priority':
        if (typeof item !== 'string' || !priorities.has(item)) return false;
        break;
      case 'labels':
        if (!Array.isArray(item) || item.length > 50) return false;
        for (let i = 0; i < item.length; i++) if (!isShortText(element(item, i))) return false;
        break;
      case 'components':
        if (!Array.isArray(item) || item.length > 20) return false;
        for (let i = 0; i < item.length; i++) if (!isString(element(item, i))) return false;
        break;
      case 'fix_versions':
        if (!Array.isArray(item)) return false;
        for (let i = 0; i < item.length; i++) if (!isString(element(item, i))) return false;
        break;
      case 'due_date':
        if (typeof item !== 'string' || shorterThan(item, 10) || longerThan(item, 10)) return false;
        break;
      case 'story_points':
        if (typeof item !== 'number' || !(item >= 0 && item <= 100)) return false;
        break;
      case 'custom_fields':
        if (!isJsonObject(item) || !isJsonValue(item)) return false;
        break;
      case 'notify_watchers':
        if (typeof item !== 'boolean') return false;
        break;
      default:
        return false;
    }
  }
  return required === 3;
}

/** status, issuetype and priority: a name, and for two of them one more property. */
function soundNamed(value, other, isOther) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  let required = 0;
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    const item = value[key];
    if (key === 'name') {
      if (typeof item !== 'string') return false;
      required++;
    } else if (key === other) {
      if (!isOther(item)) return false;
    } else if (!isJsonValue(item)) return false;
  }
  return required === 1;
}

const isStatusCategory = (value) => typeof value === 'string' && statusCategories.has(value);
const isBoolean = (value) => typeof value === 'boolean';

function soundAssignee(value) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  let required = 0;
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    const item = value[key];
    switch (key) {
      case 'accountId':
        if (typeof item !== 'string') return false;
        required++;
        break;
      case 'displayName':
      case 'emailAddress':
        if (typeof item !== 'string') return false;
        break;
      case 'active':
        if (typeof item !== 'boolean') return false;
        break;
      default:
        if (!isJsonValue(item)) return false;
    }
  }
  return required === 1;
}

function soundFields(value) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  let required = 0;
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    const item = value[key];
    switch (key) {
      case 'summary':
        if (typeof item !== 'string') return false;
        required++;
        break;
      case 'status':
        if (!soundNamed(item, 'statusCategory', isStatusCategory)) return false;
        required++;
        break;
      case 'issuetype':
        if (!soundNamed(item, 'subtask', isBoolean)) return false;
        break;
      case 'priority':
        if (!soundNamed(item, undefined, undefined)) return false;
        break;
      case 'assignee':
        if (!soundAssignee(item)) return false;
        break;
      case 'created':
        if (typeof item !== 'string') return false;
        break;
      case 'labels':
        if (!Array.isArray(item)) return false;
        for (let i = 0; i < item.length; i++) if (!isString(element(item, i))) return false;
        break;
      default:
        if (!isJsonValue(item)) return false;
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
      case 'id':
        if (typeof item !== 'string') return false;
        required++;
        break;
      case 'key':
        if (typeof item !== 'string' || shorterThan(item, 3) || longerThan(item, 32)) return false;
        required++;
        break;
      case 'self':
        if (typeof item !== 'string') return false;
        break;
      case 'fields':
        if (!soundFields(item)) return false;
        break;
      default:
        if (!isJsonValue(item)) return false;
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

const inputKeys = new Set(['project_key', 'summary', 'issue_type', 'description', 'assignee', 'priority', 'labels', 'components', 'fix_versions', 'parent_key', 'due_date', 'story_points', 'custom_fields', 'notify_watchers']);

function usualFields(fields) {
  if (!isRecord(fields) || typeof fields.summary !== 'string') return false;
  const { status, issuetype, priority, assignee, created, labels } = fields;
  if (!isRecord(status) || typeof status.name !== 'string' || (status.statusCategory !== undefined && !statusCategories.has(status.statusCategory))) return false;
  if (issuetype !== undefined && (!isRecord(issuetype) || typeof issuetype.name !== 'string' || (issuetype.subtask !== undefined && typeof issuetype.subtask !== 'boolean'))) return false;
  if (priority !== undefined && (!isRecord(priority) || typeof priority.name !== 'string')) return false;
  if (assignee !== undefined) {
    if (!isRecord(assignee) || typeof assignee.accountId !== 'string') return false;
    const { displayName, emailAddress, active } = assignee;
    if (displayName !== undefined && typeof displayName !== 'string') return false;
    if (emailAddress !== undefined && typeof emailAddress !== 'string') return false;
    if (active !== undefined && typeof active !== 'boolean') return false;
  }
  if (created !== undefined && typeof created !== 'string') return false;
  return labels === undefined || (Array.isArray(labels) && labels.every(isString));
}

export const asUsuallyWritten = {
  input: {
    is(value) {
      if (!isRecord(value)) return false;
      const { project_key, summary, issue_type, description, assignee, priority, labels, components, fix_versions, parent_key, due_date, story_points, custom_fields, notify_watchers } = value;
      if (typeof project_key !== 'string' || shorterThan(project_key, 2) || longerThan(project_key, 10) || !isShortText(summary) || !issueTypes.has(issue_type)) return false;
      if (description !== undefined && (typeof description !== 'string' || longerThan(description, 32767))) return false;
      if (assignee !== undefined && typeof assignee !== 'string') return false;
      if (priority !== undefined && !priorities.has(priority)) return false;
      if (labels !== undefined && !(Array.isArray(labels) && labels.length <= 50 && labels.every(isShortText))) return false;
      if (components !== undefined && !(Array.isArray(components) && components.length <= 20 && components.every(isString))) return false;
      if (fix_versions !== undefined && !(Array.isArray(fix_versions) && fix_versions.every(isString))) return false;
      if (parent_key !== undefined && typeof parent_key !== 'string') return false;
      if (due_date !== undefined && (typeof due_date !== 'string' || shorterThan(due_date, 10) || longerThan(due_date, 10))) return false;
      if (story_points !== undefined && (typeof story_points !== 'number' || story_points < 0 || story_points > 100)) return false;
      if (custom_fields !== undefined && !isRecord(custom_fields)) return false;
      if (notify_watchers !== undefined && typeof notify_watchers !== 'boolean') return false;
      return onlyKeys(value, inputKeys);
    },
  },
  output: {
    is(value) {
      if (!isRecord(value)) return false;
      const { id, key, self, fields } = value;
      if (typeof id !== 'string' || typeof key !== 'string' || shorterThan(key, 3) || longerThan(key, 32)) return false;
      if (self !== undefined && typeof self !== 'string') return false;
      return fields === undefined || usualFields(fields);
    },
  },
};
