/**
 * The edit-and-replay form, checked in the browser before it is sent: the body must be JSON
 * (unless sent as raw text), the headers a JSON object of strings, the target an http(s) URL or
 * inbox:<name>. Only what changed is sent; `headers` replaces the original headers whole.
 */
import { prettyText } from '../../components/Code.js';
import type { Delivery } from '../../api/types.js';
import { targetLabel } from './filters.js';

export interface ReplayDraft {
  body: string;
  /** Send the body text as it is, without checking it is JSON. */
  rawBody: boolean;
  headers: string;
  target: string;
}

export interface ReplayEdits {
  body?: string;
  headers?: Record<string, string>;
  target?: string;
}

export type ReplayErrors = Partial<Record<keyof ReplayDraft, string>>;

export type Checked = { ok: true; edits: ReplayEdits } | { ok: false; errors: ReplayErrors };

const TARGET = /^(https?:\/\/\S+|inbox:[A-Za-z0-9_-]{1,64})$/;

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The form as it opens: the delivery's request, body pretty-printed. */
export function draftOf(delivery: Delivery): ReplayDraft {
  const body = delivery.request.body;
  return {
    body: prettyText(body, 'application/json'),
    rawBody: !isJson(body),
    headers: JSON.stringify(delivery.request.headers, null, 2),
    target: targetLabel(delivery.target),
  };
}

function parseError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function checkHeaders(text: string): Record<string, string> | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `Headers are not valid JSON: ${parseError(error)}`;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return 'Headers must be a JSON object, e.g. {"content-type": "application/json"}.';
  }
  const bad = Object.entries(value).find(([, v]) => typeof v !== 'string');
  if (bad) return `Header "${bad[0]}" must be a string (put the value in quotes).`;
  return value as Record<string, string>;
}

function sameHeaders(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

/** Checks a draft against the delivery it edits; the edits hold only what changed. */
export function checkDraft(draft: ReplayDraft, original: Delivery): Checked {
  const errors: ReplayErrors = {};
  const edits: ReplayEdits = {};
  const initial = draftOf(original);

  if (draft.rawBody) {
    if (draft.body !== original.request.body) edits.body = draft.body;
  } else {
    try {
      const parsed: unknown = JSON.parse(draft.body);
      // Sent as text so the receiver gets compact JSON exactly as the service sends it.
      if (draft.body !== initial.body) edits.body = JSON.stringify(parsed);
    } catch (error) {
      errors.body = `The body is not valid JSON: ${parseError(error)}. Fix it, or tick "Send as raw text".`;
    }
  }

  const headers = checkHeaders(draft.headers);
  if (typeof headers === 'string') errors.headers = headers;
  else if (!sameHeaders(headers, original.request.headers)) edits.headers = headers;

  const target = draft.target.trim();
  if (!TARGET.test(target)) errors.target = 'The target is an http(s) URL or inbox:<name>.';
  else if (target !== initial.target && target !== original.target) edits.target = target;

  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, edits };
}
