/**
 * CORS for the emulated API and the CDN (issue 6; real service: `Access-Control-Allow-Origin: *`
 * on the read API), so browser apps can call the emulator, preflights with `Authorization`
 * included. The control API does not answer cross-origin requests.
 */
import type { RequestHandler } from 'express';

export const cors: RequestHandler = (req, res, next) => {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Expose-Headers', 'ETag, Content-Length, WWW-Authenticate');
  if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
    res.setHeader('Access-Control-Allow-Methods', 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
    res.setHeader('Access-Control-Allow-Headers', req.headers['access-control-request-headers'] ?? 'Authorization, Content-Type');
    res.setHeader('Access-Control-Max-Age', '600');
    res.setHeader('Vary', 'Access-Control-Request-Headers');
    res.status(204).end();
    return;
  }
  next();
};
