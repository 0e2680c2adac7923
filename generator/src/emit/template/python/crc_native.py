# The CRC, by the standard library's C code:
# {{native_doc}}.
from {{native_module}} import {{native_function}} as _native_crc  # noqa: E402


def _crc(data: bytes) -> int:
    return {{native_crc}}
