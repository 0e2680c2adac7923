    // The CRC of bytes[from..to], in the low {{crc_width}} bits.
    private static int crc(byte[] bytes, int from, int to) {
        int crc = {{crc_start}};
        for (int i = from; i < to; i++) {
            int b = bytes[i];
{{crc_update}}
        }
        crc &= {{crc_mask}}; // the shifted step leaves bits above the width
{{crc_finish}}        return crc;
    }
