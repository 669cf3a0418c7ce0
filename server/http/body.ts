/**
 * JSON bodies for writes. express.json parses `application/json` (and `+json`) only; a body of
 * another type is refused with 415 instead of being silently read as empty.
 */
import express, { type RequestHandler } from 'express';
import { detailError } from '../domain/errors.js';
import { messages } from '../domain/messages.js';

export function jsonBody(limit: string): RequestHandler[] {
  const parse = express.json({ limit, strict: false, type: ['application/json', 'application/*+json'] });
  const requireJson: RequestHandler = (req, _res, next) => {
    const length = Number(req.headers['content-length'] ?? 0);
    const hasBody = req.headers['transfer-encoding'] !== undefined || length > 0;
    if (hasBody && req.body === undefined) {
      next(detailError(415, messages.unsupportedMediaType(req.headers['content-type'] ?? '')));
      return;
    }
    next();
  };
  return [parse, requireJson];
}
