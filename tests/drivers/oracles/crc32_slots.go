package main

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"os"
)

func codis(key []byte) uint32 {
	if i := bytes.IndexByte(key, '{'); i >= 0 {
		if j := bytes.IndexByte(key[i+1:], '}'); j >= 0 {
			key = key[i+1 : i+1+j]
		}
	}
	return crc32.ChecksumIEEE(key) % 1024
}

func couchbase(key []byte, n uint32) uint32 {
	return ((crc32.ChecksumIEEE(key) >> 16) & 0x7fff) % n
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for in.Scan() {
		key, err := hex.DecodeString(in.Text())
		if err != nil {
			panic(err)
		}
		fmt.Fprintln(out, codis(key), couchbase(key, 1024), couchbase(key, 64))
	}
}
