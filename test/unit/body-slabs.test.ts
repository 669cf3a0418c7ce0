/**
 * The request log's copies of bodies (server/http/body-slabs.ts): copies, not the sent buffers,
 * packed one after the other into shared slabs, one copy per source within a slab.
 */
import { describe, expect, it } from 'vitest';
import { BodySlabs, SLAB_BYTES } from '../../server/http/body-slabs.js';

const bytes = (length: number, fill: string) => Buffer.alloc(length, fill);

describe('BodySlabs', () => {
  it('copies the bytes: changing the source afterwards does not change the copy', () => {
    const slabs = new BodySlabs();
    const source = bytes(100, 'a');
    const copy = slabs.copy(source);
    source.fill('z');
    expect(copy.toString()).toBe('a'.repeat(100));
  });

  it('packs copies one after the other into one slab', () => {
    const slabs = new BodySlabs();
    const first = slabs.copy(bytes(100, 'a'));
    const second = slabs.copy(bytes(50, 'b'));
    expect(first.buffer).toBe(second.buffer);
    expect(first.buffer.byteLength).toBe(SLAB_BYTES);
    expect(second.byteOffset).toBe(first.byteOffset + 100);
    expect(first.toString()).toBe('a'.repeat(100));
    expect(second.toString()).toBe('b'.repeat(50));
  });

  it('copies only the first `length` bytes when asked (a body over the cap)', () => {
    const slabs = new BodySlabs();
    expect(slabs.copy(Buffer.from('abcdef'), 3).toString()).toBe('abc');
  });

  it('gives one copy for a source sent again and again, within a slab', () => {
    const slabs = new BodySlabs();
    const shared = bytes(1000, 's');
    expect(slabs.copy(shared)).toBe(slabs.copy(shared));
    // Asked for a different length, it is another copy.
    expect(slabs.copy(shared, 10)).not.toBe(slabs.copy(shared));
  });

  it('starts a new slab when the current one is full, and copies a known source again there', () => {
    const slabs = new BodySlabs();
    const shared = bytes(1000, 's');
    const before = slabs.copy(shared);
    const filler = bytes(64 * 1024, 'f');
    // Distinct sources until the first slab cannot take another.
    for (let used = 1000; used + filler.length <= SLAB_BYTES; used += filler.length) slabs.copy(Buffer.from(filler));
    const next = slabs.copy(Buffer.from(filler));
    expect(next.buffer).not.toBe(before.buffer);
    // The old copy would keep the old slab alive for its few bytes: the source is copied anew.
    const after = slabs.copy(shared);
    expect(after).not.toBe(before);
    expect(after.buffer).toBe(next.buffer);
    expect(after.toString()).toBe(before.toString());
  });

  it('gives a body larger than a slab a buffer of its own', () => {
    const slabs = new BodySlabs();
    const big = bytes(SLAB_BYTES + 1, 'x');
    const copy = slabs.copy(big);
    // Compared as booleans: the matchers describe a megabyte buffer slowly.
    expect(copy.length).toBe(SLAB_BYTES + 1);
    expect(copy === big || copy.buffer === big.buffer).toBe(false);
    expect(copy.equals(big)).toBe(true);
  });
});

describe('BodySlabs, where slabs come from', () => {
  // A WebAssembly memory's buffer is not detached by a transfer (it stays whole); a Buffer from
  // malloc is (it is left empty). Run last in a test: it empties the slab of a malloc'd Buffer.
  const detachable = (buffer: ArrayBufferLike) => {
    try {
      structuredClone(buffer, { transfer: [buffer as ArrayBuffer] });
    } catch {
      return false;
    }
    return buffer.byteLength === 0;
  };

  it('are WebAssembly memories, mapped by V8 and unmapped when collected', () => {
    const copy = new BodySlabs().copy(bytes(10, 'a'));
    expect(copy.buffer.byteLength).toBe(SLAB_BYTES);
    expect(detachable(copy.buffer)).toBe(false);
    expect(copy.toString()).toBe('a'.repeat(10));
  });

  it('come from malloc, for good, once a WebAssembly memory is refused', () => {
    let asked = 0;
    const refusing = {
      Memory: class {
        buffer = new ArrayBuffer(0);
        constructor() {
          asked += 1;
          throw new RangeError('WebAssembly.Memory(): could not allocate memory');
        }
      },
    };
    const slabs = new BodySlabs(refusing);
    const first = slabs.copy(bytes(SLAB_BYTES - 10, 'a'));
    const second = slabs.copy(bytes(100, 'b')); // a second slab
    expect(first.buffer).not.toBe(second.buffer);
    expect(second.toString()).toBe('b'.repeat(100));
    expect(asked).toBe(1);
    expect(detachable(second.buffer)).toBe(true);
  });

  it('come from malloc where there is no WebAssembly', () => {
    const copy = new BodySlabs(null).copy(bytes(10, 'c'));
    expect(copy.buffer.byteLength).toBe(SLAB_BYTES);
    expect(copy.toString()).toBe('c'.repeat(10));
    expect(detachable(copy.buffer)).toBe(true);
  });

  describe('copyText: a string written straight into a slab', () => {
    it('holds the UTF-8 bytes of the text, after the copies before it in the same slab', () => {
      const slabs = new BodySlabs();
      const before = slabs.copy(bytes(10, 'a'));
      const text = 'é ✓ 🚀 "quoted"';
      const copy = slabs.copyText(text, Buffer.byteLength(text));
      expect(copy.buffer).toBe(before.buffer);
      expect(copy.byteOffset).toBe(before.byteOffset + 10);
      expect(copy.equals(Buffer.from(text, 'utf8'))).toBe(true);
    });

    it('keeps the first `length` bytes at most, never part of a character', () => {
      const slabs = new BodySlabs();
      // 'a' then 'é' (2 bytes) then '🚀' (4 bytes): 3 bytes cut inside the rocket keep 'aé'.
      expect(slabs.copyText('aé🚀', 3).toString('utf8')).toBe('aé');
      expect(slabs.copyText('aé🚀', 6).toString('utf8')).toBe('aé');
      expect(slabs.copyText('aé🚀', 7).toString('utf8')).toBe('aé🚀');
    });

    it('starts a new slab when the text does not fit in what is left of the current one', () => {
      const slabs = new BodySlabs();
      const first = slabs.copy(bytes(SLAB_BYTES - 5, 'a'));
      const copy = slabs.copyText('0123456789', 10);
      expect(copy.buffer).not.toBe(first.buffer);
      expect(copy.toString()).toBe('0123456789');
    });
  });
});
