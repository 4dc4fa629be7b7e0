/** Both scripts' giving back: to the buckets the weight was taken in, still held only; the IP weight to the account too. */
const GIVE_BACK_FUNCTION = `
-- A finite integer, or nil: anything else in these keys was not written by these scripts.
local function int(v)
  local n = tonumber(v)
  if n and n == math.floor(n) and n > -math.huge and n < math.huge then return n end
  return nil
end
-- Deletes fields a thousand at a time: Lua's unpack fails beyond a few thousand values.
local function hdelAll(key, fields)
  for i = 1, #fields, 1000 do redis.call('hdel', key, unpack(fields, i, math.min(i + 999, #fields))) end
end
local function lessBy(key, field, points)
  local held = int(redis.call('hget', key, field))
  if points > 0 and held then redis.call('hset', key, field, math.max(0, held - points)) end
end
local function giveBack(spent, byAccount, account, buckets, points)
  lessBy(spent[1], buckets[1], points[1])
  lessBy(spent[2], buckets[2], points[2])
  lessBy(byAccount, account .. '|' .. buckets[1], points[1])
end
`;

/**
 * Takes an operation's IP and UID weights in one step, or neither: nothing while either budget is paused, nothing if
 * either budget's span is too full (SlidingSpan: the weight of its last `buckets` buckets, a hash of bucket → weight,
 * trimmed here of the buckets that left it a span ago). With a lease asked (WeightCredit), takes it too when both spans
 * stay at most half used with it; else takes the weights alone. The pause keys are the ones the budgets'
 * rate-limiter-flexible limiters write.
 *
 * The IP budget is shared by every account of the deployment, and shared fairly (max-min) over the same sliding
 * span: each account that took IP weight within the last few minutes (the horizon), or was refused it within its
 * share, has a seat. A seated account quiet in this span holds `reserve`, so that an account calling once a minute
 * finds room at once (all of those together at most `quiet cap`); the rest is shared fairly between the accounts that
 * use the span or wait for it. An account within its fair share (or with no use in the span, for one call of any
 * weight) may take whatever is left; one beyond it may take only what the others' shares do not hold. A flooding
 * account fills the span in a burst, and none of it frees before a span has passed: what a share holds is what lets
 * another account's calls through meanwhile. Up to the fair share, a share holds:
 * - for an account that used the span, what it is expected to use in one: a quarter more than its calls would take
 *   in a whole span at the rate they came in this one, at least `reserve`, less what they took;
 * - for an account whose callers wait for IP weight they were refused within its share, what they ask on top of the
 *   account's use, and twice the rate (so that a share kept small by refusals grows to what its account asks), each
 *   until its caller is due back and a second more: a caller that gave up strands nothing. A budget serves its
 *   waiters one at a time, so each process marks its own waiter, and a grant clears its own mark only.
 * An account's use counts its leases, less what it gives back.
 *
 * KEYS: IP pause, UID pause, IP weight by bucket, UID weight by bucket, the IP weight by account and bucket (a hash of
 * "<account>|<bucket>" → weight), the accounts by the last IP bucket they took weight in or were refused it within
 * their share (a sorted set), the waiting callers (a hash of "<account>|<process>" → "<bucket it is due back
 * by>|<points>"). ARGV: IP points, UID points, IP limit, UID limit, IP bucket, UID bucket, IP and UID buckets per
 * span, IP and UID bucket ms, now (ms), IP and UID lease points, the account, the reserve, how many IP buckets back an
 * account keeps its seat, the quiet cap, how long the caller waits at most (ms, -1: as long as it takes), the IP and
 * UID buckets and points of lapsed credit to give back (WeightCredit; points 0: none), then this process's name for
 * its waiter. Answers {pause ms left, IP refused (0, or 1: the span is full, 2: what is left is held for other
 * accounts), UID refused (0|1), lease taken (0|1), ms until the IP points fit, the same for UID}.
 */
export const TAKE_BOTH_LUA = `${GIVE_BACK_FUNCTION}
-- Lapsed credit first.
giveBack({KEYS[3], KEYS[4]}, KEYS[5], ARGV[14], {ARGV[19], ARGV[20]}, {tonumber(ARGV[21]), tonumber(ARGV[22])})
local pause = math.max(redis.call('pttl', KEYS[1]), redis.call('pttl', KEYS[2]), 0)
if pause > 0 then return {pause, 0, 0, 0, 0, 0} end
local limit = {tonumber(ARGV[3]), tonumber(ARGV[4])}
local bucket, span = {tonumber(ARGV[5]), tonumber(ARGV[6])}, {tonumber(ARGV[7]), tonumber(ARGV[8])}
local bucketMs, now = {tonumber(ARGV[9]), tonumber(ARGV[10])}, tonumber(ARGV[11])
local spanMs = span[1] * bucketMs[1]
-- A span's weight, its buckets oldest first (later ones too: a process whose clock is behind counts them). Buckets
-- are dropped only a whole span after they left it, so that a process whose clock runs ahead never drops weight the
-- others still count.
local function spent(i)
  local first, kv, list, old, sum = bucket[i] - span[i] + 1, redis.call('hgetall', KEYS[i + 2]), {}, {}, 0
  for j = 1, #kv, 2 do
    local b, w = int(kv[j]), int(kv[j + 1])
    if not (b and w) or b < first - span[i] then old[#old + 1] = kv[j] elseif b >= first then list[#list + 1] = {b, w}; sum = sum + w end
  end
  hdelAll(KEYS[i + 2], old)
  table.sort(list, function(a, b) return a[1] < b[1] end)
  return sum, list
end
local used, lists = {}, {}
used[1], lists[1] = spent(1)
used[2], lists[2] = spent(2)
-- Until enough of the oldest buckets have left the span for the points to fit within room.
local function waitFor(i, points, room)
  local excess = used[i] + points - room
  if points == 0 or excess <= 0 then return 0 end
  for _, e in ipairs(lists[i]) do
    excess = excess - e[2]
    if excess <= 0 then return (e[1] + span[i]) * bucketMs[i] - now end
  end
  return (bucket[i] + span[i]) * bucketMs[i] - now
end
-- Each account's IP weight in the span (dropped, as the span's, a whole span after it left).
local account, reserve, horizon, quietCap, maxWait = ARGV[14], tonumber(ARGV[15]), tonumber(ARGV[16]), tonumber(ARGV[17]), tonumber(ARGV[18])
-- This process's waiting caller of the account: a budget serves its waiters one at a time (LimiterWeightBudget).
local waiter = account .. '|' .. ARGV[23]
local first = bucket[1] - span[1] + 1
local byAccount, since, old = {}, {}, {}
local kv = redis.call('hgetall', KEYS[5])
for j = 1, #kv, 2 do
  local sep = string.find(kv[j], '|', 1, true)
  local k, b, w = sep and string.sub(kv[j], 1, sep - 1), sep and int(string.sub(kv[j], sep + 1)), int(kv[j + 1])
  if not (b and w) or b < first - span[1] then old[#old + 1] = kv[j]
  elseif b >= first then
    byAccount[k] = (byAccount[k] or 0) + w
    since[k] = math.min(since[k] or b, b)
  end
end
hdelAll(KEYS[5], old)
redis.call('zremrangebyscore', KEYS[6], '-inf', bucket[1] - horizon - 1)
local others = {}
for _, k in ipairs(redis.call('zrange', KEYS[6], 0, -1)) do
  if k ~= account then others[#others + 1] = k end
end
-- The accounts whose callers wait, with the most one of them asks (a field per process); a mark its caller is no
-- longer due back for goes.
local waiting, gone, mineWaits = {}, {}, false
kv = redis.call('hgetall', KEYS[7])
for j = 1, #kv, 2 do
  local sepK, sepV = string.find(kv[j], '|', 1, true), string.find(kv[j + 1], '|', 1, true)
  local k = sepK and string.sub(kv[j], 1, sepK - 1)
  local due, asked = sepV and int(string.sub(kv[j + 1], 1, sepV - 1)), sepV and int(string.sub(kv[j + 1], sepV + 1))
  if k and due and asked and due >= bucket[1] then
    waiting[k] = math.max(waiting[k] or 0, asked)
    if kv[j] == waiter then mineWaits = true end
  else gone[#gone + 1] = kv[j] end
end
hdelAll(KEYS[7], gone)
-- Water-filling: the quiet accounts' reserves come first, and the rest is shared between the accounts that use the
-- span or wait for it, this one included.
local active, quiet = {}, 0
for _, k in ipairs(others) do
  if (byAccount[k] or 0) > 0 or waiting[k] then active[#active + 1] = k else quiet = quiet + reserve end
end
quiet = math.min(quiet, quietCap)
local fair = math.floor((limit[1] - quiet) / (#active + 1))
-- What the others' shares hold, which an account beyond its fair share leaves.
local held = quiet
for _, k in ipairs(active) do
  local use, asked = byAccount[k] or 0, waiting[k]
  -- Its use over a whole span at the rate of its calls so far in this one (counted over a quarter span at least).
  local rate = use * span[1] / math.max(bucket[1] - (since[k] or bucket[1]) + 1, math.ceil(span[1] / 4))
  local want, most = math.max(reserve, math.ceil(1.25 * rate)), fair
  if asked then want, most = math.max(want, math.ceil(2 * rate), use + asked), math.max(fair, use + asked) end
  held = held + math.max(0, math.min(most, want) - use)
end
local mine = byAccount[account] or 0
-- Within its share: its fair share, or one call of any weight for an account with no use in the span.
local function within(points) return mine + points <= math.max(fair, points) end
-- The room a call of the account may take: all of it within its share, all but the others' holds beyond it.
-- (Within its share, a call that left the holds too would wait behind the others' waiting asks while they wait
-- behind its own, and a quiet account behind the other quiet accounts' reserves, with the room idle.)
local function room(points)
  if within(points) then return limit[1] end
  return limit[1] - held
end
-- 0 when the points fit; 1 when the span is full; 2 when what is left is held for other accounts.
local function refusal(i, points)
  if points == 0 then return 0 end
  if used[i] + points > limit[i] then return 1 end
  if i == 2 or used[1] + points <= room(points) then return 0 end
  return 2
end
local points = {tonumber(ARGV[1]), tonumber(ARGV[2])}
local refused = {refusal(1, points[1]), refusal(2, points[2])}
-- The account has a seat in the fair shares, as of this bucket.
local function seat()
  redis.call('zadd', KEYS[6], bucket[1], account)
  redis.call('pexpire', KEYS[6], (horizon + 1) * bucketMs[1])
end
if refused[1] > 0 or refused[2] > 0 then
  local waits = {waitFor(1, points[1], room(points[1])), waitFor(2, points[2], limit[2])}
  -- Refused its IP weight within its share: the others leave it room while its caller waits.
  if refused[1] > 0 and within(points[1]) then
    seat()
    local wait = math.max(waits[1], waits[2])
    if maxWait < 0 or wait <= maxWait then
      redis.call('hset', KEYS[7], waiter, (bucket[1] + math.ceil((wait + 1000) / bucketMs[1])) .. '|' .. points[1])
      local ttl = math.ceil(wait + 1000 + math.max(spanMs, span[2] * bucketMs[2]))
      if redis.call('pttl', KEYS[7]) < ttl then redis.call('pexpire', KEYS[7], ttl) end
    end
  end
  return {0, refused[1], refused[2], 0, waits[1], waits[2]}
end
if mineWaits then redis.call('hdel', KEYS[7], waiter) end
local leased = 1
if tonumber(ARGV[12]) + tonumber(ARGV[13]) == 0 then leased = 0 end
for i = 1, 2 do
  local lease = tonumber(ARGV[i + 11])
  if lease > 0 and (used[i] + points[i] + lease > math.floor(limit[i] / 2) or refusal(i, points[i] + lease) > 0) then leased = 0 end
end
for i = 1, 2 do
  local taken = points[i] + leased * tonumber(ARGV[i + 11])
  if taken > 0 then
    redis.call('hincrby', KEYS[i + 2], bucket[i], taken)
    -- Kept as long as its buckets are (a span after they left it), and a second: a clock behind still reads them.
    redis.call('pexpire', KEYS[i + 2], 2 * span[i] * bucketMs[i] + 1000)
    -- An account's use counts its lease too: the calls it covers take nothing more here. What it leaves unspent
    -- comes back to the account as to the span (giveBack).
    if i == 1 then
      redis.call('hincrby', KEYS[5], account .. '|' .. bucket[1], taken)
      redis.call('pexpire', KEYS[5], 2 * spanMs + 1000)
      seat()
    end
  end
end
return {0, 0, 0, leased, 0, 0}
`;

/**
 * Gives weight back to its buckets, to those still held only (a bucket that left its span was dropped), the IP weight
 * to the account's use as well. KEYS: IP weight by bucket, UID weight by bucket, IP weight by account. ARGV: the
 * account, IP bucket, UID bucket, IP points, UID points.
 */
export const GIVE_BACK_LUA = `${GIVE_BACK_FUNCTION}
giveBack({KEYS[1], KEYS[2]}, KEYS[3], ARGV[1], {ARGV[2], ARGV[3]}, {tonumber(ARGV[4]), tonumber(ARGV[5])})
return 0
`;
