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

  it('forgets the oldest bodies past its byte bound, and never keeps one over a quarter of it', () => {
    const { memo, calls } = counting({ minChars: 1, maxBytes: 40 });
    memo('a'.repeat(10));
    memo('b'.repeat(10));
    memo('c'.repeat(10));
    memo('d'.repeat(10));
    memo('e'.repeat(10)); // 50 bytes: 'a' goes
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
