/**
 * The request log as HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), which browsers'
 * developer tools open. Bodies are the captured (capped, redacted) text; a body the log dropped
 * for its byte budget is empty, with a comment saying so.
 */
import type { LoggedRequest } from './request-log.js';

/** HAR's comment on a body the log no longer holds (its byte budget): the text is empty, not the body. */
const DROPPED = 'Body dropped from the request log to stay within its byte budget.';

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
        // Read once: log entries redact headers and decode bodies each time they are read.
        const requestHeaders = e.request.headers;
        const responseHeaders = e.response.headers;
        const requestBody = e.request.body;
        const responseBody = e.response.body;
        const requestType = requestHeaders['content-type'] ?? 'application/octet-stream';
        const responseType = responseHeaders['content-type'] ?? 'application/octet-stream';
        return {
          startedDateTime: e.time,
          time: e.duration_ms,
          request: {
            method: e.method,
            url: origin + e.url,
            httpVersion: 'HTTP/1.1',
            cookies: [],
            headers: pairs(requestHeaders),
            queryString: queryPairs(e.query),
            ...(requestBody.size > 0 ? { postData: { mimeType: requestType, text: requestBody.text } } : {}),
            headersSize: -1,
            bodySize: requestBody.size,
          },
          response: {
            status: e.response.status,
            statusText: '',
            httpVersion: 'HTTP/1.1',
            cookies: [],
            headers: pairs(responseHeaders),
            content: {
              size: responseBody.size,
              mimeType: responseType,
              text: responseBody.text,
              ...(responseBody.dropped ? { comment: DROPPED } : {}),
            },
            redirectURL: responseHeaders['location'] ?? '',
            headersSize: -1,
            bodySize: responseBody.size,
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
