// github.actions_list by hand, both flavours (bench/handwritten.js).
import { element, isJsonObject, isJsonValue, isOptionalString, isRecord, longerThan, notePrototypePollution, ownKeysIfPolluted, shorterThan } from './support.js';

const methods = new Set(['list_workflows', 'list_workflow_runs', 'list_workflow_jobs', 'list_workflow_run_artifacts']);
const events = new Set([
  'branch_protection_rule',
  'check_run',
  'check_suite',
  'create',
  'delete',
  'deployment',
  'deployment_status',
  'discussion',
  'discussion_comment',
  'fork',
  'gollum',
  'issue_comment',
  'issues',
  'label',
  'merge_group',
  'milestone',
  'page_build',
  'public',
  'pull_request',
  'pull_request_review',
  'pull_request_review_comment',
  'pull_request_target',
  'push',
  'registry_package',
  'release',
  'repository_dispatch',
  'schedule',
  'status',
  'watch',
  'workflow_call',
  'workflow_dispatch',
  'workflow_run',
]);
const filterStatuses = new Set(['queued', 'in_progress', 'completed', 'requested', 'waiting']);
const runStatuses = new Set(['queued', 'in_progress', 'completed', 'requested', 'waiting', 'pending']);
const conclusions = new Set(['success', 'failure', 'neutral', 'cancelled', 'skipped', 'timed_out', 'action_required', 'stale']);
const isName = (value) => typeof value === 'string' && !shorterThan(value, 1);
const isPositive = (value) => Number.isInteger(value) && value >= 1;
const isSha = (value) => typeof value === 'string' && !shorterThan(value, 40) && !longerThan(value, 40);
const isPage = (value) => typeof value === 'number' && Number.isFinite(value) && value >= 1;
const isPerPage = (value) => typeof value === 'number' && value >= 1 && value <= 100;

// ---- same guarantees

function soundRunsFilter(value) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    const item = value[key];
    switch (key) {
      case 'actor':
      case 'branch':
        if (typeof item !== 'string') return false;
        break;
      case 'event':
        if (typeof item !== 'string' || !events.has(item)) return false;
        break;
      case 'status':
        if (typeof item !== 'string' || !filterStatuses.has(item)) return false;
        break;
      default:
        if (!isJsonValue(item)) return false;
    }
  }
  return true;
}

function soundJobsFilter(value) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    const item = value[key];
    if (key === 'filter' ? item !== 'latest' && item !== 'all' : !isJsonValue(item)) return false;
  }
  return true;
}

function soundInput(value) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  let required = 0;
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    const item = value[key];
    switch (key) {
      case 'method':
        if (typeof item !== 'string' || !methods.has(item)) return false;
        required++;
        break;
      case 'owner':
      case 'repo':
        if (!isName(item)) return false;
        required++;
        break;
      case 'resource_id':
        if (typeof item !== 'string') return false;
        break;
      case 'page':
        if (!isPage(item)) return false;
        break;
      case 'per_page':
        if (!isPerPage(item)) return false;
        break;
      case 'workflow_runs_filter':
        if (!soundRunsFilter(item)) return false;
        break;
      case 'workflow_jobs_filter':
        if (!soundJobsFilter(item)) return false;
        break;
      default:
        if (!isJsonValue(item)) return false;
    }
  }
  return required === 3;
}

function soundActor(value) {
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
        if (!isPositive(item)) return false;
        break;
      default:
        if (!isJsonValue(item)) return false;
    }
  }
  return required === 1;
}

function soundAuthor(value) {
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
      case 'email':
        if (typeof item !== 'string') return false;
        break;
      default:
        if (!isJsonValue(item)) return false;
    }
  }
  return required === 1;
}

function soundHeadCommit(value) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  let required = 0;
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    const item = value[key];
    switch (key) {
      case 'id':
        if (!isSha(item)) return false;
        required++;
        break;
      case 'message':
      case 'timestamp':
        if (typeof item !== 'string') return false;
        break;
      case 'author':
        if (!soundAuthor(item)) return false;
        break;
      default:
        if (!isJsonValue(item)) return false;
    }
  }
  return required === 1;
}

function soundRun(value) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  let required = 0;
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    const item = value[key];
    switch (key) {
      case 'id':
      case 'workflow_id':
        if (!isPositive(item)) return false;
        required++;
        break;
      case 'status':
        if (typeof item !== 'string' || !runStatuses.has(item)) return false;
        required++;
        break;
      case 'name':
      case 'head_branch':
      case 'html_url':
      case 'created_at':
      case 'updated_at':
        if (typeof item !== 'string') return false;
        break;
      case 'head_sha':
        if (!isSha(item)) return false;
        break;
      case 'run_number':
      case 'run_attempt':
        if (!isPositive(item)) return false;
        break;
      case 'event':
        if (typeof item !== 'string' || !events.has(item)) return false;
        break;
      case 'conclusion':
        if (typeof item !== 'string' || !conclusions.has(item)) return false;
        break;
      case 'actor':
        if (!soundActor(item)) return false;
        break;
      case 'head_commit':
        if (!soundHeadCommit(item)) return false;
        break;
      default:
        if (!isJsonValue(item)) return false;
    }
  }
  return required === 3;
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
        if (!Number.isInteger(item) || item < 0) return false;
        required++;
        break;
      case 'workflow_runs':
        if (!Array.isArray(item)) return false;
        for (let i = 0; i < item.length; i++) if (!soundRun(element(item, i))) return false;
        required++;
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

function usualRunsFilter(filter) {
  if (!isRecord(filter)) return false;
  const { actor, branch, event, status } = filter;
  return isOptionalString(actor) && isOptionalString(branch) && (event === undefined || events.has(event)) && (status === undefined || filterStatuses.has(status));
}

const usualJobsFilter = (filter) => isRecord(filter) && (filter.filter === undefined || filter.filter === 'latest' || filter.filter === 'all');

function usualHeadCommit(commit) {
  if (!isRecord(commit) || !isSha(commit.id) || !isOptionalString(commit.message) || !isOptionalString(commit.timestamp)) return false;
  const { author } = commit;
  return author === undefined || (isRecord(author) && typeof author.name === 'string' && isOptionalString(author.email));
}

function usualRun(run) {
  if (!isRecord(run)) return false;
  const { id, name, head_branch, head_sha, run_number, run_attempt, event, status, conclusion, workflow_id, html_url, created_at, updated_at, actor, head_commit } = run;
  if (!isPositive(id) || !runStatuses.has(status) || !isPositive(workflow_id)) return false;
  if (!isOptionalString(name) || !isOptionalString(head_branch) || !isOptionalString(html_url) || !isOptionalString(created_at) || !isOptionalString(updated_at)) return false;
  if (head_sha !== undefined && !isSha(head_sha)) return false;
  if ((run_number !== undefined && !isPositive(run_number)) || (run_attempt !== undefined && !isPositive(run_attempt))) return false;
  if ((event !== undefined && !events.has(event)) || (conclusion !== undefined && !conclusions.has(conclusion))) return false;
  if (actor !== undefined && (!isRecord(actor) || typeof actor.login !== 'string' || (actor.id !== undefined && !isPositive(actor.id)))) return false;
  return head_commit === undefined || usualHeadCommit(head_commit);
}

export const asUsuallyWritten = {
  input: {
    is(value) {
      if (!isRecord(value)) return false;
      const { method, owner, repo, resource_id, page, per_page, workflow_runs_filter, workflow_jobs_filter } = value;
      if (!methods.has(method) || !isName(owner) || !isName(repo) || !isOptionalString(resource_id)) return false;
      if ((page !== undefined && !isPage(page)) || (per_page !== undefined && !isPerPage(per_page))) return false;
      if (workflow_runs_filter !== undefined && !usualRunsFilter(workflow_runs_filter)) return false;
      return workflow_jobs_filter === undefined || usualJobsFilter(workflow_jobs_filter);
    },
  },
  output: {
    is(value) {
      if (!isRecord(value)) return false;
      const { total_count, workflow_runs } = value;
      return Number.isInteger(total_count) && total_count >= 0 && Array.isArray(workflow_runs) && workflow_runs.every(usualRun);
    },
  },
};
