#!lua name=corpus_name_unread
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), FCALL byname
-- A function's name in a local: the lint does not read it, so it cannot check the name,
-- and takes the function for any name asked.
local name = 'byname'
redis.register_function(name, function(keys, args)
  redis.call('SET', keys[1], 'v')
  return redis.call('SET', args[1], 'v')
end)
