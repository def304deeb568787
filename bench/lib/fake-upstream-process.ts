/**
 * The fake upstream of `bench/fresh-data.ts` (the testkit's `createFakeUpstream` holding the demo
 * catalogue) in a process of its own, so that the time it spends answering a refresher is not
 * taken from the process that times the API's answers. Started with `fork` (an IPC channel) and
 * the limits as JSON in `argv[2]`; sends `{ url }` once it listens, answers the message `log` with
 * `{ log, violations }`, and closes and exits on `close`.
 * @module
 */
import { createCatalogueApp, createMemoryStore } from '@catalogue-api/core';
import { demoData } from '@catalogue-api/demo-data';
import { createFakeUpstream, type FakeRecord } from '../../packages/testkit/src/fake-upstream.ts';

const limits = JSON.parse(process.argv[2] ?? '{}') as { perSecond: number; perMinute: number; slackMs?: number };
const upstream = await createFakeUpstream({
  anime: demoData.anime as unknown as FakeRecord[],
  manga: demoData.manga as unknown as FakeRecord[],
  backing: createCatalogueApp({ store: createMemoryStore(demoData) }),
  limits: { perSecond: limits.perSecond, perMinute: limits.perMinute },
  slackMs: limits.slackMs ?? 0,
});
process.send!({ url: upstream.url });
process.on('message', (message) => {
  if (message === 'log') process.send!({ log: upstream.log, violations: upstream.violations });
  else if (message === 'close') void upstream.close().then(() => process.exit(0));
});
// The parent's end: gone with it.
process.on('disconnect', () => process.exit(0));
