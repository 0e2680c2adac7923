<# The declarations of the ES module (`emit js --types`). #>
{{header}}//
// TypeScript declarations of the ES module slotgen.mjs of the same spec: put them beside
// it as slotgen.d.mts. Checked with `tsc --strict` against the module.

/** The number of slots. */
export declare const SLOTS: {{slots.count}};
/** The first slot; slots are FIRST_SLOT to LAST_SLOT. */
export declare const FIRST_SLOT: {{slots.first}};
/** The last slot. */
export declare const LAST_SLOT: {{slots.last}};
/** Symbols (bytes) per tag. */
export declare const TAG_LEN: {{tags.len}};

/** The rule a refused call breaks. */
export type SlotgenErrorCode = "SLOT_OUT_OF_RANGE" | "{{"FRAME_NOT_SOLVABLE" if rule.whole else "PREFIX_HAS_DELIMITER"}}";

/** A call the module refuses; `code` says which rule it breaks. */
export declare class SlotgenError extends Error {
  constructor(code: SlotgenErrorCode, message: string);
  code: SlotgenErrorCode;
}

/** A key: bytes (a Buffer is a Uint8Array too), or a string, hashed as its UTF-8 bytes. */
export type Key = Uint8Array | string;

/**
 * The bytes of the key that its slot is computed from, a copy:
 * {{rule.doc}}.
 */
export declare function hashtag(key: Key): Uint8Array;

/** The slot of a key, an integer from FIRST_SLOT to LAST_SLOT. */
export declare function slot(key: Key): number;

/**
 * A tag (TAG_LEN bytes of the alphabet) whose key lands on the slot.
 * @throws {SlotgenError} SLOT_OUT_OF_RANGE unless slot is from FIRST_SLOT to LAST_SLOT
 */
export declare function tagForSlot(slot: number): Uint8Array;
<% if rule.whole %>

/**
 * The key prefix + tag + suffix of the slot: this scheme hashes the whole key, so the tag
 * is solved inside the frame (the tag alone when both are empty, tagForSlot's).
 * @throws {SlotgenError} SLOT_OUT_OF_RANGE, or FRAME_NOT_SOLVABLE when tags of TAG_LEN
 *   symbols cannot reach every slot inside this prefix and suffix
 */
<% if alphabet.ascii %>
export declare function keyForSlot(prefix: string, slot: number, suffix: string): string;
<% endif %>
export declare function keyForSlot(prefix: Key, slot: number, suffix: Key): Uint8Array;
<% else %>

/** The byte that opens a hashtag. */
export declare const OPEN: {{rule.open | hex(2)}};
/** The byte that closes a hashtag. */
export declare const CLOSE: {{rule.close | hex(2)}};

/**
 * The key prefix + OPEN + tag + CLOSE + suffix for the slot. Its hashtag is the tag, so it
 * lands on the slot whatever the suffix holds.
 * @throws {SlotgenError} SLOT_OUT_OF_RANGE, or PREFIX_HAS_DELIMITER when the prefix
 *   contains OPEN
 */
<% if alphabet.ascii %>
export declare function keyForSlot(prefix: string, slot: number, suffix: string): string;
<% endif %>
export declare function keyForSlot(prefix: Key, slot: number, suffix: Key): Uint8Array;
<% endif %>

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
