#!lua name=corpus_keys_assigned
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided, FCALL keys_assigned
-- The parameter `keys` given another table.
local function assigned(keys, args)
  keys = { args[1] } -- changes the call's table
  return redis.call('SET', keys[1], 'v')
end
redis.register_function('keys_assigned', assigned)
