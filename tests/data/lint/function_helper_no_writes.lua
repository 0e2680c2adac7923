#!lua name=corpus_helper_ro
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), FCALL reader
-- A `no-writes` function whose helper writes.
local function remember(key)
  return redis.call('SET', key, 'v')
end
redis.register_function{
  function_name = 'reader',
  callback = function(keys, args) return remember(keys[1]) end,
  flags = { 'no-writes' },
}
