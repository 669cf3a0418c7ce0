/**
 * Starts a real emulator for a test file through the public harness (startEmulator: port 0, a
 * fresh temporary data folder seeded from a fixture) and adds a tiny HTTP client bound to its API
 * base URL. No mocks of our own code.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../server/index.js';
import { resolveFixture } from '../../server/store/seed.js';
import { storeSchema, type StoreData } from '../../server/store/schema.js';

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  /** Parsed JSON when the response is JSON, else undefined. */
  body: T;
  /** The raw body text. */
  text: string;
}

export interface RequestOptions {
  /** Sent as `auth_token` in the query. */
  token?: string;
  /** Sent as `Authorization: Token …`. */
  headerToken?: string;
  query?: Record<string, string | number | boolean>;
  /** JSON-encoded unless a string (sent as is). */
  body?: unknown;
  headers?: Record<string, string>;
}

export interface TestEmulator {
  emulator: Emulator;
  url: string;
  apiUrl: string;
  cdnUrl: string;
  dataDir: string;
  tokens: Record<string, { read: string; write: string }>;
  request<T = unknown>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  get<T = unknown>(path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  /** Waits for every accepted write to finish (no sleeps in tests). */
  idle(): Promise<void>;
  /** The data file as it is on disk now. */
  readDataFile(): Promise<StoreData>;
  close(): Promise<void>;
}

/** `fixture`: a built-in name or a folder path; `options` go to createEmulator (e.g. `strict`, download limits). */
export async function startTestEmulator(
  fixture = 'demo',
  options: Omit<EmulatorOptions, 'dataDir' | 'fixture' | 'port'> = {},
): Promise<TestEmulator> {
  const handle = await startEmulator({ fixture, ...options });
  const { emulator, dataDir, tokens } = handle;
  const running = { apiUrl: handle.apiUrl, url: handle.url, cdnUrl: handle.cdnUrl };

  async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const url = new URL(running.apiUrl + path);
    if (options.token !== undefined) url.searchParams.set('auth_token', options.token);
    for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, String(value));
    const headers: Record<string, string> = { ...options.headers };
    if (options.headerToken !== undefined) headers['authorization'] = `Token ${options.headerToken}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(url, { method, headers, body });
    const text = await response.text();
    const isJson = (response.headers.get('content-type') ?? '').includes('json');
    return { status: response.status, headers: response.headers, text, body: (isJson && text ? JSON.parse(text) : undefined) as T };
  }

  return {
    emulator,
    url: running.url,
    apiUrl: running.apiUrl,
    cdnUrl: running.cdnUrl,
    dataDir,
    tokens,
    request,
    get: (path, options) => request('GET', path, options),
    idle: () => emulator.idle(),
    async readDataFile() {
      await emulator.idle();
      return storeSchema.parse(JSON.parse(await readFile(join(dataDir, 'data.json'), 'utf8')));
    },
    close: () => handle.close(),
  };
}

/** The fixture's data file as shipped, for deriving expectations instead of hard-coding them. */
export async function loadFixture(name = 'demo'): Promise<StoreData> {
  return storeSchema.parse(JSON.parse(await readFile(join(resolveFixture(name), 'data.json'), 'utf8')));
}
