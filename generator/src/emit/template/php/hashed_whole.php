        $bytes = $key;
