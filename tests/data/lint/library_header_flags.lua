#!lua name=corpus_header_flags flags=no-writes
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), FCALL header_flags
-- A function's flags written in the library's shebang: FUNCTION LOAD refuses the library.
redis.register_function('header_flags', function(keys, args)
  return redis.call('GET', keys[1])
end)
