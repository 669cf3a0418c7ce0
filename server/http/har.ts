/**
 * The request log as HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), which browsers'
 * developer tools open. Bodies are the captured (capped, redacted) text.
 */
import type { LoggedRequest } from './request-log.js';

type NameValue = { name: string; value: string };

const pairs = (record: Record<string, string>): NameValue[] => Object.entries(record).map(([name, value]) => ({ name, value }));

function queryPairs(query: Record<string, string | string[]>): NameValue[] {
  return Object.entries(query).flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((v) => ({ name, value: v })));
}

export function toHar(entries: readonly LoggedRequest[], origin: string, version: string) {
  return {
    log: {
      version: '1.2',
      creator: { name: 'cms-emulator', version },
      pages: [],
      entries: entries.map((e) => {
        const requestType = e.request.headers['content-type'] ?? 'application/octet-stream';
        const responseType = e.response.headers['content-type'] ?? 'application/octet-stream';
        return {
          startedDateTime: e.time,
          time: e.duration_ms,
          request: {
            method: e.method,
            url: origin + e.url,
            httpVersion: 'HTTP/1.1',
            cookies: [],
            headers: pairs(e.request.headers),
            queryString: queryPairs(e.query),
            ...(e.request.body.size > 0 ? { postData: { mimeType: requestType, text: e.request.body.text } } : {}),
            headersSize: -1,
            bodySize: e.request.body.size,
          },
          response: {
            status: e.response.status,
            statusText: '',
            httpVersion: 'HTTP/1.1',
            cookies: [],
            headers: pairs(e.response.headers),
            content: { size: e.response.body.size, mimeType: responseType, text: e.response.body.text },
            redirectURL: e.response.headers['location'] ?? '',
            headersSize: -1,
            bodySize: e.response.body.size,
          },
          cache: {},
          timings: { send: 0, wait: e.duration_ms, receive: 0 },
          _id: e.id,
          _organization: e.organization,
        };
      }),
    },
  };
}
