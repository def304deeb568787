/**
 * Run by `serve.test.ts` under Deno: serves an echo app (path and client address) with a `/slow`
 * route through the adapter, prints its URL, and closes gracefully through the abort signal on SIGTERM.
 */
import { echoWebApp, startFixture } from '../../../test/support/adapter-fixture.ts';
import { serve } from '../src/index.ts';

declare const Deno: { addSignalListener(signal: string, listener: () => void): void; exit(code: number): never };

const stop = await startFixture(serve, echoWebApp);
Deno.addSignalListener('SIGTERM', () => void stop().then(() => Deno.exit(0)));
