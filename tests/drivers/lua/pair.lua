-- After the blocks of `slotgen emit lua --for-script --name a` and `--name b` (the specs of
-- slotgen_tests::speakers::pair_cases), in one EVAL script: the `pair` lines of both, each
-- answering with its own spec.
local function hex(s)
    return (s:gsub(".", function(c) return string.format("%02x", c:byte()) end))
end
local out = {}
for _, entry in ipairs({ { "a", a }, { "b", b } }) do
    local name, m = entry[1], entry[2]
    out[#out + 1] = table.concat({
        "pair", name, m.slot("123456789"), hex(m.tag_for_slot(1)), hex(m.tag_for_slot(m.last_slot)),
    }, "\t")
end
return table.concat(out, "\n")
