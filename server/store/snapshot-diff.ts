/**
 * What changed in the store since its last write, so only that reaches the write worker
 * (write-worker.ts keeps a copy of the data). Structured-cloning all of a 74 MB store for each
 * write stalls the event loop for ~0.2 s; comparing it with a shadow of the last write costs a
 * fraction of that and leaves a few small changes to clone.
 *
 * The shadow mirrors the data's objects and arrays and shares its strings and other primitives,
 * so a comparison is mostly identity checks. It records keys in order: JSON text follows the
 * order of keys, so a reordered object is a change. Anything that is not a plain object, an array
 * or a primitive (a Date, a Map) is opaque: always sent again, as JSON.stringify may read it in
 * its own way.
 */

/** Set `value` at `path` (the root when empty), or append `values` to the array at `path`. */
export type Change =
  { op: 'set'; path: (string | number)[]; value: unknown } | { op: 'push'; path: (string | number)[]; values: unknown[] };

interface ShadowObject {
  keys: string[];
  values: Shadow[];
}
interface ShadowArray {
  items: Shadow[];
}
const OPAQUE = Symbol('opaque');
type Primitive = string | number | boolean | bigint | symbol | null | undefined;
export type Shadow = ShadowObject | ShadowArray | typeof OPAQUE | Primitive;

const hasOwn = Object.prototype.hasOwnProperty;

function isPlainObject(value: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

export function shadowOf(value: unknown): Shadow {
  return shadowWith(value, new Map<string, string[][]>());
}

/**
 * The shadow of `value`, its objects sharing one keys array per set of keys (`shapes`, one map per
 * shadow taken: a store's records have a few dozen shapes), and every array sized exactly: on the
 * large store (bench/generate-store.ts) the shadow takes ~24 MB of heap rather than 66 MB with a
 * keys array per object and arrays grown by push. A shadow's keys are only ever read (diff()
 * replaces an object whose keys change), so sharing them is safe; its values and items are
 * written in place.
 */
function shadowWith(value: unknown, shapes: Map<string, string[][]>): Shadow {
  if (typeof value === 'function') return OPAQUE;
  // What is neither an object nor a function is a primitive.
  if (typeof value !== 'object' || value === null) return value as Primitive;
  if (Array.isArray(value)) return { items: value.map((item: unknown) => shadowWith(item, shapes)) };
  if (!isPlainObject(value)) return OPAQUE;
  // Own enumerable string keys, in the order of for…in over a plain object (which diff() walks).
  const keys = sharedKeys(Object.keys(value), shapes);
  return { keys, values: keys.map((key) => shadowWith((value as Record<string, unknown>)[key], shapes)) };
}

/** Shapes kept per first key; past that an object keeps its own keys array. */
const SHAPES_PER_FIRST_KEY = 16;

/**
 * An equal keys array met before, or `keys` (then remembered). Looked up by the first key and
 * compared key by key: property names are internalized strings, so each comparison is cheap, where
 * joining the keys into one string to look it up doubled the time of a shadow.
 */
function sharedKeys(keys: string[], shapes: Map<string, string[][]>): string[] {
  const first = keys[0];
  if (first === undefined) return keys;
  let candidates = shapes.get(first);
  if (!candidates) shapes.set(first, (candidates = []));
  for (const candidate of candidates) {
    if (candidate.length !== keys.length) continue;
    let i = 1;
    while (i < keys.length && candidate[i] === keys[i]) i += 1;
    if (i === keys.length) return candidate;
  }
  if (candidates.length < SHAPES_PER_FIRST_KEY) candidates.push(keys);
  return keys;
}

/**
 * Compares `current` with `shadow` (of the value at `path`), appends to `changes` what brings a
 * copy of the old value to the current one, and returns the shadow of the current value.
 * `path` is a stack, shared down the walk; a change copies it.
 */
export function diff(current: unknown, shadow: Shadow, path: (string | number)[], changes: Change[]): Shadow {
  if (typeof current !== 'object' || current === null) {
    if (typeof current !== 'function' && Object.is(current, shadow)) return shadow;
    changes.push({ op: 'set', path: [...path], value: current });
    return shadowOf(current);
  }
  if (Array.isArray(current)) {
    if (!isShadowArray(shadow) || current.length < shadow.items.length) return replaced(current, path, changes);
    const items = shadow.items;
    for (let i = 0; i < items.length; i++) {
      const value: unknown = current[i];
      if (value === items[i] && typeof value !== 'object' && typeof value !== 'function') continue;
      path.push(i);
      items[i] = diff(value, items[i], path, changes);
      path.pop();
    }
    if (current.length > items.length) {
      const added = current.slice(items.length);
      changes.push({ op: 'push', path: [...path], values: added });
      for (const value of added) items.push(shadowOf(value));
    }
    return shadow;
  }
  if (!isPlainObject(current) || !isShadowObject(shadow)) return replaced(current, path, changes);
  const { keys, values } = shadow;
  let i = 0;
  for (const key in current) {
    if (!hasOwn.call(current, key)) continue;
    // A key added, removed or moved changes the order of the text: the object is sent whole.
    if (keys[i] !== key) return replaced(current, path, changes);
    const value = (current as Record<string, unknown>)[key];
    // Most values are the very strings and numbers they were: no call for those.
    if (value !== values[i] || typeof value === 'object' || typeof value === 'function') {
      path.push(key);
      values[i] = diff(value, values[i], path, changes);
      path.pop();
    }
    i += 1;
  }
  return i === keys.length ? shadow : replaced(current, path, changes);
}

function replaced(current: unknown, path: (string | number)[], changes: Change[]): Shadow {
  changes.push({ op: 'set', path: [...path], value: current });
  return shadowOf(current);
}

const isShadowArray = (shadow: Shadow): shadow is ShadowArray => typeof shadow === 'object' && shadow !== null && 'items' in shadow;
const isShadowObject = (shadow: Shadow): shadow is ShadowObject => typeof shadow === 'object' && shadow !== null && 'keys' in shadow;
