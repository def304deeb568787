import { describe, expect, it } from 'vitest';
import { resolveImagePaths } from './image-host.js';

describe('resolveImagePaths', () => {
  it('prefixes /s/ paths with {cdn_url}/images, anywhere in the body', () => {
    const body = { data: [{ jpg: { image_url: '/s/common/a.jpg' } }, { jpg: { image_url: null } }], title: 'x' };
    expect(resolveImagePaths(body, 'https://cdn.example/')).toEqual({
      data: [{ jpg: { image_url: 'https://cdn.example/images/s/common/a.jpg' } }, { jpg: { image_url: null } }],
      title: 'x',
    });
  });

  it('leaves absolute URLs and other paths alone and returns the same object when nothing changes', () => {
    const body = { a: 'https://cdn.myanimelist.net/images/anime/1.jpg', b: '/images/x.jpg', c: ['/sx/y'] };
    expect(resolveImagePaths(body, 'https://cdn.example')).toBe(body);
  });

  it('does not mutate its input', () => {
    const body = { jpg: { image_url: '/s/a.jpg' } };
    resolveImagePaths(body, 'https://cdn.example');
    expect(body.jpg.image_url).toBe('/s/a.jpg');
  });
});
