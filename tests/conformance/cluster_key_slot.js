const slot = require("cluster-key-slot");
const lines = require("fs").readFileSync(0, "latin1").split("\n").slice(0, -1);
process.stdout.write(lines.map((h) => slot(Buffer.from(h, "hex")) + "\n").join(""));
