// The examples of the module's usage comment, run against the module (as Python's doctests
// run its docstring): each line `//   <call>; // <answer>` whose answer is a number, a
// string `"..."` or `the bytes of "..."` must give that answer, its bytes written as the
// emitter writes them in comments (printable ASCII but `\`, else `\xNN`). Prints nothing
// when every example holds.
//
// Usage: node usage.mjs MODULE

import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const path = process.argv[2];
const m = await import(pathToFileURL(path).href);

// Bytes as the emitter's comments write them (`comment_text` in emit/common.rs).
function commentText(bytes) {
  let text = "";
  bytes.forEach((b, i) => {
    const pair = i > 0 ? String.fromCharCode(bytes[i - 1], b) : "";
    const closes = pair === "?>" || pair === "*/";
    text += b >= 0x20 && b <= 0x7e && b !== 0x5c && !closes
      ? String.fromCharCode(b)
      : `\\x${b.toString(16).padStart(2, "0")}`;
  });
  return text;
}

function show(value) {
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return `"${commentText(new TextEncoder().encode(value))}"`;
  if (value instanceof Uint8Array) return `the bytes of "${commentText(value)}"`;
  throw new Error(`an example gives ${value}`);
}

const names = Object.keys(m).join(", ");
let checked = 0;
for (const line of readFileSync(path, "utf8").split("\n")) {
  const example = /^\/\/   (.+?);\s+\/\/ (\d+|".*"|the bytes of ".*")$/.exec(line);
  if (example === null) continue;
  const [, call, answer] = example;
  const value = new Function("m", `const { ${names} } = m; return ${call};`)(m);
  if (show(value) !== answer) {
    throw new Error(`usage example \`${call}\` gives ${show(value)}, the comment says ${answer}`);
  }
  checked++;
}
if (checked < 3) {
  throw new Error(`the usage comment has ${checked} examples with answers, expected 3`);
}
