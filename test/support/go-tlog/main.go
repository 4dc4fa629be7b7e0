// Command go-tlog answers the interop test's questions with Go's golang.org/x/mod/sumdb/note and sumdb/tlog (the
// code behind the Go checksum database), so that the gateway's notes, key IDs and proofs are checked, and Go-made
// ones are fed to the gateway's verifiers, by an implementation written elsewhere. It reads one JSON array of
// requests on stdin and writes one JSON array of answers, in order; a failed check is an answer, not an exit.
package main

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"os"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

type request struct {
	Op string `json:"op"`
	// open: a signed note and the verifier keys to open it with.
	Note  string   `json:"note,omitempty"`
	Vkeys []string `json:"vkeys,omitempty"`
	// sign: the note text, signed by a new key of this name or by skey.
	Text string `json:"text,omitempty"`
	Name string `json:"name,omitempty"`
	Skey string `json:"skey,omitempty"`
	// inclusion, consistency: sizes, indexes, hashes ([]byte is base64 in JSON).
	Index    int64    `json:"index,omitempty"`
	Size     int64    `json:"size,omitempty"`
	From     int64    `json:"from,omitempty"`
	Root     []byte   `json:"root,omitempty"`
	FromRoot []byte   `json:"fromRoot,omitempty"`
	Entry    []byte   `json:"entry,omitempty"`
	Hashes   [][]byte `json:"hashes,omitempty"`
	// tree: the entries of a log, in order.
	Entries [][]byte `json:"entries,omitempty"`
}

type signature struct {
	Name string `json:"name"`
	Hash uint32 `json:"hash"`
}

type tree struct {
	// Roots[n-1] is the root of the first n entries; Inclusion[n-1][i] proves entry i in that tree;
	// Consistency[n-1][m-1] proves the tree of m a prefix of the tree of n.
	Roots       [][]byte     `json:"roots"`
	Inclusion   [][][][]byte `json:"inclusion"`
	Consistency [][][][]byte `json:"consistency"`
}

type answer struct {
	OK         bool        `json:"ok"`
	Error      string      `json:"error,omitempty"`
	Text       string      `json:"text,omitempty"`
	Verified   []signature `json:"verified,omitempty"`
	Unverified []signature `json:"unverified,omitempty"`
	Vkey       string      `json:"vkey,omitempty"`
	Skey       string      `json:"skey,omitempty"`
	Signed     string      `json:"signed,omitempty"`
	Tree       *tree       `json:"tree,omitempty"`
}

func main() {
	var requests []request
	if err := json.NewDecoder(os.Stdin).Decode(&requests); err != nil {
		fmt.Fprintln(os.Stderr, "go-tlog: reading requests:", err)
		os.Exit(2)
	}
	answers := make([]answer, len(requests))
	for i, r := range requests {
		a, err := run(r)
		if err != nil {
			a = answer{Error: err.Error()}
		} else {
			a.OK = true
		}
		answers[i] = a
	}
	if err := json.NewEncoder(os.Stdout).Encode(answers); err != nil {
		fmt.Fprintln(os.Stderr, "go-tlog: writing answers:", err)
		os.Exit(2)
	}
}

func run(r request) (answer, error) {
	switch r.Op {
	case "open":
		return open(r)
	case "sign":
		return sign(r)
	case "inclusion":
		h, err := hash(r.Root)
		if err != nil {
			return answer{}, err
		}
		p, err := hashes(r.Hashes)
		if err != nil {
			return answer{}, err
		}
		return answer{}, tlog.CheckRecord(p, r.Size, h, r.Index, tlog.RecordHash(r.Entry))
	case "consistency":
		to, err := hash(r.Root)
		if err != nil {
			return answer{}, err
		}
		from, err := hash(r.FromRoot)
		if err != nil {
			return answer{}, err
		}
		p, err := hashes(r.Hashes)
		if err != nil {
			return answer{}, err
		}
		return answer{}, tlog.CheckTree(p, r.Size, to, r.From, from)
	case "tree":
		t, err := build(r.Entries)
		return answer{Tree: t}, err
	}
	return answer{}, fmt.Errorf("unknown op %q", r.Op)
}

func open(r request) (answer, error) {
	var verifiers []note.Verifier
	for _, vkey := range r.Vkeys {
		v, err := note.NewVerifier(vkey)
		if err != nil {
			return answer{}, err
		}
		verifiers = append(verifiers, v)
	}
	n, err := note.Open([]byte(r.Note), note.VerifierList(verifiers...))
	if err != nil {
		return answer{}, err
	}
	a := answer{Text: n.Text}
	for _, s := range n.Sigs {
		a.Verified = append(a.Verified, signature{s.Name, s.Hash})
	}
	for _, s := range n.UnverifiedSigs {
		a.Unverified = append(a.Unverified, signature{s.Name, s.Hash})
	}
	return a, nil
}

func sign(r request) (answer, error) {
	skey, vkey := r.Skey, ""
	if skey == "" {
		var err error
		if skey, vkey, err = note.GenerateKey(rand.Reader, r.Name); err != nil {
			return answer{}, err
		}
	}
	signer, err := note.NewSigner(skey)
	if err != nil {
		return answer{}, err
	}
	signed, err := note.Sign(&note.Note{Text: r.Text}, signer)
	if err != nil {
		return answer{}, err
	}
	return answer{Vkey: vkey, Skey: skey, Signed: string(signed)}, nil
}

// build stores the entries' tree as tlog does (its stored-hash layout, in memory) and proves every pair from it.
func build(entries [][]byte) (*tree, error) {
	var stored []tlog.Hash
	reader := tlog.HashReaderFunc(func(indexes []int64) ([]tlog.Hash, error) {
		out := make([]tlog.Hash, len(indexes))
		for i, x := range indexes {
			out[i] = stored[x]
		}
		return out, nil
	})
	t := &tree{}
	for n, entry := range entries {
		more, err := tlog.StoredHashes(int64(n), entry, reader)
		if err != nil {
			return nil, err
		}
		stored = append(stored, more...)
		size := int64(n + 1)
		root, err := tlog.TreeHash(size, reader)
		if err != nil {
			return nil, err
		}
		t.Roots = append(t.Roots, root[:])
		var inclusion, consistency [][][]byte
		for i := int64(0); i < size; i++ {
			p, err := tlog.ProveRecord(size, i, reader)
			if err != nil {
				return nil, err
			}
			inclusion = append(inclusion, bytes(p))
			p2, err := tlog.ProveTree(size, i+1, reader)
			if err != nil {
				return nil, err
			}
			consistency = append(consistency, bytes(p2))
		}
		t.Inclusion = append(t.Inclusion, inclusion)
		t.Consistency = append(t.Consistency, consistency)
	}
	return t, nil
}

func hash(b []byte) (tlog.Hash, error) {
	var h tlog.Hash
	if len(b) != len(h) {
		return h, fmt.Errorf("a hash is %d bytes, not %d", len(h), len(b))
	}
	copy(h[:], b)
	return h, nil
}

func hashes(bs [][]byte) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(bs))
	for i, b := range bs {
		h, err := hash(b)
		if err != nil {
			return nil, err
		}
		out[i] = h
	}
	return out, nil
}

func bytes(hs []tlog.Hash) [][]byte {
	out := make([][]byte, len(hs))
	for i := range hs {
		out[i] = hs[i][:]
	}
	return out
}
