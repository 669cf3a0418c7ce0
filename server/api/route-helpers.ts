/** Small pieces every router of the emulated API uses. */
import type { Request, RequestHandler, Response } from 'express';
import { CDN_PATH } from '../media/cdn-path.js';
import { notFound } from '../domain/errors.js';
import type { Cause } from '../domain/events.js';
import { messages } from '../domain/messages.js';
export { methodNotAllowed } from '../http/method-not-allowed.js';

/** A read that `--strict` turns off answers as if it did not exist. */
export const turnedOff: RequestHandler = () => {
  throw notFound(messages.notFound);
};

declare module 'express-serve-static-core' {
  interface Locals {
    /** Id of this request in the request log (issue 6); null until the log exists. */
    requestId?: string;
  }
}

/** The CDN base URL as the client reached us (host and scheme of this request). */
export function cdnBase(req: Request): string {
  return `${req.protocol}://${req.get('host') ?? 'localhost'}${CDN_PATH}`;
}

export function apiCause(res: Response): Cause {
  return { kind: 'api', requestId: res.locals.requestId ?? null };
}
