import type { RequestHandler } from 'express';
import { detailError } from '../domain/errors.js';
import { messages } from '../domain/messages.js';

/** For `.all()` after a route's methods: 405 in the real service's wording, with `Allow`. */
export function methodNotAllowed(...allowed: string[]): RequestHandler {
  const allow = [...allowed, ...(allowed.includes('GET') ? ['HEAD'] : [])].join(', ');
  return (req) => {
    throw detailError(405, messages.methodNotAllowed(req.method), { Allow: allow });
  };
}
