/**
 * The Lua scripts of the Redis back end, and how they are run: `EVALSHA`, falling back to `EVAL`
 * once when Redis answers `NOSCRIPT` (after a restart or `SCRIPT FLUSH`).
 * @module
 */

/** Sends one Redis command and resolves with its reply (node-redis `sendCommand`, Bun `send`, …). */
export type SendCommand = (args: string[]) => Promise<unknown>;

/**
 * One atomic check of all windows of a tier (docs/specification.md: Rate-limit counters): read every counter; if any is
 * full, increment none; otherwise increment all. TTLs are relative so that an injected clock and
 * Redis's own clock never disagree about expiry; window starts are in the keys.
 *
 * A window may have a bound on the clients it tracks: its tally key counts the clients that have a
 * counter in that window. Once the tally is at the bound, a client without a counter there gets
 * none: that window neither counts nor refuses it (it reports 1), so past the bound a new client is
 * held to its shorter windows only, and may get more than that window's quota, never less. Counters
 * that exist are never dropped, so every tracked client's count stays exact.
 * KEYS: the window counters, then the tallies. ARGV: limit, TTL (ms) and tally index in KEYS (0:
 * unbounded) per window, then the bound. Reply: {allowed, count…}.
 */
export const HIT_SCRIPT = `
local n = (#ARGV - 1) / 3
local max = tonumber(ARGV[#ARGV])
local counts, tracked = {}, {}
local allowed = 1
for i = 1, n do
  local value = redis.call('GET', KEYS[i])
  local tally = tonumber(ARGV[3 * i])
  tracked[i] = value or tally == 0 or tonumber(redis.call('GET', KEYS[tally]) or '0') < max
  counts[i] = tonumber(value or '0')
  if tracked[i] and counts[i] + 1 > tonumber(ARGV[3 * i - 2]) then allowed = 0 end
end
if allowed == 1 then
  for i = 1, n do
    if tracked[i] then
      counts[i] = redis.call('INCR', KEYS[i])
      if counts[i] == 1 then
        redis.call('PEXPIRE', KEYS[i], ARGV[3 * i - 1])
        local tally = tonumber(ARGV[3 * i])
        if tally > 0 and redis.call('INCR', KEYS[tally]) == 1 then redis.call('PEXPIRE', KEYS[tally], ARGV[3 * i - 1]) end
      end
    else
      counts[i] = 1
    end
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

/**
 * Stores one response in a bounded cache and trims it, atomically. A cache is three keys in one
 * hash tag: a hash of entries (field: request key, value: the JSON entry), a sorted set of the same
 * request keys scored by expiry, and the byte total. An entry costs its request key twice (hash
 * field and set member), its JSON and a fixed overhead; expired entries go first (at most 100 a
 * call), then the entries closest to expiry (the oldest, as one cache has one lifetime) until the
 * new one fits. An entry larger than the whole bound is not stored. The three keys expire together
 * one lifetime after the last write, so an abandoned cache disappears.
 * KEYS: entries, index, total. ARGV: request key, JSON entry, expiresAt, now, maxBytes, overhead, TTL (ms).
 * Reply: the byte total after the write.
 */
export const CACHE_SET_SCRIPT = `
local member, value = ARGV[1], ARGV[2]
local now, max, overhead = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local total = 0
if redis.call('EXISTS', KEYS[1]) == 1 then
  total = tonumber(redis.call('GET', KEYS[3]) or '0')
else
  redis.call('DEL', KEYS[2], KEYS[3])
end
local function drop(m)
  total = total - (2 * #m + redis.call('HSTRLEN', KEYS[1], m) + overhead)
  redis.call('HDEL', KEYS[1], m)
  redis.call('ZREM', KEYS[2], m)
end
if redis.call('HEXISTS', KEYS[1], member) == 1 then drop(member) end
for _, m in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'LIMIT', 0, 100)) do drop(m) end
local size = 2 * #member + #value + overhead
if size <= max then
  while total + size > max do
    local oldest = redis.call('ZRANGE', KEYS[2], 0, 0)
    if #oldest == 0 then
      total = 0
      break
    end
    drop(oldest[1])
  end
  redis.call('HSET', KEYS[1], member, value)
  redis.call('ZADD', KEYS[2], ARGV[3], member)
  total = total + size
end
if total < 0 then total = 0 end
redis.call('SET', KEYS[3], total)
local ttl = tonumber(ARGV[7])
if redis.call('PTTL', KEYS[1]) < ttl then
  for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ttl) end
end
return total
`;

/**
 * Keeps a managed Server Key set: one Redis set holding the fingerprints, the member `@managed`
 * and the member `@config:<id>` naming the configuration that wrote it (fingerprints are hex, so
 * neither can be one). Being one key, the set is there whole or not at all: Redis emptied by a
 * restart without persistence loses it at once, and a replacement is atomic.
 * KEYS: the set. ARGV: mode (`replace`: write it; `restore`: write it only when the set is
 * missing; `check`: never write), the `@config:<id>` member, the TTL (ms), then the fingerprints.
 * Reply: 2 written, 1 this configuration's set is there, 0 another configuration's is, -1 missing.
 * A set that is there has its TTL renewed once less than half of it is left, so that a set whose
 * instances are all gone (a configuration replaced, a process with a random secret) goes by itself.
 */
export const KEY_SET_SCRIPT = `
local mode, config, ttl = ARGV[1], ARGV[2], tonumber(ARGV[3])
if mode ~= 'replace' then
  if redis.call('EXISTS', KEYS[1]) == 1 then
    if redis.call('SISMEMBER', KEYS[1], config) == 0 then return 0 end
    if redis.call('PTTL', KEYS[1]) < ttl / 2 then redis.call('PEXPIRE', KEYS[1], ttl) end
    return 1
  end
  if mode == 'check' then return -1 end
end
local members = { '@managed', config }
for i = 4, #ARGV do members[#members + 1] = ARGV[i] end
redis.call('DEL', KEYS[1])
redis.call('SADD', KEYS[1], unpack(members))
redis.call('PEXPIRE', KEYS[1], ttl)
return 2
`;
