#!lua name=corpus_twice
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), FCALL hit
-- `hit` and `HIT` in one library: FUNCTION LOAD takes it, FCALL of either runs one of the
-- two, and FUNCTION LOAD REPLACE or FUNCTION DELETE of the library stops the server.
redis.register_function('hit', function(keys, args)
  return redis.call('INCR', keys[1])
end)
redis.register_function('HIT', function(keys, args)
  return redis.call('GET', keys[1])
end)
