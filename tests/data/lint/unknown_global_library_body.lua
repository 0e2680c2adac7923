#!lua name=corpus_library_body
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), FCALL stamp
-- `string.format` kept in a local of the library's body: FUNCTION LOAD gives the body only
-- `redis`, so the library is refused; inside the function `string` is there.
local fmt = string.format
redis.register_function('stamp', function(keys, args)
  return redis.call('SET', keys[1], fmt('%d', 1))
end)
