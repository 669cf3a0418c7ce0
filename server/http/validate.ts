/**
 * zod at the HTTP edge: query parameters and bodies are parsed here before any handler logic.
 * A query failure is a 400 `{detail}` carrying the message its schema declares.
 */
import type { Request } from 'express';
import { z } from 'zod';
import { badRequest, detailError } from '../domain/errors.js';
import { typeName } from '../domain/field-errors.js';
import { messages } from '../domain/messages.js';

export function parseQuery<S extends z.ZodObject>(schema: S, req: Request): z.output<S> {
  const query = req.query as Record<string, unknown>;
  for (const key of Object.keys(schema.shape)) {
    if (Array.isArray(query[key])) throw badRequest(messages.repeatedParam(key));
  }
  const result = schema.safeParse(query);
  if (!result.success) throw badRequest(result.error.issues[0]?.message ?? messages.invalid);
  return result.data;
}

export function parseParams<S extends z.ZodObject>(schema: S, req: Request): z.output<S> {
  const result = schema.safeParse(req.params);
  if (!result.success) throw badRequest(result.error.issues[0]?.message ?? messages.invalid);
  return result.data;
}

/**
 * A control-API body checked against `schema` (an absent body is `{}`); a mismatch is a 400
 * whose detail lists every problem (z.prettifyError).
 */
export function parseControlBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(body ?? {});
  if (!result.success) throw detailError(400, z.prettifyError(result.error));
  return result.data;
}

/** The JSON body of a write as an object; an absent body is `{}`. */
export function bodyObject(req: Request): Record<string, unknown> {
  const body: unknown = req.body;
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw detailError(400, messages.notAnObject(typeName(body)));
  }
  return body as Record<string, unknown>;
}
