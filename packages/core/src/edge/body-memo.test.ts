import { describe, expect, it } from 'vitest';
import { createBodyMemo } from './body-memo.js';

describe('createBodyMemo', () => {
  const counting = (options?: Parameters<typeof createBodyMemo>[2]) => {
    let calls = 0;
    const memo = createBodyMemo((text: string) => (calls++, new TextEncoder().encode(text)), (bytes) => bytes.byteLength, options);
    return { memo, calls: () => calls };
  };

  it('encodes a large body once and returns the same encoding after', () => {
    const { memo, calls } = counting({ minChars: 4 });
    const first = memo('アニメ page');
    expect(new TextDecoder().decode(first)).toBe('アニメ page');
    expect(memo('アニメ page')).toBe(first);
    expect(calls()).toBe(1);
  });

  it('encodes short bodies every time without keeping them', () => {
    const { memo, calls } = counting({ minChars: 100 });
    memo('short');
    memo('short');
    expect(calls()).toBe(2);
  });

  it('remembers bodies of 1,024 characters and more by default', () => {
    const { memo, calls } = counting();
    memo('a'.repeat(1023));
    memo('a'.repeat(1023));
    memo('b'.repeat(1024));
    memo('b'.repeat(1024));
    expect(calls()).toBe(3);
  });

  it('forgets the oldest bodies past its byte bound, keys counted, and never keeps one over a quarter of it', () => {
    // Each body below takes 20 bytes: 10 encoded and 10 for the string it is kept under.
    const { memo, calls } = counting({ minChars: 1, maxBytes: 80 });
    memo('a'.repeat(10));
    memo('b'.repeat(10));
    memo('c'.repeat(10));
    memo('d'.repeat(10));
    memo('e'.repeat(10)); // 100 bytes: 'a' goes
    expect(calls()).toBe(5);
    memo('b'.repeat(10));
    expect(calls()).toBe(5);
    memo('a'.repeat(10));
    expect(calls()).toBe(6);
    memo('x'.repeat(11));
    memo('x'.repeat(11));
    expect(calls()).toBe(8);
  });
});
