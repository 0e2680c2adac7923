        $bytes = $key;
        $open = strpos($key, self::OPEN);
        if ($open !== false) {
            $close = strpos($key, self::CLOSE, $open + 1);
            if ($close !== false && $close - $open > self::MIN_TAG_LEN) {
                $bytes = substr($key, $open + 1, $close - $open - 1);
            }
        }
