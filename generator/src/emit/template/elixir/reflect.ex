
  # refin != refout: the register reflected.
  defp reflect(crc) do
    bits = for <<bit::1 <- <<crc::{{crc_width}}>> >>, do: bit
    Integer.undigits(Enum.reverse(bits), 2)
  end
