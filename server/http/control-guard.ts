/**
 * Who may use the control API (issue 6). It can reset, import and replay: on loopback only,
 * unless a control token is configured, in which case every control request must carry it
 * (`X-Control-Token: <token>`, or `?control_token=` for EventSource, which cannot set headers).
 */
import { timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { detailError } from '../domain/errors.js';

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function controlGuard(token: string | undefined): RequestHandler {
  return (req, _res, next) => {
    if (token === undefined) {
      if (!isLoopback(req.socket.remoteAddress))
        throw detailError(403, 'The control API answers only on loopback unless a control token is configured.');
      next();
      return;
    }
    const header = req.headers['x-control-token'];
    const query = (req.query as Record<string, unknown>)['control_token'];
    const given = typeof header === 'string' ? header : typeof query === 'string' ? query : undefined;
    if (given === undefined || !same(given, token))
      throw detailError(401, 'Send the control token as X-Control-Token (or control_token in the query).');
    next();
  };
}
