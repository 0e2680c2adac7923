    // The CRC of bytes[from..to]: java.util.zip.{{native_class}} computes {{native_crc}}
    // (an intrinsic where the CPU has one), this CRC's polynomial from its start, whose
    // result is xored with 0xffffffff: this CRC with its xorout.
    private static int crc(byte[] bytes, int from, int to) {
        java.util.zip.{{native_class}} crc = new java.util.zip.{{native_class}}();
        crc.update(bytes, from, to - from);
        return (int) crc.getValue(){{native_xor}};
    }
