/**
 * Export of the data file (GET /__emulator/state) read as a stream, so a large store shows its
 * progress: bytes received against Content-Length (or just bytes when the length is unknown).
 * The result is a Blob the page offers as a download.
 */
import { ControlError, controlUrl } from '../../api/client.js';

export interface ExportProgress {
  received: number;
  total: number | null;
}

export async function exportState(onProgress: (p: ExportProgress) => void, signal?: AbortSignal): Promise<Blob> {
  // The token (when one is configured) goes in the query: this is a plain fetch of a download.
  const res = await fetch(controlUrl('state', {}, true), signal ? { signal } : {});
  if (!res.ok) {
    const text = await res.text();
    let detail = `${res.status} ${res.statusText}`.trim();
    try {
      const body = JSON.parse(text) as { detail?: unknown };
      if (typeof body.detail === 'string') detail = body.detail;
    } catch {
      // not JSON: the status line says it
    }
    throw new ControlError(res.status, detail);
  }
  const length = Number(res.headers.get('Content-Length'));
  const total = Number.isFinite(length) && length > 0 ? length : null;
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let received = 0;
  onProgress({ received, total });
  if (res.body) {
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      received += value.byteLength;
      onProgress({ received, total });
    }
  } else {
    const buffer = new Uint8Array(await res.arrayBuffer());
    chunks.push(buffer);
    received = buffer.byteLength;
    onProgress({ received, total });
  }
  return new Blob(chunks, { type: 'application/json' });
}
