-- call: keys=2
-- Every declared key by its index, `for i = 1, #KEYS` (a reactions counter's pattern).
local ttl = 60
for i = 1, #KEYS do
  redis.call('SET', KEYS[i], 'v')
  redis.call('EXPIRE', KEYS[i], ttl)
end
return 1
