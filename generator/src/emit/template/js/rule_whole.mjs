
// Sets bytes[range[0] .. range[1]] to the bytes of a key that its slot is computed from:
// this scheme has no hashtag, so the whole key. Returns false: it is no hashtag.
function hashed(bytes, range) {
  range[0] = 0;
  range[1] = bytes.length;
  return false;
}

/**
 * The key of the slot: this scheme hashes the whole key, so it is the tag alone{{key_string_doc}}.
 * @param {Uint8Array | string} prefix empty
 * @param {number} slot
 * @param {Uint8Array | string} suffix empty
 * @returns {{key_return_jsdoc}}
 * @throws {SlotgenError} SLOT_OUT_OF_RANGE, or WHOLE_KEY_HASHED unless prefix and suffix
 *   are empty
 */
export function keyForSlot(prefix, slot, suffix) {
  const head = toBytes(prefix, "prefix");
  const tail = toBytes(suffix, "suffix");
  const key = tagForSlot(slot);
  if (head.length !== 0 || tail.length !== 0) {
    throw new SlotgenError(
      "WHOLE_KEY_HASHED",
      "this scheme hashes the whole key, so a key that lands on a slot is the tag alone: " +
        "give no prefix or suffix",
    );
  }
{{key_return}}
}
