/**
 * A preload for `bench/operations.mjs`'s **busy** server: every HTTP answer first busy-waits
 * `BUSY_US` microseconds (default 0.5) on the main thread, and nothing else changes. What that
 * server loses against **off** is what this much CPU per request costs on the machine the bench
 * runs on, to set beside what the access log and metrics cost.
 *
 *   node --import ./bench/lib/busy-response.mjs examples/node/dist/server.js
 * @module
 */
import { ServerResponse } from 'node:http';

const ms = Number(process.env.BUSY_US ?? 0.5) / 1000;
const writeHead = ServerResponse.prototype.writeHead;
ServerResponse.prototype.writeHead = function busyWriteHead(...args) {
  const until = performance.now() + ms;
  while (performance.now() < until);
  return writeHead.apply(this, args);
};
