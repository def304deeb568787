import { describe, expect, it } from 'vitest';
import { ApiError } from '../edge/errors.js';
import { parseQuery } from '../edge/query.js';
import { animeSearchQuery } from '../catalogue/routes/anime.js';
import { withoutStackTraces } from './no-stack.js';

const frames = (error: unknown) => ((error as Error).stack ?? '').split('\n').filter((line) => line.trimStart().startsWith('at ')).length;

describe('errors the API expects carry no stack; everything else keeps its own', () => {
  it('ApiError, a failed query parse (and the ZodError inside it) capture no frames', () => {
    expect(frames(new ApiError(404, 'gone'))).toBe(0);
    let thrown: unknown;
    try {
      parseQuery(animeSearchQuery, { limit: '99' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect((thrown as ApiError).message).toBe('limit must be an integer from 1 to 50');
    expect(frames(thrown)).toBe(0);
  });

  it('restores the limit, also when the work throws', () => {
    const before = Error.stackTraceLimit;
    expect(() =>
      withoutStackTraces(() => {
        throw new Error('inside');
      }),
    ).toThrow('inside');
    expect(Error.stackTraceLimit).toBe(before);
    expect(frames(new Error('a fault'))).toBeGreaterThan(0);
    expect(frames(new ApiError(400, 'bad'))).toBe(0);
    expect(frames(new Error('still a fault'))).toBeGreaterThan(0);
  });
});
