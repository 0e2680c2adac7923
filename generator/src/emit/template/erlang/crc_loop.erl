crc(<<Byte, Rest/binary>>, Crc) ->
{{crc_update}}
crc(<<>>, Crc) ->
    {{crc_finish}}.
