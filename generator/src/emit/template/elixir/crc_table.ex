  # The CRC's lookup table: entry i is the register after feeding byte i into a zero
  # register{{reflected_note}}.
  @crc_table {
{{crc_table}}
  }
