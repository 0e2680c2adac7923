// Adapter for `slotgen verify --exec`: hex keys in, one slot per line out, by the package
// that `slotgen emit go > slotgen/slotgen.go` writes (in a module named `adapter`).
package main

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"os"

	"adapter/slotgen"
)

func main() {
	in, out := bufio.NewScanner(os.Stdin), bufio.NewWriter(os.Stdout)
	in.Buffer(nil, 1<<20)
	for in.Scan() {
		k, _ := hex.DecodeString(in.Text())
		fmt.Fprintln(out, slotgen.Slot(k))
	}
	out.Flush()
}
