/**
 * The UI's one way to the server: the control API under /__emulator/, relative to where the UI is
 * served (…/__emulator/ui/), so the same build works in Electron's window and any browser.
 * Errors come back as ControlError carrying the server's `detail`, ready to show.
 */

const CONTROL_BASE = new URL('../', new URL('.', document.baseURI));
const TOKEN_KEY = 'cms-emulator.control-token';

/**
 * With `--control-token`, the UI is opened as …/ui/#control_token=<t> (the fragment never
 * reaches a server or a log); it is kept for the tab's life only.
 */
function controlToken(): string | null {
  const match = /(?:^#|[?&])control_token=([^&]+)/.exec(location.hash);
  if (match?.[1]) {
    sessionStorage.setItem(TOKEN_KEY, decodeURIComponent(match[1]));
    history.replaceState(null, '', location.pathname + location.search + location.hash.replace(/[?&#]?control_token=[^&]+/, ''));
  }
  return sessionStorage.getItem(TOKEN_KEY);
}
const token = controlToken();

export class ControlError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(detail);
  }
}

/** Absolute URL of a control path such as `requests/12` (with the token for EventSource/downloads). */
export function controlUrl(path: string, query: Record<string, string | number | undefined> = {}, withToken = false): string {
  const url = new URL(path.replace(/^\//, ''), CONTROL_BASE);
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') url.searchParams.set(key, String(value));
  if (withToken && token) url.searchParams.set('control_token', token);
  return url.href;
}

/** The server's own origin: API and CDN URLs shown to the user are built on it. */
export const serverOrigin = new URL('/', CONTROL_BASE).origin;

async function detailOf(res: Response): Promise<string> {
  const text = await res.text();
  try {
    const body = JSON.parse(text) as { detail?: unknown; error?: unknown };
    if (typeof body.detail === 'string') return body.detail;
    if (typeof body.error === 'string') return body.error;
  } catch {
    // not JSON: fall through to the status line
  }
  return `${res.status} ${res.statusText}`.trim();
}

export interface CallOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  signal?: AbortSignal;
}

/** Calls the control API and returns its parsed JSON (undefined for 204). */
export async function call<T>(path: string, options: CallOptions = {}): Promise<T> {
  const headers: Record<string, string> = {};
  if (token) headers['X-Control-Token'] = token;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  const init: RequestInit = { method: options.method ?? 'GET', headers };
  if (options.body !== undefined) init.body = JSON.stringify(options.body);
  if (options.signal) init.signal = options.signal;
  const res = await fetch(controlUrl(path, options.query), init);
  if (!res.ok) throw new ControlError(res.status, await detailOf(res));
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}

/** Most control answers wrap their payload in `{data}`. */
export async function getData<T>(path: string, options: CallOptions = {}): Promise<T> {
  return (await call<{ data: T }>(path, options)).data;
}
