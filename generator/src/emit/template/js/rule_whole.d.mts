
/**
 * The key of the slot: this scheme hashes the whole key, so it is the tag alone.
 * @throws {SlotgenError} SLOT_OUT_OF_RANGE, or WHOLE_KEY_HASHED unless prefix and suffix
 *   are empty
 */
{{key_for_slot_text}}export declare function keyForSlot(prefix: Key, slot: number, suffix: Key): Uint8Array;
