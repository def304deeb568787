import { createApiReferenceApp, SWAGGER_UI_VERSION } from '@catalogue-api/api-reference';
import { combineApps, createCatalogueApp, createStatusApp } from '@catalogue-api/core';
import { describe, expect, it } from 'vitest';

const get = (app: { fetch(request: Request): Promise<Response> }, path: string, init?: RequestInit) => app.fetch(new Request(`http://localhost${path}`, init));

describe('api reference app', () => {
  const app = createApiReferenceApp();

  it('serves the page at /v1/docs with its files beside it and the document relative to it', async () => {
    const res = await get(app, '/v1/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toContain("connect-src 'self'");
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self';");
    const html = await res.text();
    const v = `?v=${SWAGGER_UI_VERSION}`;
    expect(html).toContain(`<script src="docs/swagger-ui-bundle.js${v}"></script>`);
    expect(html).toContain(`<link rel="stylesheet" href="docs/swagger-ui.css${v}">`);
    expect(html).toContain('data-url="openapi.json"');
    expect(html).not.toMatch(/https?:\/\//);
    for (const [path, type] of [
      ['/v1/docs/swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
      ['/v1/docs/init.js', 'text/javascript; charset=utf-8'],
      ['/v1/docs/swagger-ui.css', 'text/css; charset=utf-8'],
      ['/v1/docs/page.css', 'text/css; charset=utf-8'],
      ['/v1/docs/swagger-ui-bundle.js.LICENSE.txt', 'text/plain; charset=utf-8'],
    ]) {
      const file = await get(app, `${path}${v}`);
      expect(file.status, path).toBe(200);
      expect(file.headers.get('content-type'), path).toBe(type);
      expect(file.headers.get('cache-control'), path).toBe('public, max-age=86400');
      expect((await file.text()).length, path).toBeGreaterThan(50);
    }
    expect(await (await get(app, '/v1/docs/swagger-ui-bundle.js')).text()).toContain('SwaggerUIBundle');
    expect(await (await get(app, '/v1/docs/init.js')).text()).toContain('validatorUrl: null');
  });

  it('answers HEAD with the length and no body, OPTIONS with 204, other methods with 405 and unknown files with 404', async () => {
    const head = await get(app, '/v1/docs/swagger-ui.css', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const css = await (await get(app, '/v1/docs/swagger-ui.css')).arrayBuffer();
    expect(head.headers.get('content-length')).toBe(String(css.byteLength));
    expect((await get(app, '/v1/docs', { method: 'OPTIONS' })).status).toBe(204);
    const post = await get(app, '/v1/docs', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(await post.json()).toMatchObject({ status: 405, type: 'MethodNotAllowedException', path: '/v1/docs' });
    const missing = await get(app, '/v1/docs/nothing.js');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ status: 404, type: 'NotFoundException', path: '/v1/docs/nothing.js' });
  });

  it('escapes the title and document URL, and serves under another path', async () => {
    const other = createApiReferenceApp({ path: '/reference/', title: '<b>"API"</b>', documentUrl: '/v1/openapi.json?x="1"' });
    expect(other.owns('/reference')).toBe(true);
    expect(other.owns('/v1/docs')).toBe(false);
    const html = await (await get(other, '/reference')).text();
    expect(html).toContain('<title>&lt;b&gt;&quot;API&quot;&lt;/b&gt;</title>');
    expect(html).toContain('data-url="/v1/openapi.json?x=&quot;1&quot;"');
    expect(html).toContain('src="reference/init.js');
    expect(() => createApiReferenceApp({ path: 'docs' })).toThrow(RangeError);
  });

  it('leaves the catalogue untouched beside it: the same OpenAPI document byte for byte, the same 404s', async () => {
    const catalogue = createCatalogueApp({ gateway: false });
    const alone = await (await get(catalogue, '/v1/openapi.json')).text();
    const both = combineApps(createStatusApp({ services: [] }), app, catalogue);
    expect(await (await get(both, '/v1/openapi.json')).text()).toBe(alone);
    expect(JSON.parse(alone).paths['/v1/docs']).toBeUndefined();
    expect((await get(both, '/v1/anime?q=naruto')).status).toBe(200);
    const root = await get(both, '/');
    expect(root.status).toBe(404);
    expect(await root.json()).toMatchObject({ path: '/' });
    expect((await get(both, '/v1/docs')).headers.get('content-type')).toBe('text/html; charset=utf-8');
  });
});
