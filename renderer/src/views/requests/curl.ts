/**
 * "Copy as curl" for a logged request. The log redacts tokens; the UI knows each organization's
 * tokens (Settings shows them anyway), so the command it copies runs as it is.
 */
import type { LoggedRequest } from '../../api/types.js';

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** Headers curl sets itself or that describe the original connection. */
const SKIPPED = new Set(['host', 'content-length', 'connection', 'accept-encoding', 'transfer-encoding']);

export function toCurl(entry: LoggedRequest, origin: string, token: string | null): string {
  let url = origin + entry.url;
  if (token) url = url.replace(/auth_token=(%5Bredacted%5D|\[redacted\])/i, `auth_token=${encodeURIComponent(token)}`);
  const parts = ['curl', quote(url)];
  if (entry.method !== 'GET') parts.push('-X', entry.method);
  for (const [name, value] of Object.entries(entry.request.headers)) {
    if (SKIPPED.has(name.toLowerCase())) continue;
    const shown = name.toLowerCase() === 'authorization' && token ? value.replace('[redacted]', token) : value;
    parts.push('-H', quote(`${name}: ${shown}`));
  }
  if (entry.request.body.text !== '') parts.push('--data-raw', quote(entry.request.body.text));
  return parts.join(' ');
}
