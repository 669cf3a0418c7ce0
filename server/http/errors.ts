/**
 * The one place that writes error JSON (ARCHITECTURE: convention 3). Domain and routes throw
 * ApiError; body-parser's errors are mapped here too, so a client mistake is never a 5xx.
 */
import type { ErrorRequestHandler, Response } from 'express';
import { ApiError, detailError } from '../domain/errors.js';
import { messages } from '../domain/messages.js';

export function sendError(res: Response, error: ApiError): void {
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  const { body } = error;
  const json = body.kind === 'detail' ? { detail: body.detail } : body.kind === 'error' ? { error: body.error } : body.fields;
  res.status(error.status).json(json);
}

interface HttpishError {
  type?: unknown;
  status?: unknown;
  message?: unknown;
  limit?: unknown;
  charset?: unknown;
}

/** Errors raised by express.json (body-parser) carry a `type` and a 4xx `status`. */
function fromBodyParser(err: HttpishError): ApiError | null {
  switch (err.type) {
    case 'entity.parse.failed':
      return detailError(400, messages.jsonParse(String(err.message)));
    case 'entity.too.large':
      return detailError(413, messages.bodyTooLarge(formatBytes(Number(err.limit))));
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return detailError(415, String(err.message));
    default:
      // Express's router refuses a path segment with broken percent-encoding.
      if (err.status === 400 && String(err.message).startsWith('Failed to decode param')) return detailError(400, messages.malformedPath);
      if (typeof err.status === 'number' && err.status >= 400 && err.status < 500) return detailError(err.status, String(err.message));
      return null;
  }
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${Math.round(bytes / 1024)} KB`;
}

export const errorHandler: ErrorRequestHandler = (err: unknown, _req, res, next) => {
  if (res.headersSent) {
    next(err);
    return;
  }
  if (err instanceof ApiError) {
    sendError(res, err);
    return;
  }
  const mapped = typeof err === 'object' && err !== null ? fromBodyParser(err as HttpishError) : null;
  if (mapped) {
    sendError(res, mapped);
    return;
  }
  console.error('cms-emulator: unexpected error while serving a request:', err);
  res.status(500).json({ detail: 'Internal server error.' });
};
