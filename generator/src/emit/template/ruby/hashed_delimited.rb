    open = bytes.index(OPEN)
    if open
      close = bytes.index(CLOSE, open + 1)
      if close && close - open > MIN_TAG_LEN
        start = open + 1
        stop = close
      end
    end
