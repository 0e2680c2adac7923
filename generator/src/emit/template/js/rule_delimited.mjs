
/** The byte that opens a hashtag. */
export const OPEN = {{open}};
/** The byte that closes a hashtag. */
export const CLOSE = {{close}};
// A hashtag shorter than this hashes the whole key.
const MIN_TAG_LEN = {{min_tag_len}};

// Sets bytes[range[0] .. range[1]] to the bytes of a key that its slot is computed from:
// the hashtag, between the first OPEN and the first CLOSE after it, when it has at least
// MIN_TAG_LEN bytes, else the whole key. Returns whether it is a hashtag.
function hashed(bytes, range) {
  const open = bytes.indexOf(OPEN);
  if (open >= 0) {
    const close = bytes.indexOf(CLOSE, open + 1);
    if (close >= 0 && close - open - 1 >= MIN_TAG_LEN) {
      range[0] = open + 1;
      range[1] = close;
      return true;
    }
  }
  range[0] = 0;
  range[1] = bytes.length;
  return false;
}

/**
 * The key prefix + OPEN + tag + CLOSE + suffix for the slot. Its hashtag is the tag, so it
 * lands on the slot whatever the suffix holds{{key_string_doc}}.
 * @param {Uint8Array | string} prefix
 * @param {number} slot
 * @param {Uint8Array | string} suffix
 * @returns {{key_return_jsdoc}}
 * @throws {SlotgenError} SLOT_OUT_OF_RANGE, or PREFIX_HAS_DELIMITER when the prefix
 *   contains OPEN
 */
export function keyForSlot(prefix, slot, suffix) {
  const head = toBytes(prefix, "prefix");
  const tail = toBytes(suffix, "suffix");
  const tag = tagForSlot(slot);
  const at = head.indexOf(OPEN);
  if (at >= 0) {
    throw new SlotgenError(
      "PREFIX_HAS_DELIMITER",
      `prefix contains the hashtag's opening byte 0x${OPEN.toString(16)} at byte ${at}: ` +
        "the key's hashtag would start there instead of at the tag; remove it from the " +
        "prefix or move that part into the suffix",
    );
  }
  const key = new Uint8Array(head.length + TAG_LEN + 2 + tail.length);
  key.set(head, 0);
  key[head.length] = OPEN;
  key.set(tag, head.length + 1);
  key[head.length + 1 + TAG_LEN] = CLOSE;
  key.set(tail, head.length + TAG_LEN + 2);
{{key_return}}
}
