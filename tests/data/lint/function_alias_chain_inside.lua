#!lua name=corpus_alias_chain_inside
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided, FCALL alias_chain_inside
-- The chain declared in the function: FCALL's `redis`, whose `call` writes both keys.
redis.register_function('alias_chain_inside', function(keys, args)
  local r = redis
  local s = r
  local c = s.call
  c('SET', keys[1], 'v')
  return s.call('SET', args[1], 'v')
end)
