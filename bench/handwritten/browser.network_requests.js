// browser.network_requests by hand, both flavours (bench/handwritten.js).
import { element, isJsonObject, isJsonValue, isRecord, notePrototypePollution, onlyKeys, ownKeysIfPolluted, shorterThan } from './support.js';

const methods = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);
const resourceTypes = new Set(['document', 'stylesheet', 'image', 'media', 'font', 'script', 'xhr', 'fetch', 'websocket', 'other']);
const isNonNegative = (value) => typeof value === 'number' && Number.isFinite(value) && value >= 0;

// ---- same guarantees

function soundInput(value) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    const item = value[key];
    switch (key) {
      case 'static':
        if (typeof item !== 'boolean') return false;
        break;
      case 'filter':
      case 'filename':
        if (typeof item !== 'string') return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

function soundTiming(value) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  let required = 0;
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    const item = value[key];
    switch (key) {
      case 'startTime':
        if (!isNonNegative(item)) return false;
        required++;
        break;
      case 'durationMs':
        if (!isNonNegative(item)) return false;
        break;
      case 'responseEnd':
        if (typeof item !== 'number' || !Number.isFinite(item)) return false;
        break;
      default:
        if (!isJsonValue(item)) return false;
    }
  }
  return required === 1;
}

function soundHeader(value) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  let required = 0;
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    const item = value[key];
    switch (key) {
      case 'name':
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

function soundHeaders(value) {
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) if (!soundHeader(element(value, i))) return false;
  return true;
}

function soundRequest(value) {
  if (!isJsonObject(value)) return false;
  const own = ownKeysIfPolluted(value);
  let required = 0;
  for (const key in value) {
    if (own !== undefined && !own.has(key)) continue;
    const item = value[key];
    switch (key) {
      case 'index':
        if (!Number.isInteger(item) || item < 1) return false;
        required++;
        break;
      case 'method':
        if (typeof item !== 'string' || !methods.has(item)) return false;
        required++;
        break;
      case 'url':
        if (typeof item !== 'string') return false;
        required++;
        break;
      case 'status':
        if (!Number.isInteger(item) || item < 0 || item > 599) return false;
        break;
      case 'statusText':
      case 'failure':
        if (typeof item !== 'string') return false;
        break;
      case 'resourceType':
        if (typeof item !== 'string' || !resourceTypes.has(item)) return false;
        break;
      case 'fromCache':
        if (typeof item !== 'boolean') return false;
        break;
      case 'timing':
        if (!soundTiming(item)) return false;
        break;
      case 'requestHeaders':
      case 'responseHeaders':
        if (!soundHeaders(item)) return false;
        break;
      default:
        return false;
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
      case 'page_url':
        if (typeof item !== 'string') return false;
        break;
      case 'requests':
        if (!Array.isArray(item)) return false;
        for (let i = 0; i < item.length; i++) if (!soundRequest(element(item, i))) return false;
        required++;
        break;
      case 'dropped':
        if (!Number.isInteger(item) || item < 0) return false;
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

const inputKeys = new Set(['static', 'filter', 'filename']);
const headerKeys = new Set(['name', 'value']);
const requestKeys = new Set(['index', 'method', 'url', 'status', 'statusText', 'resourceType', 'fromCache', 'timing', 'requestHeaders', 'responseHeaders', 'failure']);
const outputKeys = new Set(['page_url', 'requests', 'dropped']);

function usualTiming(timing) {
  if (!isRecord(timing) || typeof timing.startTime !== 'number' || timing.startTime < 0) return false;
  const { responseEnd, durationMs } = timing;
  if (responseEnd !== undefined && typeof responseEnd !== 'number') return false;
  return durationMs === undefined || (typeof durationMs === 'number' && durationMs >= 0);
}

const usualHeader = (header) => isRecord(header) && typeof header.name === 'string' && !shorterThan(header.name, 1) && typeof header.value === 'string' && onlyKeys(header, headerKeys);
const usualHeaders = (headers) => Array.isArray(headers) && headers.every(usualHeader);

function usualRequest(request) {
  if (!isRecord(request)) return false;
  const { index, method, url, status, statusText, resourceType, fromCache, timing, requestHeaders, responseHeaders, failure } = request;
  if (!Number.isInteger(index) || index < 1 || !methods.has(method) || typeof url !== 'string') return false;
  if (status !== undefined && (!Number.isInteger(status) || status < 0 || status > 599)) return false;
  if (statusText !== undefined && typeof statusText !== 'string') return false;
  if (resourceType !== undefined && !resourceTypes.has(resourceType)) return false;
  if (fromCache !== undefined && typeof fromCache !== 'boolean') return false;
  if (timing !== undefined && !usualTiming(timing)) return false;
  if (requestHeaders !== undefined && !usualHeaders(requestHeaders)) return false;
  if (responseHeaders !== undefined && !usualHeaders(responseHeaders)) return false;
  if (failure !== undefined && typeof failure !== 'string') return false;
  return onlyKeys(request, requestKeys);
}

export const asUsuallyWritten = {
  input: {
    is(value) {
      if (!isRecord(value)) return false;
      const { static: isStatic, filter, filename } = value;
      if (isStatic !== undefined && typeof isStatic !== 'boolean') return false;
      if (filter !== undefined && typeof filter !== 'string') return false;
      if (filename !== undefined && typeof filename !== 'string') return false;
      return onlyKeys(value, inputKeys);
    },
  },
  output: {
    is(value) {
      if (!isRecord(value)) return false;
      const { page_url, requests, dropped } = value;
      if (page_url !== undefined && typeof page_url !== 'string') return false;
      if (!Array.isArray(requests) || !requests.every(usualRequest)) return false;
      if (dropped !== undefined && (!Number.isInteger(dropped) || dropped < 0)) return false;
      return onlyKeys(value, outputKeys);
    },
  },
};
