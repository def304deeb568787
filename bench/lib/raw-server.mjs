/**
 * The runtime's own HTTP server answering recorded answers as prepared bytes (node:http
 * `writeHead` + `end`, `Bun.serve`, `Deno.serve`): the ceiling an example server is measured
 * against in `bench/examples.mjs`. `ANSWERS` names a JSON file `{ [target]: { status, headers, body } }`
 * (body as base64), recorded from the example server itself, so both send the same bytes.
 * Prints `raw listening on <url>`. Plain ESM for Node, Bun and Deno alike.
 * @module
 */
const runtime = typeof globalThis.Bun !== 'undefined' ? 'bun' : typeof globalThis.Deno !== 'undefined' ? 'deno' : 'node';
const env = runtime === 'deno' ? globalThis.Deno.env.toObject() : process.env;
const hostname = '127.0.0.1';
const port = Number(env.PORT ?? 0);
const file = runtime === 'deno' ? globalThis.Deno.readTextFileSync(env.ANSWERS) : (await import('node:fs')).readFileSync(env.ANSWERS, 'utf8');
const answers = new Map();
for (const [target, { status, headers, body }] of Object.entries(JSON.parse(file))) {
  const bytes = Uint8Array.from(atob(body), (c) => c.charCodeAt(0));
  answers.set(target, { status, headers: { ...headers, 'content-length': String(bytes.byteLength) }, bytes });
}
const missing = { status: 404, headers: { 'content-length': '0' }, bytes: new Uint8Array(0) };
let url;
if (runtime === 'node') {
  const { createServer } = await import('node:http');
  for (const answer of answers.values()) answer.bytes = Buffer.from(answer.bytes);
  const server = createServer((req, res) => {
    const { status, headers, bytes } = answers.get(req.url) ?? missing;
    res.writeHead(status, headers).end(bytes);
  });
  await new Promise((resolve) => server.listen(port, hostname, resolve));
  url = `http://${hostname}:${server.address().port}`;
} else {
  const fetch = (request) => {
    const u = request.url;
    const { status, headers, bytes } = answers.get(u.slice(u.indexOf('/', 8))) ?? missing;
    return new Response(bytes, { status, headers });
  };
  if (runtime === 'bun') url = globalThis.Bun.serve({ port, hostname, fetch }).url.origin;
  else url = `http://${hostname}:${globalThis.Deno.serve({ port, hostname, onListen() {} }, fetch).addr.port}`;
}
console.log(`raw listening on ${url}`);
