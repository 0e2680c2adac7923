        -- refin != refout: reflect the register.
        local reflected = 0
        for _ = 1, {{crc_width}} do
            reflected, crc = reflected * 2 + band(crc, 1), rshift(crc, 1)
        end
        crc = reflected
