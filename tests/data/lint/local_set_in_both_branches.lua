-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- A local declared without a value, then given one in both branches of an `if` (bull
-- addJob's `jobIdKey`, here KEYS[1] on both ways): it is never nil where it is used.
local jobId
local jobIdKey
local n = redis.call('INCR', KEYS[1])
if ARGV[1] == '' then
  jobId = n
  jobIdKey = KEYS[1]
else
  jobId = ARGV[1]
  jobIdKey = KEYS[1]
end
return redis.call('SET', jobIdKey, jobId)
