
/** The byte that opens a hashtag. */
export const OPEN = {{open}};
/** The byte that closes a hashtag. */
export const CLOSE = {{close}};
// A hashtag shorter than this hashes the whole key.
const MIN_TAG_LEN = {{min_tag_len}};

// Sets bytes[range[0] .. range[1]] to the bytes of a key that its slot is computed from:
// the hashtag, between the first OPEN and the first CLOSE after it, when it has at least
// MIN_TAG_LEN bytes, else the whole key. Returns whether it is a hashtag. The loops are
// JavaScript's own: a Buffer's indexOf is a call into C++, slower for a short key.
function hashed(bytes, range) {
  const n = bytes.length;
  let open = 0;
  while (open < n && bytes[open] !== OPEN) {
    open++;
  }
  let close = open + 1;
  while (close < n && bytes[close] !== CLOSE) {
    close++;
  }
  if (close < n && close - open > MIN_TAG_LEN) {
    range[0] = open + 1;
    range[1] = close;
    return true;
  }
  range[0] = 0;
  range[1] = n;
  return false;
}

// The CRC of the bytes that hashed() finds, in one pass like the clients' own: the whole
// key's register until OPEN, then the hashtag's until CLOSE; past a missing CLOSE or a short
// hashtag, the whole key's goes on from OPEN. A Buffer or Uint8Array key.
function crcHashed(bytes) {
  const n = bytes.length;
  let whole = {{crc_start}};
  let i = 0;
  for (; i < n; i++) {
    const byte = bytes[i];
    if (byte === OPEN) {
      break;
    }
    whole = step(whole, byte);
  }
  if (i < n) {
    let tag = {{crc_start}};
    let j = i + 1;
    for (; j < n; j++) {
      const byte = bytes[j];
      if (byte === CLOSE) {
        break;
      }
      tag = step(tag, byte);
    }
    if (j < n && j - i > MIN_TAG_LEN) {
      return finish(tag);
    }
    for (; i < n; i++) {
      whole = step(whole, bytes[i]);
    }
  }
  return finish(whole);
}

// Whether keyForSlot of string affixes is a string: when the alphabet is ASCII.
const TEXT_KEYS = {{text_keys}};
// OPEN + tag + CLOSE as strings (with TEXT_KEYS, a character a byte), by value, each made
// the first time keyForSlot asks for it.
const framedTexts = [];

function framedText(value) {
  let text = framedTexts[value];
  if (text === undefined) {
    tagWords(value, tagForSlotWords);
    text = OPEN_TEXT + String.fromCharCode(...tagOfWords(tagForSlotWords)) + CLOSE_TEXT;
    framedTexts[value] = text;
  }
  return text;
}

// Whether a string key's slot is computed from its characters without encoding it first:
// when both delimiters are ASCII, the only UTF-8 bytes equal to them are their own
// characters, so hashedText finds the hashtag among the characters.
const TEXT_RULE = {{text_rule}};
const OPEN_TEXT = String.fromCharCode(OPEN);
const CLOSE_TEXT = String.fromCharCode(CLOSE);

// hashed's rule over a string's characters (with TEXT_RULE): the range of characters whose
// UTF-8 bytes are hashed. MIN_TAG_LEN is 0 or 1, so a hashtag's characters count as its
// bytes here.
function hashedText(text, range) {
  const open = text.indexOf(OPEN_TEXT);
  if (open >= 0) {
    const close = text.indexOf(CLOSE_TEXT, open + 1);
    if (close - open > MIN_TAG_LEN) {
      range[0] = open + 1;
      range[1] = close;
      return;
    }
  }
  range[0] = 0;
  range[1] = text.length;
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
  if (
    TEXT_KEYS &&
    TEXT_RULE &&
    typeof prefix === "string" &&
    typeof suffix === "string" &&
    prefix.indexOf(OPEN_TEXT) < 0
  ) {
    // the language's own concatenation: the tag's characters are its bytes
    return prefix + framedText(checkSlot(slot)) + suffix;
  }
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
