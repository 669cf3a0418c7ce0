/**
 * Pointing real clients at the emulator (issue 6). The service's official JavaScript SDK fixes its
 * base URL in code and calls the global `fetch`; `redirectFetch` returns a fetch that sends those
 * calls to the emulator instead, and `useEmulatorFetch` installs it globally (returning the undo).
 *
 *   const undo = useEmulatorFetch(cms.apiUrl);
 *   const butter = Butter(cms.tokens.acme.read);   // now talks to the emulator
 */
export const SERVICE_BASE_URL = 'https://api.buttercms.com/v2';

type Fetch = typeof globalThis.fetch;

export function redirectFetch(apiUrl: string, options: { from?: string; fetch?: Fetch } = {}): Fetch {
  const from = (options.from ?? SERVICE_BASE_URL).replace(/\/+$/, '');
  const to = apiUrl.replace(/\/+$/, '');
  const inner = options.fetch ?? globalThis.fetch;
  return (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (!url.startsWith(from)) return inner(input, init);
    const target = to + url.slice(from.length);
    return input instanceof Request ? inner(new Request(target, input), init) : inner(target, init);
  };
}

/** Installs redirectFetch as the global fetch; returns the function that puts the original back. */
export function useEmulatorFetch(apiUrl: string, options: { from?: string } = {}): () => void {
  const original = globalThis.fetch;
  globalThis.fetch = redirectFetch(apiUrl, { ...options, fetch: original });
  return () => {
    globalThis.fetch = original;
  };
}
