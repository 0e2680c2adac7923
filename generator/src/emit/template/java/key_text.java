
    /**
     * The key of {@code keyForSlot(byte[], long, byte[])} for the UTF-8 bytes of prefix and
     * suffix, as text: the tag is ASCII.
     *
     * @throws IllegalArgumentException as {@code keyForSlot(byte[], long, byte[])}
     */
    public static String keyForSlot(String prefix, long slot, String suffix) {
{{key_text_framed}}        byte[] key = keyForSlot(prefix.getBytes(StandardCharsets.UTF_8), slot,
                suffix.getBytes(StandardCharsets.UTF_8));
        return new String(key, StandardCharsets.UTF_8);
    }
