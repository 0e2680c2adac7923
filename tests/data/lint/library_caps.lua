#!LUA name=corpus_caps
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), FCALL caps
-- A library whose engine is in capitals: FUNCTION LOAD takes any case.
redis.register_function('caps', function(keys, args)
  return redis.call('SET', keys[1], 'v')
end)
