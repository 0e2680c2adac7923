-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- `unpack` of a table the script fills (redis-semaphore's multiSemaphore release with
-- permits 0): the lint does not count it, and here it is empty: `ZREM KEYS[1]`, refused by
-- every server ("Wrong number of args calling Redis command from script"). Never `runs`.
local members = {}
for i = 2, #ARGV do
  table.insert(members, ARGV[i])
end
return redis.call('ZREM', KEYS[1], unpack(members))
