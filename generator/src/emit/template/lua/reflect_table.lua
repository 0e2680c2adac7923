
-- REFLECT[b] is byte b with its bit order reversed.
local REFLECT = {}
for b = 0, 255 do
    local value, rest = 0, b
    for _ = 1, 8 do
        value, rest = value * 2 + rest % 2, floor(rest / 2)
    end
    REFLECT[b] = value
end
