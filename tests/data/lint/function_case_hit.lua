#!lua name=corpus_hit
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), FCALL hit
-- A counter function, `hit`; function_case_clash.lua registers `HIT` in a library of its own.
redis.register_function('hit', function(keys, args)
  return redis.call('INCR', keys[1])
end)
