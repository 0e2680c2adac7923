#!lua name=corpus_clash
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), loaded after function_case_hit.lua, FCALL HIT
-- `HIT` here, `hit` in function_case_hit.lua's library, linted together: the servers find a
-- function's name in any case, so FUNCTION LOAD of this library after that one is refused
-- ("Function HIT already exists").
redis.register_function('HIT', function(keys, args)
  return redis.call('GET', keys[1])
end)
