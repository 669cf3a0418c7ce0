/** Short notices after an action ("Replayed", or the server's reason it failed). */
import { signal } from '@preact/signals';
import { ControlError } from '../api/client.js';

export interface Toast {
  id: number;
  kind: 'info' | 'error';
  text: string;
}

export const toasts = signal<Toast[]>([]);
let next = 0;

export function notify(text: string, kind: Toast['kind'] = 'info'): void {
  const toast = { id: ++next, kind, text };
  toasts.value = [...toasts.value, toast];
  window.setTimeout(() => (toasts.value = toasts.value.filter((t) => t !== toast)), kind === 'error' ? 8000 : 3000);
}

/** Runs an action and reports how it went; the server's `detail` is the message on failure. */
export async function attempt<T>(action: () => Promise<T>, success?: string): Promise<T | undefined> {
  try {
    const result = await action();
    if (success) notify(success);
    return result;
  } catch (error) {
    notify(error instanceof ControlError ? error.detail : error instanceof Error ? error.message : String(error), 'error');
    return undefined;
  }
}
