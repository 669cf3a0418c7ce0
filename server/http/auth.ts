/**
 * Token authentication (spec: Authentication). Reads take the token as `auth_token` in the query
 * or as `Authorization: Token <token>` (the header form the real service uses); writes take
 * only the header, and only the write token. Either token of an organization may read.
 */
import type { Request, RequestHandler, Response } from 'express';
import { unauthorized } from '../domain/errors.js';
import { messages } from '../domain/messages.js';
import type { Organization } from '../store/schema.js';
import type { Store } from '../store/store.js';

export type TokenKind = 'read' | 'write';

export interface AuthContext {
  organization: Organization;
  token: TokenKind;
}

declare module 'express-serve-static-core' {
  interface Locals {
    auth?: AuthContext;
  }
}

/** DRF-style challenge, so clients know which scheme to send. */
const CHALLENGE = { 'WWW-Authenticate': 'Token' };

function headerToken(req: Request): string | undefined {
  const match = /^Token\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return match?.[1];
}

function queryToken(req: Request): string | undefined {
  const value = (req.query as Record<string, unknown>)['auth_token'];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function findToken(store: Store, token: string): AuthContext | undefined {
  for (const organization of store.organizations()) {
    if (organization.tokens.write === token) return { organization, token: 'write' };
    if (organization.tokens.read === token) return { organization, token: 'read' };
  }
  return undefined;
}

export function requireRead(store: Store): RequestHandler {
  return (req, res, next) => {
    const token = headerToken(req) ?? queryToken(req);
    if (token === undefined) throw unauthorized(messages.noCredentials).withHeaders(CHALLENGE);
    const auth = findToken(store, token);
    if (!auth) throw unauthorized(messages.invalidToken).withHeaders(CHALLENGE);
    res.locals.auth = auth;
    next();
  };
}

export function requireWrite(store: Store): RequestHandler {
  return (req, res, next) => {
    const token = headerToken(req);
    if (token === undefined) {
      const message = queryToken(req) === undefined ? messages.noCredentials : messages.writeTokenHeaderOnly;
      throw unauthorized(message).withHeaders(CHALLENGE);
    }
    const auth = findToken(store, token);
    if (!auth) throw unauthorized(messages.invalidToken).withHeaders(CHALLENGE);
    if (auth.token !== 'write') throw unauthorized(messages.readTokenCannotWrite).withHeaders(CHALLENGE);
    res.locals.auth = auth;
    next();
  };
}

/** The organization the request authenticated as; routes run only after an auth middleware. */
export function authOf(res: Response): AuthContext {
  const auth = res.locals.auth;
  if (!auth) throw new Error('authOf called on a route without authentication');
  return auth;
}
