/**
 * Hash routing (#/requests/42): the UI is one file served at one URL, Electron's window and a
 * browser tab behave the same, and a reload keeps the view. The route is a signal of segments.
 */
import { signal } from '@preact/signals';

export const VIEWS = ['requests', 'content', 'webhooks', 'jobs', 'settings'] as const;
export type View = (typeof VIEWS)[number];

export interface Route {
  view: View;
  /** The segments after the view, decoded: ['42'] for #/requests/42. */
  rest: string[];
}

function parse(hash: string): Route {
  const [first, ...rest] = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  const view = (VIEWS as readonly string[]).includes(first ?? '') ? (first as View) : 'requests';
  return { view, rest };
}

export const route = signal<Route>(parse(location.hash));
window.addEventListener('hashchange', () => (route.value = parse(location.hash)));

/** The hash for a view and its segments, each encoded. */
export function href(view: View, ...rest: (string | number)[]): string {
  return '#/' + [view, ...rest.map((part) => encodeURIComponent(String(part)))].join('/');
}

export function navigate(view: View, ...rest: (string | number)[]): void {
  location.hash = href(view, ...rest);
}
