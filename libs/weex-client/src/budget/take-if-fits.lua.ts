/**
 * Replaces rate-limiter-flexible's increment script (its `customIncrTtlLuaScript` option) so that, atomically:
 * - a take that does not fit changes nothing, and answers a count above the limit, which the library reports as a
 *   refusal (its own script adds the points anyway, so refused takes would eat the window);
 * - a give-back (negative points) to a key that has expired changes nothing, rather than creating a negative count.
 * Arguments from the library: KEYS[1] key; ARGV[1] points; ARGV[2] whole seconds; ARGV[3] limit; ARGV[4] duration
 * in seconds (the key's lifetime). Answers {count, ttl in ms}.
 */
export const TAKE_IF_FITS_LUA = `
local points = tonumber(ARGV[1])
local limit = tonumber(ARGV[3])
local lifetimeMs = math.floor(tonumber(ARGV[4]) * 1000)
local ttl = redis.call('pttl', KEYS[1])
if ttl < 0 then
  if points <= 0 or points > limit then return {math.max(points, 0), 0} end
  redis.call('set', KEYS[1], points, 'PX', lifetimeMs)
  return {points, lifetimeMs}
end
local used = tonumber(redis.call('get', KEYS[1]))
if points > 0 and used + points > limit then return {used + points, ttl} end
return {redis.call('incrby', KEYS[1], points), ttl}
`;
