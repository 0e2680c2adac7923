#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key) decided
-- `local k` in one block and `local k` in another: two bindings, each with its value.
do
  local k = KEYS[1]
  redis.call('SET', k, 'a')
end
do
  local k = ARGV[1]
  redis.call('SET', k, 'b')
end
return 1
