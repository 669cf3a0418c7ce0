/**
 * Requests and responses made with the Express app's own prototypes from the start, for the
 * server's `IncomingMessage` and `ServerResponse` options.
 *
 * Express gives every request and response its app's prototypes (`app.request`, `app.response`)
 * with `Object.setPrototypeOf` as they enter the app. Changing a live object's prototype costs V8
 * far more than the call: measured on a bare Express 5 app answering 30 KB of JSON
 * (docs/performance.md, session 6), each request's objects then outlived the young generation's
 * collections and ~8.8 KB a request was copied into the old generation (92 bytes without the
 * swap), and the app answered 17,000–18,700 requests/s against 21,000–24,000. On the emulator
 * those promoted objects were most of what filled the old generation under reads, and they kept
 * the response bodies the request log points at alive with them (expressjs/express#5998 proposes
 * the same construction). Made with the app's prototypes already, the swap is a no-op (V8 returns
 * early when the prototype is unchanged) and Express behaves as before.
 *
 * Node's constructors are plain functions (not classes) up to at least Node 24, which is what lets
 * a constructor of ours run them on an object of our prototype; if one ever is a class, the
 * server keeps Node's own and Express swaps prototypes as usual.
 */
import { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';

export interface ExpressMessageClasses {
  IncomingMessage: typeof IncomingMessage;
  ServerResponse: typeof ServerResponse;
}

const isClass = (constructor: object): boolean => /^class\b/.test(Function.prototype.toString.call(constructor));

/** A constructor that runs `base` on an object whose prototype is `prototype`. */
function madeWith<T extends object>(base: T, prototype: object): T {
  function Made(this: object, ...args: unknown[]): void {
    Reflect.apply(base as unknown as (...a: unknown[]) => void, this, args);
  }
  Made.prototype = prototype;
  // The server only ever calls it with `new`, as it would Node's own constructor.
  return Made as unknown as T;
}

/** The server options that give `app`'s requests and responses its prototypes at creation, or none. */
export function expressMessageClasses(app: Express): ExpressMessageClasses | Record<string, never> {
  if (isClass(IncomingMessage) || isClass(ServerResponse)) return {};
  return {
    IncomingMessage: madeWith(IncomingMessage, app.request),
    ServerResponse: madeWith(ServerResponse, app.response),
  };
}
