#!lua name=docs_mylib
-- call: keys=1 (keys[1]; args[1] is the second key), FCALL my_hlastmodified decided
-- The library of the Redis docs' "Redis functions" page: a helper reads the call's keys
-- through its own parameter `keys` (`table.getn`), each function hands it `keys` and reads
-- keys[1] into its own `local hash`. Nothing changes the table.
local function check_keys(keys)
  local error = nil
  local nkeys = table.getn(keys)
  if nkeys == 0 then
    error = 'Hash key name not provided'
  elseif nkeys > 1 then
    error = 'Only one hash key name is allowed'
  end

  if error ~= nil then
    redis.log(redis.LOG_WARNING, error);
    return redis.error_reply(error)
  end
  return nil
end

local function my_hset(keys, args)
  local error = check_keys(keys)
  if error ~= nil then
    return error
  end

  local hash = keys[1]
  local time = redis.call('TIME')[1]
  return redis.call('HSET', hash, '_last_modified_', time, unpack(args))
end

local function my_hlastmodified(keys, args)
  local error = check_keys(keys)
  if error ~= nil then
    return error
  end

  local hash = keys[1]
  return redis.call('HGET', hash, '_last_modified_')
end

redis.register_function('my_hset', my_hset)
redis.register_function{function_name='my_hlastmodified', callback=my_hlastmodified, flags={ 'no-writes' }}
