/** Edit & replay: the form is checked before sending, and only what changed is sent. */
import { describe, expect, it } from 'vitest';
import type { Delivery } from '../src/api/types.js';
import { checkDraft, draftOf } from '../src/views/webhooks/replay-edits.js';

const original: Delivery = {
  id: 'd1',
  organization: 'acme',
  webhook_id: 'w1',
  event: 'post.all',
  target: 'https://example.com/hook',
  request: {
    method: 'POST',
    url: 'https://example.com/hook',
    headers: { 'content-type': 'application/json' },
    body: '{"data":{"id":"hello"},"webhook":{"event":"post.all","target":"https://example.com/hook"}}',
  },
  state: 'succeeded',
  attempts: [],
  max_attempts: 1,
  retry_delays_ms: [],
  timeout_ms: 10000,
  cause: { kind: 'control', action: 'test' },
  replay_of: null,
  created: '2026-11-21T10:00:00.000Z',
  finished: null,
};

describe('the edit-and-replay form', () => {
  it('opens with the request as sent, body pretty-printed; unchanged it sends no edits', () => {
    const draft = draftOf(original);
    expect(draft.body).toContain('\n  "data"');
    expect(checkDraft(draft, original)).toEqual({ ok: true, edits: {} });
  });

  it('an edited body is sent compact, as the service sends JSON', () => {
    const draft = { ...draftOf(original), body: '{ "data": { "id": "edited" } }' };
    expect(checkDraft(draft, original)).toEqual({ ok: true, edits: { body: '{"data":{"id":"edited"}}' } });
  });

  it('says what is wrong with each field at once', () => {
    const result = checkDraft({ body: '{nope', rawBody: false, headers: '{"x-n": 1}', target: 'ftp://x' }, original);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.body).toMatch(/not valid JSON/);
    expect(result.errors.headers).toBe('Header "x-n" must be a string (put the value in quotes).');
    expect(result.errors.target).toBe('The target is an http(s) URL or inbox:<name>.');
  });

  it('raw text bodies are sent as written; new headers replace the old; a new target is sent', () => {
    const draft = { body: 'not json', rawBody: true, headers: '{"x-test": "1"}', target: 'inbox:qa' };
    expect(checkDraft(draft, original)).toEqual({
      ok: true,
      edits: { body: 'not json', headers: { 'x-test': '1' }, target: 'inbox:qa' },
    });
  });
});
