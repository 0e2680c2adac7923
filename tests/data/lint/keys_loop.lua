#!lua
-- call: keys=2
-- Every declared key, by `ipairs(KEYS)` and `unpack(KEYS)`.
for _, key in ipairs(KEYS) do
  redis.call('SET', key, 'v')
end
return redis.call('DEL', unpack(KEYS))
