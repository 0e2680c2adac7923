%% erlang:crc32/2 computes CRC-32/ISO-HDLC's polynomial in C, from the register bxor
%% 16#ffffffff, and xors its result with 16#ffffffff: this CRC from Crc, with its xorout.
crc(Bytes, Crc) ->
    erlang:crc32(Crc bxor 16#ffffffff, Bytes){{native_xor}}.
