/** `serve` of the Bun adapter, under a real Bun (the `bun` npm package's binary). */
import { fileURLToPath } from 'node:url';
import { defineAdapterSuite } from './shared.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));

defineAdapterSuite('bun', { command: `${root}node_modules/.bin/bun`, args: [fileURLToPath(new URL('fixture.ts', import.meta.url))] });
