/**
 * The write path: 202 latency of POST /v2/posts/ under concurrent connections (autocannon), how
 * long the background then takes to finish and reach the disk, and the time from a 202 until the
 * post is visible to a read (what a test that writes then reads waits for).
 */
import { load, type LoadResult } from './load.js';
import { pacedLoadApart, type PacedResult } from './paced.js';
import { stats, type Stats } from './stats.js';

/** A post as a test suite writes one: a title, a 2 KB body, a category. `[<id>]` makes it unique. */
function postBody(title: string, slug?: string): string {
  return JSON.stringify({
    title,
    ...(slug && { slug }),
    status: 'published',
    summary: 'A post written by the benchmark.',
    body: '<p>Written by the benchmark under load, one paragraph after another.</p>'.repeat(28),
    categories: ['Benchmarks'],
  });
}

export interface StormResult extends LoadResult, Partial<Pick<PacedResult, 'send_lag_p99_ms' | 'send_lag_max_ms'>> {
  /** Storm over until every accepted write had run and was on disk (GET /__emulator/jobs/idle). */
  drain_ms: number;
}

/** Resolves once every accepted write has finished and is on disk. */
export async function waitIdle(controlUrl: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${controlUrl}/jobs/idle?timeout_ms=120000`);
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`GET /__emulator/jobs/idle answered ${res.status}`);
  return Math.round(performance.now() - started);
}

/**
 * How the writes are offered: `paced` at a steady rate (paced.ts), `bursts` with autocannon's
 * overallRate (each connection spends its writes of the second at once, all together: the paced
 * figure of earlier runs, kept for comparison), `saturated` as fast as answered. Default: paced.
 */
export type StormKind = 'paced' | 'bursts' | 'saturated';

export async function writeStorm(
  apiUrl: string,
  controlUrl: string,
  writeToken: string,
  options: { connections: number; duration: number; rate: number; kind?: StormKind },
): Promise<StormResult> {
  const request = {
    method: 'POST' as const,
    headers: { authorization: `Token ${writeToken}`, 'content-type': 'application/json' },
    body: postBody('Bench storm [<id>]'),
  };
  const { connections, duration, rate } = options;
  const result =
    (options.kind ?? 'paced') === 'paced'
      ? await pacedLoadApart(`${apiUrl}/posts/`, { connections, duration, rate, ...request })
      : await load(`${apiUrl}/posts/`, { connections, duration, ...(options.kind === 'bursts' && { rate }), ...request });
  return { ...result, drain_ms: await waitIdle(controlUrl) };
}

/**
 * The first write after start, alone: it may have to hand the write worker a copy of the whole
 * store (when the file was not in the emulator's own form: atomic-file.ts startFromFile), a
 * one-off cost reported apart from the storms, as the first read after start is.
 */
export async function firstWrite(
  apiUrl: string,
  controlUrl: string,
  writeToken: string,
): Promise<{ answer_ms: number; on_disk_ms: number }> {
  const started = performance.now();
  const res = await fetch(`${apiUrl}/posts/`, {
    method: 'POST',
    headers: { authorization: `Token ${writeToken}`, 'content-type': 'application/json' },
    body: postBody(`Bench first write ${Date.now()}`),
  });
  await res.arrayBuffer();
  if (res.status !== 202) throw new Error(`POST /v2/posts/ answered ${res.status}`);
  const answer = performance.now() - started;
  await waitIdle(controlUrl);
  return { answer_ms: Math.round(answer * 10) / 10, on_disk_ms: Math.round(performance.now() - started) };
}

export interface VisibilityResult extends Stats {
  /** Each sample: POST answered 202 until GET /v2/posts/{slug}/ answered 200. */
  polls_per_sample: number;
}

/**
 * One write at a time: POST a published post with a known slug, then read it in a loop until it
 * answers 200. The time from the 202 to that 200, over `samples` writes (bounded by `maxMs`).
 */
export async function timeToVisible(
  apiUrl: string,
  tokens: { read: string; write: string },
  options: { samples: number; maxMs: number },
): Promise<VisibilityResult> {
  const samples: number[] = [];
  let polls = 0;
  const run = Date.now().toString(36);
  const started = performance.now();
  for (let i = 0; i < options.samples && performance.now() - started < options.maxMs; i++) {
    const slug = `bench-visible-${run}-${i}`;
    const res = await fetch(`${apiUrl}/posts/`, {
      method: 'POST',
      headers: { authorization: `Token ${tokens.write}`, 'content-type': 'application/json' },
      body: postBody(`Bench visible ${run} ${i}`, slug),
    });
    await res.arrayBuffer();
    if (res.status !== 202) throw new Error(`POST /v2/posts/ answered ${res.status}`);
    const accepted = performance.now();
    for (;;) {
      polls += 1;
      const read = await fetch(`${apiUrl}/posts/${slug}/?auth_token=${tokens.read}`);
      await read.arrayBuffer();
      if (read.status === 200) break;
      if (read.status !== 404) throw new Error(`GET /v2/posts/${slug}/ answered ${read.status}`);
      if (performance.now() - accepted > 30_000) throw new Error(`post ${slug} not visible 30 s after its 202`);
    }
    samples.push(performance.now() - accepted);
  }
  return { ...stats(samples), polls_per_sample: Math.round((polls / samples.length) * 10) / 10 };
}

/**
 * A write, then a search for a word only that post has: the search must see the new post, so
 * this times what the search index does after a write (it once rebuilt the whole index).
 */
export async function searchAfterWrite(
  apiUrl: string,
  controlUrl: string,
  tokens: { read: string; write: string },
  options: { samples: number; maxMs: number },
): Promise<Stats> {
  const samples: number[] = [];
  const started = performance.now();
  for (let i = 0; i < options.samples && performance.now() - started < options.maxMs; i++) {
    const word = `zqx${Date.now().toString(36)}${i}`;
    const res = await fetch(`${apiUrl}/posts/`, {
      method: 'POST',
      headers: { authorization: `Token ${tokens.write}`, 'content-type': 'application/json' },
      body: postBody(`Bench search ${word}`),
    });
    await res.arrayBuffer();
    if (res.status !== 202) throw new Error(`POST /v2/posts/ answered ${res.status}`);
    await waitIdle(controlUrl);
    const sent = performance.now();
    const found = await fetch(`${apiUrl}/posts/search/?query=${word}&auth_token=${tokens.read}`);
    const body = (await found.json()) as { meta: { count: number } };
    samples.push(performance.now() - sent);
    if (body.meta.count !== 1) throw new Error(`search for ${word} found ${body.meta.count} posts, not the one just written`);
  }
  return stats(samples);
}
