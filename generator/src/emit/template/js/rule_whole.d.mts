
/**
 * The key prefix + tag + suffix of the slot: this scheme hashes the whole key, so the tag
 * is solved inside the frame (the tag alone when both are empty, tagForSlot's).
 * @throws {SlotgenError} SLOT_OUT_OF_RANGE, or FRAME_NOT_SOLVABLE when tags of TAG_LEN
 *   symbols cannot reach every slot inside this prefix and suffix
 */
{{key_for_slot_text}}export declare function keyForSlot(prefix: Key, slot: number, suffix: Key): Uint8Array;
