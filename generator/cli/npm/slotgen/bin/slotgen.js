#!/usr/bin/env node
// `npx slotgen ARGS`: runs the slotgen binary of this platform, which an optional package
// per platform ships (`slotgen-<platform>-<arch>`, as Node's process.platform and
// process.arch name them; npm installs only the one whose `os`, `cpu` and `libc` fit).
// The platforms shipped are this package's optionalDependencies, stamped by .ci/package.
// The binary runs with this process's standard streams; its exit status is this one's, and
// a signal that ends it ends this process too. A signal sent to this process (a supervisor's
// SIGTERM to the pid it started) is passed on to the binary, so that it never outlives this
// process.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { constants } from "node:os";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);
const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const prefix = "slotgen-";
const shipped = Object.keys(manifest.optionalDependencies ?? {})
  .filter((name) => name.startsWith(prefix))
  .map((name) => name.slice(prefix.length));
const platform = `${process.platform}-${process.arch}`;
const wayOut = "install the binary from source with `cargo install slotgen-cli` (Rust 1.85+)";

function fail(message) {
  process.stderr.write(`slotgen: error: ${message}\n`);
  process.exit(1);
}

if (!shipped.includes(platform)) {
  fail(
    `no slotgen binary is shipped for ${platform} (shipped: ${shipped.join(", ") || "none"}): ${wayOut}`,
  );
}
const name = prefix + platform;
let binary;
try {
  const exe = process.platform === "win32" ? "slotgen.exe" : "slotgen";
  binary = join(dirname(require.resolve(`${name}/package.json`)), "bin", exe);
} catch {
  fail(
    `the package ${name}, which holds the binary for ${platform}, is not installed ` +
      `(npm leaves it out under --omit=optional, or when its os, cpu or libc do not fit): ` +
      `reinstall slotgen with optional dependencies, or ${wayOut}`,
  );
}
// The signals a supervisor or a terminal sends to end a process: passed on to the binary,
// whose end then ends this process. (Ctrl-C reaches both from the terminal; the binary's
// second SIGINT changes nothing.)
// The handlers are in place before the binary starts: until a handler is, such a signal
// ends this process at once and the binary would live on. (A handler runs between ticks, so
// `child` is set by then.)
const forwarded = ["SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT"];
let child;
const forward = (signal) => child.kill(signal);
for (const signal of forwarded) {
  process.on(signal, forward);
}
child = spawn(binary, process.argv.slice(2), { stdio: "inherit" });
child.on("error", (error) => fail(`running ${binary}: ${error.message}`));
child.on("exit", (status, signal) => {
  for (const handled of forwarded) {
    process.off(handled, forward);
  }
  if (signal) {
    process.kill(process.pid, signal);
    // a signal Node ignores or handles (SIGPIPE): the shell's status for it
    process.exit(128 + (constants.signals[signal] ?? 0));
  }
  process.exit(status ?? 1);
});
