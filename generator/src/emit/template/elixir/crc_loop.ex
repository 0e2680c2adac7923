  defp crc(<<>>, crc), do: {{crc_finish}}

  defp crc(<<byte, rest::binary>>, crc) do
{{crc_update}}
  end
