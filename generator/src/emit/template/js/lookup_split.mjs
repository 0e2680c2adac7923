// The tag of a value v is entry v & {{low_mask}} of LOW xor entry v >> {{low_bits}} of HIGH, word by word:
// the entries of LOW are whole tags (the tag of value 0 folded in), those of HIGH the bytes
// that the value's high bits flip. The tag of a slot is the tag of the value
// slot - FIRST_SLOT.
const LOW = Int32Array.of(
{{low_words}}
);
const HIGH = Int32Array.of(
{{high_words}}
);

// Writes the words of the tag of a value below VALUE_LIMIT into `words`: two loads and a xor
// a word.
function tagWords(value, words) {
  const low = (value & {{low_mask}}) * TAG_WORDS;
  const high = (value >> {{low_bits}}) * TAG_WORDS;
  for (let w = 0; w < TAG_WORDS; w++) {
    words[w] = LOW[low + w] ^ HIGH[high + w];
  }
}
