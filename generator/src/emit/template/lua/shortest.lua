<# A shortest-tag table as a Lua chunk that returns a sequence: tags[slot + 1] is the tag of
   slot (Lua sequences start at 1; tags[slot] for a first slot of 1, Tarantool vshard's),
   false for a gap, 16 entries to a line. Tags are printable ASCII: a backslash before `"`
   and `\`. #>
-- {{generated}}
-- {{edit}} {{spec}}
-- tags[{{ "slot + 1" if first == 0 else "slot" if first == 1 else "slot - " ~ (first - 1) }}]: the first tag, shortest first, then in charset order, that lands on
-- slot; false where no tag of at most {{max_len}} symbols does.
return {
<% for row in tags | batch(16) %>
{{ row | map("quoted", "\"\\", "false") | join(", ") }},
<% endfor %>
}
