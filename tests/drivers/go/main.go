// The harness's driver for the Go package (the protocol: tests/src/harness.rs), built in a
// module named `slotgentest` with the package in `slotgen/` (the harness copies it beside
// each case's package, `<case>/slotgen/`, and imports that one instead).
//
// Usage: driver KEYS GROUPS FEW DEEP PREFIX SUFFIX BAD_PREFIX BAD_SUFFIX
package main

import (
	"bufio"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"slotgentest/slotgen"
)

func unhex(h string) []byte {
	b, err := hex.DecodeString(h)
	if err != nil {
		panic(err)
	}
	return b
}

func lines(path string) []string {
	data, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

func number(arg string) int {
	n, err := strconv.Atoi(arg)
	if err != nil {
		panic(err)
	}
	return n
}

func main() {
	keysPath, groupsPath := os.Args[1], os.Args[2]
	few, deep := number(os.Args[3]), number(os.Args[4])
	prefix, suffix := unhex(os.Args[5]), unhex(os.Args[6])
	badPrefix, badSuffix := unhex(os.Args[7]), unhex(os.Args[8])
	// variables, not constants: FirstSlot - 1 wraps below slot 0
	first, last := uint32(slotgen.FirstSlot), uint32(slotgen.LastSlot)
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()

	fmt.Fprintf(w, "const\t%d\t%d\t%d\t%d\n", first, last, slotgen.Slots, slotgen.TagLen)
	for s := first; s <= last; s++ {
		tag, err := slotgen.TagForSlot(s)
		if err != nil {
			panic(err)
		}
		fmt.Fprintf(w, "tag\t%d\t%x\n", s, tag)
	}
	take := func(s uint32, n int) string {
		tags, err := slotgen.TagsForSlot(s)
		if err != nil {
			panic(err)
		}
		hexes := []string{}
		tags(func(tag []byte) bool {
			if len(hexes) == n {
				return false
			}
			hexes = append(hexes, hex.EncodeToString(tag))
			return true
		})
		return strings.Join(hexes, ",")
	}
	for s := first; s <= last; s++ {
		fmt.Fprintf(w, "tags\t%d\t%s\n", s, take(s, few))
	}
	for _, s := range []uint32{first, last} {
		fmt.Fprintf(w, "deep\t%d\t%s\n", s, take(s, deep))
	}
	for s := first; s <= last; s++ {
		key, err := slotgen.KeyForSlot(prefix, s, suffix)
		if err != nil {
			panic(err)
		}
		fmt.Fprintf(w, "key\t%d\t%x\n", s, key)
	}

	hexKeys := lines(keysPath)
	keys := make([][]byte, len(hexKeys))
	for i, h := range hexKeys {
		keys[i] = unhex(h)
		fmt.Fprintf(w, "slot\t%s\t%d\n", h, slotgen.Slot(keys[i]))
	}
	for i, key := range keys {
		if utf8.Valid(key) {
			fmt.Fprintf(w, "str\t%s\t%d\n", hexKeys[i], slotgen.SlotString(string(key)))
		}
	}
	for i, key := range keys {
		fmt.Fprintf(w, "hashtag\t%s\t%x\n", hexKeys[i], slotgen.Hashtag(key))
	}

	var groups [][][]byte
	for _, line := range lines(groupsPath) {
		count, listed, _ := strings.Cut(line, ":")
		group := [][]byte{}
		for _, h := range strings.Split(listed, ",")[:number(count)] {
			group = append(group, unhex(h))
		}
		groups = append(groups, group)
	}
	for i, group := range groups {
		if s, ok := slotgen.SameSlot(group...); ok {
			fmt.Fprintf(w, "same\t%d\t%d\n", i, s)
		} else {
			fmt.Fprintf(w, "same\t%d\t-\n", i)
		}
	}
	for i, group := range groups {
		if tag, ok := slotgen.SharedHashtag(group...); ok {
			fmt.Fprintf(w, "shared\t%d\t%x\n", i, tag)
		} else {
			fmt.Fprintf(w, "shared\t%d\t-\n", i)
		}
	}

	// A refusal counts only when its error wraps one of the sentinels.
	refusal := func(name string, err error, sentinels ...error) {
		if err == nil {
			fmt.Fprintf(w, "accepted\t%s\t\n", name)
			return
		}
		for _, sentinel := range sentinels {
			if errors.Is(err, sentinel) {
				fmt.Fprintf(w, "refused\t%s\t%s\n", name, err)
				return
			}
		}
		fmt.Fprintf(w, "accepted\t%s\twrong error: %s\n", name, err)
	}
	_, err := slotgen.TagForSlot(last + 1)
	refusal("tag_above", err, slotgen.ErrSlotOutOfRange)
	_, err = slotgen.TagForSlot(first - 1)
	refusal("tag_below", err, slotgen.ErrSlotOutOfRange)
	_, err = slotgen.TagsForSlot(last + 1)
	refusal("tags_above", err, slotgen.ErrSlotOutOfRange)
	_, err = slotgen.KeyForSlot(prefix, last+1, suffix)
	refusal("key_above", err, slotgen.ErrSlotOutOfRange)
	_, err = slotgen.KeyForSlot(badPrefix, first, badSuffix)
	refusal("key_rule", err, slotgen.ErrPrefixHasDelimiter, slotgen.ErrFrameNotSolvable)
}
