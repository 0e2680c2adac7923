// slotgen's JavaScript module against cluster-key-slot (the slot function of ioredis and
// node-redis), in one process, for string keys and Buffer keys; then tagForSlot against a
// lookup in an array of 16384 ready tags, and keyForSlot against that lookup concatenated
// with a prefix and suffix.
//
//   node bench.mjs MODULE_DIR KEY_DIR ROUNDS PEER_DIR
//
// PEER_DIR holds node_modules/cluster-key-slot (tests/conformance, `npm ci`). Prints
// tab-separated rows: language, function, key type, case, length, code, ns per key (the
// best of ROUNDS rounds over every key of the case).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [moduleDir, keyDir, roundsText, peerDir] = process.argv.slice(2);
const slotgen = await import(pathToFileURL(resolve(moduleDir, "slotgen.mjs")).href);
const rounds = Number(roundsText);
let peer = null;
try {
  peer = createRequire(`${resolve(peerDir)}/`)("cluster-key-slot");
} catch {
  console.error("skip: cluster-key-slot is not installed (npm ci --prefix tests/conformance)");
}

function best(fn, keys) {
  let min = Infinity;
  let total = null;
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint();
    let s = 0;
    for (let i = 0; i < keys.length; i++) s += fn(keys[i]);
    const ns = Number(process.hrtime.bigint() - start);
    if (total !== null && total !== s) throw new Error("rounds disagree");
    total = s;
    min = Math.min(min, ns);
  }
  return [Math.round(min / keys.length), total];
}

let quiet = true;
const row = (...cells) => quiet || console.log(cells.join("\t"));

// The first pass warms the JIT up over every case (its rows are left out), the second is
// measured.
for (const pass of [0, 1]) for (const kind of ["plain", "tag"]) {
  for (const n of [3, 8, 22, 64, 1024]) {
    const texts = readFileSync(`${keyDir}/${kind}-${n}.txt`, "ascii").split("\n").filter(Boolean);
    quiet = pass === 0;
    const buffers = texts.map((t) => Buffer.from(t));
    for (const [type, keys] of [["string", texts], ["Buffer", buffers]]) {
      const [ns, want] = best(slotgen.slot, keys);
      row("js", "slot", type, kind, n, "slotgen", ns);
      if (peer) {
        const [peerNs, got] = best(peer, keys);
        if (got !== want) throw new Error(`cluster-key-slot disagrees on ${kind}-${n}`);
        row("js", "slot", type, kind, n, "cluster-key-slot", peerNs);
      }
    }
  }
}

const slots = [];
for (let s = slotgen.FIRST_SLOT; s <= slotgen.LAST_SLOT; s++) slots.push(s);
const ready = slots.map((s) => slotgen.tagForSlot(s));
const readyText = ready.map((t) => Buffer.from(t).toString("latin1"));
// Each answer is kept (in a ring of 1024), as a caller keeps a key to send it: else V8 may
// leave a concatenation it never reads unmade. The affixes are variables, as a caller's are.
const sink = new Array(1024);
const keep = (i, value) => {
  sink[i & 1023] = value;
  return value.length;
};
const [prefix, suffix] = ["user:", ":cart"];
row("js", "tagForSlot", "-", "-", "-", "slotgen", best((s) => keep(s, slotgen.tagForSlot(s)), slots)[0]);
row("js", "tagForSlot", "-", "-", "-", "array of tags", best((s) => keep(s, ready[s]), slots)[0]);
row("js", "tagForSlot", "-", "-", "-", "array of tags + slice", best((s) => keep(s, ready[s].slice()), slots)[0]);
row("js", "keyForSlot", "string", "-", "-", "slotgen",
  best((s) => keep(s, slotgen.keyForSlot(prefix, s, suffix)), slots)[0]);
row("js", "keyForSlot", "string", "-", "-", "array of tags + concat",
  best((s) => keep(s, prefix + "{" + readyText[s] + "}" + suffix), slots)[0]);
