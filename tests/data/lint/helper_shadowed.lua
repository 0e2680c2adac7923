#!lua name=corpus_helper_shadowed
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), FCALL shadowed_reader
-- A `no-writes` function whose own local `remember` (a reader) shadows the library's
-- writing helper of that name.
local function remember(key)
  return redis.call('SET', key, 'v')
end
redis.register_function('shadowed_writer', function(keys, args) return remember(keys[1]) end)
redis.register_function{
  function_name = 'shadowed_reader',
  callback = function(keys, args)
    local remember = function(key) return redis.call('GET', key) end
    return remember(keys[1])
  end,
  flags = { 'no-writes' },
}
