
local {{name}}

-- A module function's answer as a reply: the value, or an error reply with the message.
local function reply(value, err)
    if value == nil then
        return redis.error_reply("ERR " .. err)
    end
    return value
end

redis.register_function({
    function_name = "{{name}}_slot",
    callback = function(_, args)
        {{name}} = {{name}} or {{name}}_build()
        return reply({{name}}.slot(args[1]))
    end,
    flags = { "no-writes" },
    description = "the hash slot of the key ARGV[1]",
})

redis.register_function({
    function_name = "{{name}}_tag_for_slot",
    callback = function(_, args)
        {{name}} = {{name}} or {{name}}_build()
        return reply({{name}}.tag_for_slot(args[1]))
    end,
    flags = { "no-writes" },
    description = "a tag whose key lands on the slot ARGV[1]",
})

redis.register_function({
    function_name = "{{name}}_key_for_slot",
    callback = function(_, args)
        {{name}} = {{name}} or {{name}}_build()
        return reply({{name}}.key_for_slot(args[1], args[2], args[3]))
    end,
    flags = { "no-writes" },
    description = "the key ARGV[1] {tag} ARGV[3] for the slot ARGV[2]",
})

redis.register_function({
    function_name = "{{name}}_hashtag",
    callback = function(_, args)
        {{name}} = {{name}} or {{name}}_build()
        return reply({{name}}.hashtag(args[1]))
    end,
    flags = { "no-writes" },
    description = "the bytes of the key ARGV[1] that its slot is computed from",
})

-- A module function's answer that may be none: nil (a null reply), the value, or an error
-- reply with the message.
local function reply_or_none(value, err)
    if err ~= nil then
        return redis.error_reply("ERR " .. err)
    end
    if value == nil then
        return false
    end
    return value
end

redis.register_function({
    function_name = "{{name}}_same_slot",
    callback = function(_, args)
        {{name}} = {{name}} or {{name}}_build()
        return reply_or_none({{name}}.same_slot(args))
    end,
    flags = { "no-writes" },
    description = "the slot every key ARGV[1..] lands on, or nil when two differ or none is given",
})

redis.register_function({
    function_name = "{{name}}_shared_hashtag",
    callback = function(_, args)
        {{name}} = {{name}} or {{name}}_build()
        return reply_or_none({{name}}.shared_hashtag(args))
    end,
    flags = { "no-writes" },
    description = "the hashtag every key ARGV[1..] has, or nil",
})
