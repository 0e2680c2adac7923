<# A shortest-tag table in C: redis-benchmark's `crc16_slot_table` in form, entry
   `slot - first` the tag of that slot, "" for a gap, 16 entries to a line. Tags are
   printable ASCII: a backslash before `"`, `\` and (against trigraphs) `?`. #>
/* {{generated}} */
/* {{edit}} {{spec}} */

/* {{name}}[{{ "slot - " ~ first if first else "slot" }}]: the first tag, shortest first, then in charset order, that lands on
   slot; "" where no tag of at most {{max_len}} symbols does. */
const char {{name}}[{{slots}}][{{width + 1}}] = {
<% for row in tags | batch(16) %>
{{ row | map("quoted", "\"\\?", '""') | join(", ") }},
<% endfor %>
};
