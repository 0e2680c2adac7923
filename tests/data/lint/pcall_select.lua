-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- The rate limiter of `select_db.lua` with its SELECT protected (`pcall(redis.call, ...)`):
-- where the server refuses SELECT (Redis 7.0 and Valkey 8.0 in cluster mode, Valkey 9.1 past
-- its `cluster-databases`), pcall hands the script the error and it goes on in database 0.
pcall(redis.call, 'select', 1)
local n = redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], 60)
return n
