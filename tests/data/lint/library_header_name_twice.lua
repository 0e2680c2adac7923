#!lua name=corpus_header_one name=corpus_header_two
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), FCALL header_twice
-- `name=` twice in the shebang: FUNCTION LOAD refuses the library.
redis.register_function('header_twice', function(keys, args)
  return redis.call('GET', keys[1])
end)
