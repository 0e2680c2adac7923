#!lua name=corpus_helper
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided, FCALL helped
-- A function whose writes are in a local helper it calls; `unused` calls nothing.
local function touch(key)
  return redis.call('SET', key, 'v')
end
redis.register_function('helped', function(keys, args)
  touch(keys[1])
  return touch(args[1])
end)
redis.register_function('unused', function(keys, args)
  return redis.call('GET', keys[1])
end)
