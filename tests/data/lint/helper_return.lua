#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- A helper of one `return`, only ever called directly: `key('meta')` is `KEYS[1] .. ':meta'`,
-- on KEYS[1]'s slot while KEYS[1] carries a hashtag.
local function key(suffix) return KEYS[1] .. ':' .. suffix end
redis.call('HSET', key('meta'), 'a', 1)
return redis.call('HGET', key('meta'), 'a')
