/**
 * The live stream (GET /__emulator/events) read through a real HTTP connection: a snapshot, then
 * deltas for requests, jobs, content changes and deliveries; Last-Event-ID resumes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type EmulatorHandle } from '../../server/index.js';

interface Message {
  id: number;
  event: string;
  data: Record<string, unknown>;
}

/** Opens the stream and collects parsed messages until `until` is satisfied (or the timeout). */
async function collect(
  url: string,
  until: (messages: Message[]) => boolean,
  headers: Record<string, string> = {},
  timeoutMs = 5000,
): Promise<Message[]> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const res = await fetch(url, { headers, signal: controller.signal });
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const messages: Message[] = [];
  const decoder = new TextDecoder();
  let text = '';
  try {
    for await (const chunk of res.body!) {
      text += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = text.indexOf('\n\n')) !== -1) {
        const block = text.slice(0, end);
        text = text.slice(end + 2);
        const fields = Object.fromEntries(
          block
            .split('\n')
            .filter((l) => l && !l.startsWith(':'))
            .map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]),
        );
        if (fields['event'])
          messages.push({
            id: Number(fields['id']),
            event: fields['event'],
            data: JSON.parse(fields['data'] ?? 'null') as Record<string, unknown>,
          });
      }
      if (until(messages)) break;
    }
  } catch (err) {
    if (!controller.signal.aborted) throw err;
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  return messages;
}

let cms: EmulatorHandle;
beforeAll(async () => {
  cms = await startEmulator();
});
afterAll(async () => {
  await cms.close();
});

describe('GET /__emulator/events', () => {
  it('starts with a snapshot, then streams requests, jobs, changes and deliveries', async () => {
    // Write once the stream is open (its snapshot came), not after a guess of how long that takes.
    let opened!: () => void;
    const streamOpen = new Promise<void>((resolve) => (opened = resolve));
    const write = async () => {
      await streamOpen;
      await fetch(`${cms.apiUrl}/posts/`, {
        method: 'POST',
        headers: { authorization: `Token ${cms.tokens['acme']!.write}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Streamed post', status: 'published' }),
      });
    };
    const [messages] = await Promise.all([
      collect(`${cms.controlUrl}/events`, (m) => {
        if (m.length > 0) opened();
        return m.some((x) => x.event === 'delivery' && x.data['state'] === 'succeeded');
      }),
      write(),
    ]);
    expect(messages[0]?.event).toBe('snapshot');
    expect(Object.keys(messages[0]!.data).sort()).toEqual(['clock', 'deliveries', 'jobs', 'organizations', 'requests', 'store']);
    const kinds = messages.map((m) => m.event);
    expect(kinds).toContain('request');
    expect(kinds).toContain('job');
    expect(messages.find((m) => m.event === 'change')?.data).toMatchObject({
      type: 'post.created',
      organization: 'acme',
      slug: 'streamed-post',
    });
    expect(messages.find((m) => m.event === 'request')?.data).toMatchObject({ method: 'POST', url: '/v2/posts/', status: 202 });
    const ids = messages.slice(1).map((m) => m.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it('resumes from Last-Event-ID with exactly the messages missed', async () => {
    const first = await collect(`${cms.controlUrl}/events`, (m) => m.length >= 1);
    const last = first[0]!.id;
    await fetch(`${cms.apiUrl}/posts/?auth_token=${cms.tokens['acme']!.read}&page_size=1`);
    await fetch(`${cms.apiUrl}/posts/?auth_token=${cms.tokens['acme']!.read}&page_size=2`);
    const resumed = await collect(`${cms.controlUrl}/events`, (m) => m.filter((x) => x.event === 'request').length >= 2, {
      'last-event-id': String(last),
    });
    expect(resumed[0]?.event).not.toBe('snapshot');
    expect(resumed[0]?.id).toBe(last + 1);
    expect(resumed.filter((m) => m.event === 'request').map((m) => m.data['url'])).toEqual([
      '/v2/posts/?auth_token=[redacted]&page_size=1',
      '/v2/posts/?auth_token=[redacted]&page_size=2',
    ]);
  });

  it('sends a snapshot instead of a resume whose requests the log no longer holds', async () => {
    const first = await collect(`${cms.controlUrl}/events`, (m) => m.length >= 1);
    await fetch(`${cms.apiUrl}/posts/?auth_token=${cms.tokens['acme']!.read}&page_size=3`);
    await fetch(`${cms.controlUrl}/requests`, { method: 'DELETE' });
    const resumed = await collect(`${cms.controlUrl}/events`, (m) => m.length >= 1, { 'last-event-id': String(first[0]!.id) });
    expect(resumed[0]?.event).toBe('snapshot');
  });

  it('says when the request or delivery log is emptied, so every open window follows', async () => {
    const clear = async () => {
      await new Promise((r) => setTimeout(r, 100));
      await fetch(`${cms.controlUrl}/requests`, { method: 'DELETE' });
      await fetch(`${cms.controlUrl}/deliveries`, { method: 'DELETE' });
    };
    const [messages] = await Promise.all([
      collect(`${cms.controlUrl}/events`, (m) => m.filter((x) => x.event === 'cleared').length >= 2),
      clear(),
    ]);
    expect(messages.filter((m) => m.event === 'cleared').map((m) => m.data)).toEqual([{ log: 'requests' }, { log: 'deliveries' }]);
  });

  it('sends a fresh snapshot when the id to resume from is unknown', async () => {
    const messages = await collect(`${cms.controlUrl}/events`, (m) => m.length >= 1, { 'last-event-id': '99999999' });
    expect(messages[0]?.event).toBe('snapshot');
  });
});

describe('access to the control API', () => {
  it('refuses a non-loopback host without a control token', async () => {
    await expect(startEmulator({ host: '0.0.0.0' })).rejects.toThrow(/needs a control token/);
  });

  it('with a control token, control requests must carry it; the emulated API does not need it', async () => {
    const guarded = await startEmulator({ controlToken: 'a-long-control-token' });
    try {
      expect((await fetch(`${guarded.controlUrl}/jobs`)).status).toBe(401);
      expect((await fetch(`${guarded.controlUrl}/jobs`, { headers: { 'x-control-token': 'wrong-token-value' } })).status).toBe(401);
      expect((await fetch(`${guarded.controlUrl}/jobs`, { headers: { 'x-control-token': 'a-long-control-token' } })).status).toBe(200);
      expect((await fetch(`${guarded.controlUrl}/jobs?control_token=a-long-control-token`)).status).toBe(200);
      expect((await fetch(`${guarded.apiUrl}/posts/?auth_token=${guarded.tokens['acme']!.read}`)).status).toBe(200);
    } finally {
      await guarded.close();
    }
  });
});
