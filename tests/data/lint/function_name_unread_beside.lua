#!lua name=corpus_name_unread_beside
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), FCALL beside
-- A function registered by its name beside one whose name is in a local: `beside` is
-- judged by its own body (the other cannot be `beside`: FUNCTION LOAD refuses two of one
-- name), not by the other's, which writes the second key.
local name = 'other'
redis.register_function(name, function(keys, args)
  redis.call('SET', keys[1], 'v')
  return redis.call('SET', args[1], 'v')
end)
redis.register_function('beside', function(keys, args)
  return redis.call('GET', keys[1])
end)
