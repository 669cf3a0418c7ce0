/**
 * Turns zod issues on a request body into the spec's validation shape: an object keyed by the
 * offending field, each value an array of messages (spec: Errors). Nested paths are joined with
 * dots (`author.email`). Messages use the real service's framework wording (messages.ts).
 */
import type { z } from 'zod';
import type { FieldErrors } from './errors.js';
import { messages } from './messages.js';

export function toFieldErrors(error: z.ZodError, input: unknown): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.length === 0 ? 'non_field_errors' : issue.path.map(String).join('.');
    const list = (fields[key] ??= []);
    const message = describe(issue, valueAt(input, issue.path));
    if (!list.includes(message)) list.push(message);
  }
  return fields;
}

function describe(issue: z.core.$ZodIssue, value: unknown): string {
  switch (issue.code) {
    case 'invalid_type':
      if (value === undefined) return messages.required;
      if (value === null) return messages.notNull;
      if (issue.expected === 'string') return messages.notString;
      if (issue.expected === 'boolean') return messages.notBoolean;
      if (issue.expected === 'array') return messages.notList(typeName(value));
      if (issue.expected === 'object') return messages.notObject(typeName(value));
      return issue.message;
    case 'too_big':
      return issue.origin === 'string' ? messages.maxLength(Number(issue.maximum)) : issue.message;
    case 'too_small':
      return issue.origin === 'string' && Number(issue.minimum) === 1 ? messages.blank : issue.message;
    case 'invalid_value':
      return messages.invalidChoice(typeof value === 'string' ? value : JSON.stringify(value));
    case 'invalid_format':
      return issue.format === 'url' ? messages.invalidUrl : issue.message;
    default:
      return issue.message;
  }
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = input;
  for (const part of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[part];
  }
  return current;
}

/** Python type names, as the real service's messages use them. */
export function typeName(value: unknown): string {
  if (value === null) return 'NoneType';
  if (Array.isArray(value)) return 'list';
  switch (typeof value) {
    case 'string':
      return 'str';
    case 'number':
      return Number.isInteger(value) ? 'int' : 'float';
    case 'boolean':
      return 'bool';
    default:
      return 'dict';
  }
}
