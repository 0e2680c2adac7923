
/** The byte that opens a hashtag. */
export declare const OPEN: {{open}};
/** The byte that closes a hashtag. */
export declare const CLOSE: {{close}};

/**
 * The key prefix + OPEN + tag + CLOSE + suffix for the slot. Its hashtag is the tag, so it
 * lands on the slot whatever the suffix holds.
 * @throws {SlotgenError} SLOT_OUT_OF_RANGE, or PREFIX_HAS_DELIMITER when the prefix
 *   contains OPEN
 */
{{key_for_slot_text}}export declare function keyForSlot(prefix: Key, slot: number, suffix: Key): Uint8Array;
