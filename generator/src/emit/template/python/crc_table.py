# The CRC's lookup table: entry i is the register after feeding byte i into a zero
# register{{reflected_note}}.
_CRC_TABLE = (
{{crc_table}}
)


def _crc(data: bytes) -> int:
    crc = {{crc_start}}
    for byte in data:
{{crc_update}}
{{crc_finish}}    return crc
