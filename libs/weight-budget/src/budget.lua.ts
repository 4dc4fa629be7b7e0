/**
 * The Redis budget's one script: a take, a give-back or a pause, atomic for every process. ARGV[1] is a JSON
 * ScriptRequest, KEYS as scriptCall names them; it answers JSON `{"wait": ms}` (0: done). The hashes hold weight by
 * bucket (SlidingSpan), the IP one by account and bucket (`<account>|<bucket>`); a bucket is dropped a span after it
 * left the span, so that a process whose clock runs ahead never drops weight that the others still count. KEYS[5], the
 * IP weight by bucket alone, is written (and trimmed) for the version before, which reads it, during a rolling deploy. */
export const BUDGET_LUA = `
local r = cjson.decode(ARGV[1])
local tonumber, find, sub = tonumber, string.find, string.sub
-- n % 1 == 0 is n == math.floor(n) and |n| < math.huge in one step: an infinity's or NaN's % 1 is NaN.
local function int(v) local n = tonumber(v); if n and n % 1 == 0 then return n end end
local function field(n) return string.format('%d', n) end
local function lessBy(key, f, n) local held = int(redis.call('hget', key, f)); if n > 0 and held then redis.call('hset', key, f, math.max(0, held - n)) end end
if r.kind == 'pause' then
  for i, ms in ipairs({r.ms.ip, r.ms.uid}) do if redis.call('pttl', KEYS[i]) < ms then redis.call('set', KEYS[i], 1, 'PX', ms) end end
  return '{"wait":0}'
elseif r.kind == 'giveBack' then
  lessBy(KEYS[3], r.account .. '|' .. field(r.buckets.ip), r.weight.ip)
  lessBy(KEYS[4], field(r.buckets.uid), r.weight.uid)
  lessBy(KEYS[5], field(r.buckets.ip), r.weight.ip)
  return '{"wait":0}'
end
local pause = math.max(redis.call('pttl', KEYS[1]), redis.call('pttl', KEYS[2]), 0)
if pause > 0 then return cjson.encode({wait = pause}) end
-- A hash's weight in window w's span (later buckets too: a clock behind counts them), in all and by owner (before '|',
-- or ''), its buckets, and the owners waiting (a mark, 0, not before now); fields none of ours are dropped. This loop,
-- over hundreds of fields in a drain, is most of a take's cost: buckets and weights recur (across hashes, accounts and
-- fields), so each string is parsed once per call.
local ints = {}
local function read(key, w, owned)
  local first, kv, old, sums, waits = w.bucket - w.buckets + 1, redis.call('hgetall', key), {}, {}, {}
  local oldest, last, total, n, bs, vs = first - w.buckets, w.bucket, 0, 0, {}, {}
  for j = 1, #kv, 2 do
    local f, v = kv[j], ints[kv[j + 1]]
    if v == nil then v = int(kv[j + 1]) or false; ints[kv[j + 1]] = v end
    local sep, b = owned and find(f, '|', 1, true)
    if sep then b = sub(f, sep + 1) elseif not owned then b = f end
    if b then local i = ints[b]; if i == nil then i = int(b) or false; ints[b] = i end; b = i end
    if not (b and v) or b < oldest then old[#old + 1] = f
    elseif b >= first then
      local owner = sep and sub(f, 1, sep - 1) or ''
      total = total + v; sums[owner] = (sums[owner] or 0) + v; n = n + 1; bs[n] = b; vs[n] = v
      if v == 0 and b >= last then waits[owner] = true end
    end
  end
  for i = 1, #old, 1000 do redis.call('hdel', key, unpack(old, i, math.min(i + 999, #old))) end
  return {total = total, sums = sums, waits = waits, n = n, bs = bs, vs = vs}
end
-- Until enough of the oldest buckets (sorted only then) have left the span for the points to fit (SlidingSpan.waitFor).
local function waitFor(w, held, points, room)
  local excess = held.total + points - room
  if points == 0 or excess <= 0 then return 0 end
  local list = {}
  for i = 1, held.n do list[i] = {held.bs[i], held.vs[i]} end
  table.sort(list, function(x, y) return x[1] < y[1] end)
  for _, e in ipairs(list) do
    excess = excess - e[2]
    if excess <= 0 then return (e[1] + w.buckets) * w.bucketMs - r.now end
  end
  return (w.bucket + w.buckets) * w.bucketMs - r.now
end
-- The fairness rule (README): the accounts that called in the span, this one too, share the IP limit equally (the
-- heaviest call at least; one alone shares with a newcomer); beyond its share, an account leaves each of the others
-- 1/60 of the limit free (a call a second at 500 per 10 s), or a newcomer 1/100 when there is none, and the heaviest
-- call's weight (the reserve) to one that waits.
local ip = read(KEYS[3], r.ip, true)
local accounts, others, room, free = 1, 0, r.ip.limit, math.ceil(r.ip.limit / 60)
for k in pairs(ip.sums) do
  if k ~= r.account then accounts = accounts + 1; others = others + (ip.waits[k] and math.max(r.reserve, free) or free) end
end
local share = math.max(r.reserve, math.floor(room / math.max(accounts, 2)))
if (ip.sums[r.account] or 0) + r.weight.ip > share then room = room - math.max(others, math.ceil(r.ip.limit / 100)) end
local wait = math.max(waitFor(r.ip, ip, r.weight.ip, room), waitFor(r.uid, read(KEYS[4], r.uid, false), r.weight.uid, r.uid.limit))
-- Kept as long as its buckets are, a span after they left it, and a second.
local function add(key, w, f, n) redis.call('hincrby', key, f, n); redis.call('pexpire', key, 2 * w.buckets * w.bucketMs + 1000) end
-- A caller refused waits until it is due back (a mark in that bucket): from now on the others leave its reserve
-- free, so it waits a span at most.
local mark = r.account .. '|' .. field(r.ip.bucket + math.ceil(wait / r.ip.bucketMs))
if r.weight.ip > 0 then add(KEYS[3], r.ip, mark, wait > 0 and 0 or r.weight.ip) end
if wait > 0 then return cjson.encode({wait = wait}) end
if r.weight.ip > 0 then add(KEYS[5], r.ip, field(r.ip.bucket), r.weight.ip) end
if redis.call('hlen', KEYS[5]) > 4 * r.ip.buckets then read(KEYS[5], r.ip, false) end
if r.weight.uid > 0 then add(KEYS[4], r.uid, field(r.uid.bucket), r.weight.uid) end
return '{"wait":0}'
`;
