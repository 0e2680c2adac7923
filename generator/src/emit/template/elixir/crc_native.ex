  # :erlang.crc32/2 computes CRC-32/ISO-HDLC's polynomial in C, from the register bxor
  # 0xFFFFFFFF, and xors its result with 0xFFFFFFFF: this CRC from crc, with its xorout.
  defp crc(bytes, crc), do: {{native_call}}
