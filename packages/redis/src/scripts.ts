/**
 * The Lua scripts of the Redis back end, and how they are run: `EVALSHA`, falling back to `EVAL`
 * once when Redis answers `NOSCRIPT` (after a restart or `SCRIPT FLUSH`).
 * @module
 */

/** Sends one Redis command and resolves with its reply (node-redis `sendCommand`, Bun `send`, …). */
export type SendCommand = (args: string[]) => Promise<unknown>;

/**
 * One atomic check of all windows of a tier (anchors-notes B.6): read every counter; if any is
 * full, increment none; otherwise increment all. TTLs are relative so that an injected clock and
 * Redis's own clock never disagree about expiry; window starts are in the keys.
 * KEYS: the window counters. ARGV: limit and TTL (ms) per window. Reply: {allowed, count…}.
 */
export const HIT_SCRIPT = `
local counts = {}
local allowed = 1
for i = 1, #KEYS do
  local c = tonumber(redis.call('GET', KEYS[i]) or '0')
  counts[i] = c
  if c + 1 > tonumber(ARGV[2 * i - 1]) then allowed = 0 end
end
if allowed == 1 then
  for i = 1, #KEYS do
    counts[i] = redis.call('INCR', KEYS[i])
    if counts[i] == 1 then redis.call('PEXPIRE', KEYS[i], ARGV[2 * i]) end
  end
end
table.insert(counts, 1, allowed)
return counts
`;

/**
 * Records a rate-limited response and starts a block at the threshold, doubling a repeat.
 * KEYS: rejections (sorted set by time), block (hash: until, strike).
 * ARGV: now, windowMs, threshold, durationMs, maxDurationMs, repeatWithinMs, unique member.
 * Reply: when the new block ends, or -1.
 */
export const REJECT_SCRIPT = `
local now = tonumber(ARGV[1])
local ends = tonumber(redis.call('HGET', KEYS[2], 'until') or '0')
if ends > now then return -1 end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[2]))
redis.call('ZADD', KEYS[1], now, ARGV[7])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[3]) then return -1 end
redis.call('DEL', KEYS[1])
local strike = 1
if ends > 0 and now - ends < tonumber(ARGV[6]) then
  strike = tonumber(redis.call('HGET', KEYS[2], 'strike') or '0') + 1
end
local duration = math.min(tonumber(ARGV[4]) * 2 ^ math.min(strike - 1, 40), tonumber(ARGV[5]))
local new_until = now + duration
redis.call('HSET', KEYS[2], 'until', string.format('%d', new_until), 'strike', strike)
redis.call('PEXPIRE', KEYS[2], string.format('%d', duration + tonumber(ARGV[6])))
return new_until
`;

async function sha1(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-1', new TextEncoder().encode(text)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Makes a runner for one script.
 * @param send - How commands reach Redis.
 * @param script - The Lua source.
 * @returns A function from keys and arguments to the script's reply.
 */
export function createScript(send: SendCommand, script: string): (keys: string[], args: string[]) => Promise<unknown> {
  const digest = sha1(script);
  return async (keys, args) => {
    const tail = [String(keys.length), ...keys, ...args];
    try {
      return await send(['EVALSHA', await digest, ...tail]);
    } catch (error) {
      if (!String((error as Error | undefined)?.message).startsWith('NOSCRIPT')) throw error;
      // EVAL also caches the script, so later calls go back to EVALSHA.
      return send(['EVAL', script, ...tail]);
    }
  };
}
