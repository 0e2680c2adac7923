{{header}}//
// TypeScript declarations of the ES module slotgen.mjs of the same spec: put them beside
// it as slotgen.d.mts. Checked with `tsc --strict` against the module.

/** The number of slots. */
export declare const SLOTS: {{slots}};
/** The first slot; slots are FIRST_SLOT to LAST_SLOT. */
export declare const FIRST_SLOT: {{first_slot}};
/** The last slot. */
export declare const LAST_SLOT: {{last_slot}};
/** Symbols (bytes) per tag. */
export declare const TAG_LEN: {{tag_len}};

/** The rule a refused call breaks. */
export type SlotgenErrorCode = "SLOT_OUT_OF_RANGE" | "{{key_code}}";

/** A call the module refuses; `code` says which rule it breaks. */
export declare class SlotgenError extends Error {
  constructor(code: SlotgenErrorCode, message: string);
  code: SlotgenErrorCode;
}

/** A key: bytes (a Buffer is a Uint8Array too), or a string, hashed as its UTF-8 bytes. */
export type Key = Uint8Array | string;

/**
 * The bytes of the key that its slot is computed from, a copy:
 * {{rule_doc}}.
 */
export declare function hashtag(key: Key): Uint8Array;

/** The slot of a key, an integer from FIRST_SLOT to LAST_SLOT. */
export declare function slot(key: Key): number;

/**
 * A tag (TAG_LEN bytes of the alphabet) whose key lands on the slot.
 * @throws {SlotgenError} SLOT_OUT_OF_RANGE unless slot is from FIRST_SLOT to LAST_SLOT
 */
export declare function tagForSlot(slot: number): Uint8Array;
{{rule}}
/**
 * Every tag that lands on the slot, lazily, the tagForSlot tag first.
 * @throws {SlotgenError} SLOT_OUT_OF_RANGE unless slot is from FIRST_SLOT to LAST_SLOT
 */
export declare function tagsForSlot(slot: number): Generator<Uint8Array, void, undefined>;

/**
 * The slot every key lands on; null when two keys land on different slots (the server
 * answers CROSSSLOT) or there are none.
 * `& object` keeps a string, itself an iterable of strings, from passing for its keys.
 * @throws {TypeError} when keys is one key (a string or a Uint8Array), not an iterable of keys
 */
export declare function sameSlot(keys: Iterable<Key> & object): number | null;

/**
 * The one hashtag every key has between its delimiters, a copy; null when a key has none,
 * two keys have different ones, or there are none.
 * @throws {TypeError} when keys is one key (a string or a Uint8Array), not an iterable of keys
 */
export declare function sharedHashtag(keys: Iterable<Key> & object): Uint8Array | null;
