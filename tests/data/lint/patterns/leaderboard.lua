#!lua
-- a score added to a daily and an all-time board, the ranks returned
local keys = KEYS
local day, all = keys[1], keys[2]
redis.call('ZINCRBY', day, ARGV[2], ARGV[1])
redis.call('ZINCRBY', all, ARGV[2], ARGV[1])
redis.call('EXPIRE', day, 172800)
return { redis.call('ZREVRANK', day, ARGV[1]), redis.call('ZREVRANK', all, ARGV[1]) }
