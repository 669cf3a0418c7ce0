/**
 * Spec (Errors, page creation): "a media URL that returns 404" is a 400. Each media URL of a page
 * write is asked with HEAD (GET when HEAD is refused) under a short timeout. Only a 404 or 410
 * refuses the write: an unreachable host is left to the background download, as the real service
 * finds out only then.
 */
import type { FieldErrors } from '../domain/errors.js';
import { messages } from '../domain/messages.js';

const PROBE_TIMEOUT_MS = 3000;
const GONE = new Set([404, 410]);

async function status(url: string, method: 'HEAD' | 'GET'): Promise<number | null> {
  try {
    const response = await fetch(url, { method, redirect: 'follow', signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    await response.body?.cancel();
    return response.status;
  } catch {
    return null;
  }
}

export async function missingMedia(urls: readonly { path: string; url: string }[]): Promise<FieldErrors> {
  const errors: FieldErrors = {};
  const unique = [...new Set(urls.map((u) => u.url))];
  const results = new Map(
    await Promise.all(
      unique.map(async (url) => {
        let code = await status(url, 'HEAD');
        if (code === 405 || code === 501) code = await status(url, 'GET');
        return [url, code] as const;
      }),
    ),
  );
  for (const { path, url } of urls) {
    const code = results.get(url);
    if (code !== null && code !== undefined && GONE.has(code)) (errors[path] ??= []).push(messages.mediaNotFound(url));
  }
  return errors;
}
