
    -- The CRC of bytes first..last of key, as a number, as M.slot computes it: for the
    -- frame solver of M.key_for_slot.
    local function crc_of(key, first, last)
        local crc = {{crc_start}}
        for i = first, last do
            crc = {{crc_update}}
        end
{{crc_finish}}        -- `bit` answers signed 32-bit numbers: read the register unsigned.
        return crc % 4294967296
    end
