#! lua name=corpus_header_space
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), FCALL header_space
-- A space after `#!`: FUNCTION LOAD reads `lua` as an option and refuses the library.
redis.register_function('header_space', function(keys, args)
  return redis.call('GET', keys[1])
end)
