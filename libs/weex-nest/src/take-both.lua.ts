/**
 * Takes an operation's IP and UID weights in one step, or neither: nothing while either budget is paused, nothing if
 * either budget's span is too full (SlidingSpan: the weight of its last `buckets` buckets, a hash of bucket → weight,
 * trimmed here of the buckets that left it a span ago). With a lease asked (WeightCredit), takes it too when both spans stay at
 * most half used with it; else takes the weights alone. The pause keys are the ones the budgets' rate-limiter-flexible
 * limiters write.
 *
 * The IP budget is shared by every account of the deployment, and shared fairly (max-min) within each fixed window of
 * the clock: each account that took IP weight within the last few minutes has a fair share (the limit over those
 * accounts). An account within its fair share may take whatever is left; one beyond it may take only what the
 * others' shares do not hold. An account's share holds what it is expected to use, up to the share: twice what its
 * calls took in the last window, and at least `reserve`, less what they took in this one. In the window's last part
 * (`released`), shares hold nothing: what a light account has not used by then goes to whoever asks. So a flooding
 * account leaves a light one the weight it uses and takes all the rest; an account alone takes all of it; a new one
 * waits at most a window.
 *
 * KEYS: IP pause, UID pause, IP weight by bucket, UID weight by bucket, the IP window's weight by account (a hash), the
 * last IP window's, the accounts by the last IP window they took weight in (a sorted set). ARGV: IP points, UID
 * points, IP limit, UID limit, IP bucket, UID bucket, IP and UID buckets per span, IP and UID bucket ms, now (ms),
 * IP and UID lease points, the account, the reserve, the IP window's index, how many windows back an account counts,
 * released (0|1), the IP window's ms, then the IP and UID buckets and points of lapsed credit to give back (WeightCredit;
 * points 0: none). Answers {pause ms left, IP refused (0, or 1: the span is full, 2: what is left
 * is held for other accounts), UID refused (0|1), lease taken (0|1), ms until the IP points fit, the same for UID}.
 */
export const TAKE_BOTH_LUA = `
-- Lapsed credit first, given back to its buckets if they are still held (as GIVE_BACK_LUA).
for i = 1, 2 do
  local points = tonumber(ARGV[i + 21])
  local held = tonumber(redis.call('hget', KEYS[i + 2], ARGV[i + 19]) or '-1')
  if points > 0 and held >= 0 then redis.call('hset', KEYS[i + 2], ARGV[i + 19], math.max(0, held - points)) end
end
local pause = math.max(redis.call('pttl', KEYS[1]), redis.call('pttl', KEYS[2]), 0)
if pause > 0 then return {pause, 0, 0, 0, 0, 0} end
local limit = {tonumber(ARGV[3]), tonumber(ARGV[4])}
local bucket, span = {tonumber(ARGV[5]), tonumber(ARGV[6])}, {tonumber(ARGV[7]), tonumber(ARGV[8])}
local bucketMs, now = {tonumber(ARGV[9]), tonumber(ARGV[10])}, tonumber(ARGV[11])
-- A span's weight, its buckets oldest first (later ones too: a process whose clock is behind counts them). Buckets
-- are dropped only a whole span after they left it, so that a process whose clock runs ahead never drops weight the
-- others still count.
local function spent(i)
  local first, kv, list, old, sum = bucket[i] - span[i] + 1, redis.call('hgetall', KEYS[i + 2]), {}, {}, 0
  for j = 1, #kv, 2 do
    local b, w = tonumber(kv[j]), tonumber(kv[j + 1])
    if b < first - span[i] then old[#old + 1] = kv[j] elseif b >= first then list[#list + 1] = {b, w}; sum = sum + w end
  end
  if #old > 0 then redis.call('hdel', KEYS[i + 2], unpack(old)) end
  table.sort(list, function(a, b) return a[1] < b[1] end)
  return sum, list
end
local used, lists = {}, {}
used[1], lists[1] = spent(1)
used[2], lists[2] = spent(2)
-- Until enough of the oldest buckets have left the span for the points to fit.
local function waitFor(i, points)
  local excess = used[i] + points - limit[i]
  if points == 0 or excess <= 0 then return 0 end
  for _, e in ipairs(lists[i]) do
    excess = excess - e[2]
    if excess <= 0 then return (e[1] + span[i]) * bucketMs[i] - now end
  end
  return (bucket[i] + span[i]) * bucketMs[i] - now
end
local account, reserve = ARGV[14], tonumber(ARGV[15])
local function byAccount(key)
  local t, kv = {}, redis.call('hgetall', key)
  for i = 1, #kv, 2 do t[kv[i]] = tonumber(kv[i + 1]) end
  return t
end
local mineNow, last = byAccount(KEYS[5]), byAccount(KEYS[6])
local window, horizon, windowMs = tonumber(ARGV[16]), tonumber(ARGV[17]), tonumber(ARGV[19])
redis.call('zremrangebyscore', KEYS[7], '-inf', window - horizon - 1)
local others, seats = {}, 1
for _, k in ipairs(redis.call('zrange', KEYS[7], 0, -1)) do
  if k ~= account then others[k] = true; seats = seats + 1 end
end
local fair = math.floor(limit[1] / seats)
local held = 0
for k in pairs(others) do
  local expected = math.min(fair, math.max(reserve, 2 * (last[k] or 0)))
  held = held + math.max(0, expected - (mineNow[k] or 0))
end
local mine, released = mineNow[account] or 0, ARGV[18] == '1'
-- 0 when the points fit; 1 when the span is full; 2 when what is left is held for other accounts.
local function refusal(i, points)
  if points == 0 then return 0 end
  if used[i] + points > limit[i] then return 1 end
  if i == 2 or released or mine + points <= fair or used[1] + points + held <= limit[1] then return 0 end
  return 2
end
local points = {tonumber(ARGV[1]), tonumber(ARGV[2])}
local refused = {refusal(1, points[1]), refusal(2, points[2])}
if refused[1] > 0 or refused[2] > 0 then return {0, refused[1], refused[2], 0, waitFor(1, points[1]), waitFor(2, points[2])} end
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
    -- Kept a second beyond its span: a clock a little behind still reads it.
    redis.call('pexpire', KEYS[i + 2], span[i] * bucketMs[i] + 1000)
    -- An account's use counts its calls, not its lease: weight held ahead must not swell the share kept for it.
    if i == 1 and points[1] > 0 then
      redis.call('hincrby', KEYS[5], account, points[1])
      -- Read again in the next window, as its last one.
      if redis.call('pttl', KEYS[5]) < 0 then redis.call('pexpire', KEYS[5], 2 * windowMs) end
      redis.call('zadd', KEYS[7], window, account)
      redis.call('pexpire', KEYS[7], (horizon + 1) * windowMs)
    end
  end
end
return {0, 0, 0, leased, 0, 0}
`;

/**
 * Gives weight back to its buckets, to those still held only (a bucket that left its span was dropped).
 * KEYS: IP weight by bucket, UID weight by bucket. ARGV: IP bucket, UID bucket, IP points, UID points.
 */
export const GIVE_BACK_LUA = `
for i = 1, 2 do
  local points = tonumber(ARGV[i + 2])
  local held = tonumber(redis.call('hget', KEYS[i], ARGV[i]) or '-1')
  if points > 0 and held >= 0 then redis.call('hset', KEYS[i], ARGV[i], math.max(0, held - points)) end
end
return 0
`;
