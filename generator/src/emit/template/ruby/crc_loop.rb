    crc = {{crc_start}}
    while start < stop
      byte = bytes.getbyte(start)
{{crc_update}}
      start += 1
    end
{{crc_finish}}