#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- `string.format('%s:count', KEYS[1])`: the form's text with KEYS[1] as `%s` writes it
-- (`{p}a:count` beside `{p}a`, one slot; `k1:count` beside `k1`, another).
redis.call('SET', KEYS[1], 'v')
return redis.call('INCR', string.format('%s:count', KEYS[1]))
