import { describe, expect, it } from 'vitest';
import { pageSlice, paginate } from './paginate.js';

describe('paginate', () => {
  it('describes the empty result as page 1 of 1', () => {
    expect(paginate(0, 7, 25, 0)).toEqual({
      last_visible_page: 1,
      has_next_page: false,
      current_page: 1,
      items: { count: 0, total: 0, per_page: 25 },
    });
  });

  it('describes a middle page', () => {
    expect(paginate(60, 2, 25, 25)).toEqual({
      last_visible_page: 3,
      has_next_page: true,
      current_page: 2,
      items: { count: 25, total: 60, per_page: 25 },
    });
  });

  it('describes the last page', () => {
    expect(paginate(60, 3, 25, 10)).toMatchObject({ last_visible_page: 3, has_next_page: false, current_page: 3 });
  });

  it('keeps true totals on a page past the end', () => {
    expect(paginate(60, 9, 25, 0)).toEqual({
      last_visible_page: 3,
      has_next_page: false,
      current_page: 9,
      items: { count: 0, total: 60, per_page: 25 },
    });
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
