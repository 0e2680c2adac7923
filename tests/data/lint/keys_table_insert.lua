#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- `table.insert` adds ARGV[1] to KEYS: the loop over KEYS uses it as a key.
table.insert(KEYS, ARGV[1]) -- changes the call's table
for _, key in ipairs(KEYS) do
  redis.call('SET', key, 'v')
end
return 1
