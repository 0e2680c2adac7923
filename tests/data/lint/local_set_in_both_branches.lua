-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- A local declared without a value, then given one in both branches of an `if` (bull
-- addJob's `jobIdKey`): every value starts with KEYS[1], so the key keeps its hashtag.
local jobId
local jobIdKey
local n = redis.call('INCR', KEYS[1])
if ARGV[1] == '' then
  jobId = n
  jobIdKey = KEYS[1] .. ':' .. jobId
else
  jobId = ARGV[1]
  jobIdKey = KEYS[1] .. ':' .. jobId
end
return redis.call('SET', jobIdKey, 1)
