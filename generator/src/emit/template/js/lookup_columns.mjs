// The tag of a value v is ZERO_TAG xor the entries i of COLUMNS over the set bits i of v:
// entry i flips bit i of the tag's value (the CRC's value after the shift and mask), and
// ZERO_TAG is the tag of value 0. The tag of a slot is the tag of the value
// slot - FIRST_SLOT.
const ZERO_TAG = Int32Array.of(
{{zero_words}}
);
const COLUMNS = Int32Array.of(
{{column_words}}
);

// Writes the words of the tag of a value below VALUE_LIMIT into `words`. The value may pass
// the 32 bits of the bitwise operators: its bits are read by division.
function tagWords(value, words) {
  words.set(ZERO_TAG);
  for (let entry = 0; value > 0; entry += TAG_WORDS, value = Math.floor(value / 2)) {
    if (value % 2 === 1) {
      for (let w = 0; w < TAG_WORDS; w++) {
        words[w] ^= COLUMNS[entry + w];
      }
    }
  }
}
