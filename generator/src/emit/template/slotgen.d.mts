{{header}}//
// TypeScript declarations of the ES module slotgen.mjs of the same spec: put them beside
// it as slotgen.d.mts. Checked with `tsc --strict`.

/** The number of hash slots; a slot is an integer in [0, SLOTS). */
export declare const SLOTS: {{slots}};
/** Symbols (bytes) per tag. */
export declare const TAG_LEN: {{tag_len}};
/** How many tags land on each slot. */
export declare const TAGS_PER_SLOT: {{tags_per_slot_literal}};
/** The slot of the tag whose symbols all have index 0. */
export declare const BASE_SLOT: {{base_slot}};

/** The rule a refused call breaks. */
export type SlotgenErrorCode = "SLOT_OUT_OF_RANGE" | "PREFIX_HAS_BRACE";

/** A call the module refuses; `code` says which rule it breaks. */
export declare class SlotgenError extends Error {
  constructor(code: SlotgenErrorCode, message: string);
  code: SlotgenErrorCode;
}

/** A key: bytes (a Buffer is a Uint8Array too), or a string, hashed as its UTF-8 bytes. */
export type Key = Uint8Array | string;

/** The hash slot of a key: the CRC of its hashtag, an integer in [0, SLOTS). */
export declare function slot(key: Key): number;

/**
 * A tag (TAG_LEN bytes of the alphabet) whose key lands on the slot.
 * @throws {SlotgenError} SLOT_OUT_OF_RANGE unless slot is an integer in [0, SLOTS)
 */
export declare function tagForSlot(slot: number): Uint8Array;

{{key_for_slot}}
/**
 * Every tag that lands on the slot, lazily: TAGS_PER_SLOT of them, the tagForSlot tag first.
 * @throws {SlotgenError} SLOT_OUT_OF_RANGE unless slot is an integer in [0, SLOTS)
 */
export declare function tagsForSlot(slot: number): Generator<Uint8Array, void, undefined>;
