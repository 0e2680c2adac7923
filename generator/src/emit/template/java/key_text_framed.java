        if (TEXT_RULE && prefix.indexOf(OPEN) < 0 && slot >= FIRST_SLOT && slot <= LAST_SLOT) {
            // the language's own concatenation: the tag's chars are its bytes
            return prefix + framedText((int) (slot - FIRST_SLOT)) + suffix;
        }
