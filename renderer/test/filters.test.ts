/** The list filters of the Requests and Webhooks views, applied in the browser to live rows. */
import { describe, expect, it } from 'vitest';
import type { DeliverySummary, RequestSummary } from '../src/api/types.js';
import { asQuery, matches as requestMatches, NO_FILTER } from '../src/views/requests/filters.js';
import { inboxOf, matches as deliveryMatches, NO_FILTER as NO_DELIVERY_FILTER, targetLabel } from '../src/views/webhooks/filters.js';

const request = (patch: Partial<RequestSummary>): RequestSummary => ({
  id: 'r',
  time: '2026-11-21T10:00:00.000Z',
  surface: 'api',
  method: 'GET',
  url: '/v2/posts/',
  status: 200,
  duration_ms: 1,
  organization: 'acme',
  ...patch,
});

describe('request filters', () => {
  it('status class, method, organization and a case-insensitive path substring', () => {
    expect(requestMatches(request({ status: 404 }), { ...NO_FILTER, status: '4xx' })).toBe(true);
    expect(requestMatches(request({ status: 500 }), { ...NO_FILTER, status: '4xx' })).toBe(false);
    expect(requestMatches(request({ method: 'POST' }), { ...NO_FILTER, method: 'GET' })).toBe(false);
    expect(requestMatches(request({ organization: null }), { ...NO_FILTER, organization: 'acme' })).toBe(false);
    expect(requestMatches(request({ url: '/v2/Feeds/RSS/' }), { ...NO_FILTER, path: 'feeds/rss' })).toBe(true);
  });

  it('becomes the control API query of the HAR export, empty fields left out', () => {
    expect(asQuery({ ...NO_FILTER, status: '5xx', path: '/v2/' })).toEqual({
      method: undefined,
      status: '5xx',
      path: '/v2/',
      organization: undefined,
    });
  });
});

const delivery = (patch: Partial<DeliverySummary>): DeliverySummary => ({
  id: 'd',
  organization: 'acme',
  webhook_id: 'w',
  event: 'post.all',
  target: 'http://127.0.0.1:4010/__emulator/inboxes/demo',
  state: 'succeeded',
  attempts: 1,
  status: 200,
  duration_ms: 2,
  replay_of: null,
  created: '2026-11-21T10:00:00.000Z',
  finished: '2026-11-21T10:00:00.002Z',
  ...patch,
});

describe('delivery filters', () => {
  it('"finished" means succeeded or failed', () => {
    const finished = { ...NO_DELIVERY_FILTER, state: 'finished' };
    expect(deliveryMatches(delivery({ state: 'failed' }), finished)).toBe(true);
    expect(deliveryMatches(delivery({ state: 'retrying' }), finished)).toBe(false);
  });

  it('a built-in receiver is shown and found as inbox:<name>', () => {
    expect(targetLabel('http://127.0.0.1:4010/__emulator/inboxes/demo')).toBe('inbox:demo');
    expect(targetLabel('https://example.com/hook')).toBe('https://example.com/hook');
    expect(inboxOf('http://h/__emulator/inboxes/search-indexer')).toBe('search-indexer');
    expect(deliveryMatches(delivery({}), { ...NO_DELIVERY_FILTER, target: 'inbox:de' })).toBe(true);
  });
});
