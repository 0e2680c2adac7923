func crc(data []byte) {{register}} {
	crc := {{register}}({{crc_start}})
	for i := 0; i < len(data); i++ {
		b := data[i]
{{crc_update}}
	}
{{crc_finish}}	return crc
}
