import { describe, expect, it } from 'vitest';
import { pageSlice, paginate } from './paginate.js';

describe('paginate', () => {
  it.each([
    ['describes the empty result as page 1 of 1', { total: 0, page: 7, count: 0, last: 1, next: false, current: 1 }],
    ['describes a middle page', { total: 60, page: 2, count: 25, last: 3, next: true, current: 2 }],
    ['keeps true totals on a page past the end', { total: 60, page: 9, count: 0, last: 3, next: false, current: 9 }],
  ])('%s', (_name, { total, page, count, last, next, current }) => {
    expect(paginate(total, page, 25, count)).toEqual({
      last_visible_page: last,
      has_next_page: next,
      current_page: current,
      items: { count, total, per_page: 25 },
    });
  });

  it('describes the last page', () => {
    expect(paginate(60, 3, 25, 10)).toMatchObject({ last_visible_page: 3, has_next_page: false, current_page: 3 });
  });

  it('never offers a page beyond 1000', () => {
    expect(paginate(100_000, 1000, 50, 50)).toMatchObject({ last_visible_page: 1000, has_next_page: false });
  });

  it('slices pages', () => {
    const items = Array.from({ length: 7 }, (_, i) => i);
    expect(pageSlice(items, 1, 3)).toEqual([0, 1, 2]);
    expect(pageSlice(items, 3, 3)).toEqual([6]);
    expect(pageSlice(items, 4, 3)).toEqual([]);
  });
});
