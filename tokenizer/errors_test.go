package tokenizer_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reasoning-go/reasoning/tokenizer"
)

// minimalHF is the smallest tokenizer.json LoadHF accepts, with %s standing
// for extra top-level fields (which replace the defaults when repeated).
const minimalHF = `{"added_tokens": [], "normalizer": null, "pre_tokenizer": null, "decoder": null,
 "model": {"type": "BPE", "vocab": {"a": 0, "b": 1, "ab": 2}, "merges": ["a b"]}%s}`

func writeFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func gzipped(data []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(data)
	zw.Close()
	return buf.Bytes()
}

func hfWith(extra string) []byte {
	return []byte(strings.Replace(minimalHF, "%s", extra, 1))
}

// TestLoadHFErrors feeds LoadHF broken files: each must give an error that
// names the file and the part at fault, and never panic.
func TestLoadHFErrors(t *testing.T) {
	dir := t.TempDir()
	full := gzipped(hfWith(""))
	tests := []struct {
		name string
		file string
		data []byte // nil: the file does not exist
		want string // in the error, besides the path
	}{
		{"missing file", "missing.json", nil, "no such file"},
		{"truncated gzip", "trunc.json.gz", full[:len(full)/2], "gzip: unexpected EOF"},
		{"gz suffix without gzip", "plain.json.gz", hfWith(""), "gzip: invalid header"},
		{"empty file", "empty.json", []byte{}, "parse JSON"},
		{"corrupt JSON", "corrupt.json", []byte(`{"model": {"type": "BPE", "vocab": {"a": 0`), "parse JSON"},
		{"not an object", "array.json", []byte(`[1, 2]`), "parse JSON"},
		{"no model", "nomodel.json", []byte(`{"added_tokens": []}`), "no model"},
		{"unknown model", "wordpiece.json", []byte(`{"model": {"type": "WordPiece", "vocab": {"a": 0}}}`), `unsupported model "WordPiece"`},
		{"unknown pre-tokenizer", "pre.json", hfWith(`, "pre_tokenizer": {"type": "Foo"}`), `unsupported pre_tokenizer "Foo"`},
		{"unknown pre-tokenizer in a sequence", "preseq.json",
			hfWith(`, "pre_tokenizer": {"type": "Sequence", "pretokenizers": [{"type": "ByteLevel"}, {"type": "Digits"}]}`),
			`unsupported pre_tokenizer "Digits" after ByteLevel`},
		{"unknown normalizer", "norm.json", hfWith(`, "normalizer": {"type": "BertNormalizer"}`), `unsupported normalizer "BertNormalizer"`},
		{"unknown decoder", "dec.json", hfWith(`, "decoder": {"type": "WordPiece"}`), `unsupported decoder "WordPiece"`},
		{"bad split behavior", "split.json", hfWith(`, "pre_tokenizer": {"type": "Split", "pattern": {"Regex": "a"}, "behavior": "Sideways"}`), `unsupported behavior "Sideways"`},
		{"bad regex", "regex.json", hfWith(`, "pre_tokenizer": {"type": "Split", "pattern": {"Regex": "(a"}, "behavior": "Isolated"}`), `pattern "(a"`},
		{"merge out of vocab", "merge.json", []byte(`{"model": {"type": "BPE", "vocab": {"a": 0}, "merges": ["a c"]}}`), `merge 0 "a c": token not in the vocab`},
		{"bad merge line", "mergeline.json", []byte(`{"model": {"type": "BPE", "vocab": {"a": 0}, "merges": ["abc"]}}`), `merges: entry 0 "abc"`},
		{"unknown unk", "unk.json", []byte(`{"model": {"type": "BPE", "vocab": {"a": 0}, "merges": [], "unk_token": "<unk>"}}`), `unk_token "<unk>"`},
		{"dropout", "dropout.json", []byte(`{"model": {"type": "BPE", "vocab": {"a": 0}, "merges": [], "dropout": 0.1}}`), "dropout"},
		{"subword prefix", "prefix.json", []byte(`{"model": {"type": "BPE", "vocab": {"a": 0}, "merges": [], "continuing_subword_prefix": "##"}}`), "continuing_subword_prefix"},
		{"empty Replace pattern", "replace.json", hfWith(`, "decoder": {"type": "Replace", "pattern": {"String": ""}, "content": "x"}`), "decoder Replace: empty pattern"},
		{"empty added token", "added.json", hfWith(`, "added_tokens": [{"id": 5, "content": ""}]`), "empty content"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, tt.file)
			if tt.data != nil {
				writeFile(t, dir, tt.file, tt.data)
			}
			tok, err := tokenizer.LoadHF(path)
			if err == nil {
				t.Fatalf("LoadHF(%s) = %v, want an error", tt.file, tok)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "tokenizer: load "+path+": ") || !strings.Contains(msg, tt.want) {
				t.Errorf("LoadHF(%s) error = %q, want it to name the file and contain %q", tt.file, msg, tt.want)
			}
			// A file that is valid but uses what this package lacks, and
			// only such a file, matches ErrUnsupported; a missing one
			// matches fs.ErrNotExist.
			unsupported := strings.Contains(tt.want, "unsupported") || tt.name == "dropout" || tt.name == "subword prefix"
			if got := errors.Is(err, tokenizer.ErrUnsupported); got != unsupported {
				t.Errorf("LoadHF(%s): errors.Is(err, ErrUnsupported) = %v, want %v (error %q)", tt.file, got, unsupported, msg)
			}
			if got := errors.Is(err, fs.ErrNotExist); got != (tt.data == nil) {
				t.Errorf("LoadHF(%s): errors.Is(err, fs.ErrNotExist) = %v, want %v", tt.file, got, tt.data == nil)
			}
			// Any other broken file matches ErrMalformed.
			if got, want := errors.Is(err, tokenizer.ErrMalformed), !unsupported && tt.data != nil; got != want {
				t.Errorf("LoadHF(%s): errors.Is(err, ErrMalformed) = %v, want %v (error %q)", tt.file, got, want, msg)
			}
		})
	}
}

func TestLoadHFMinimal(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"tok.json", "tok.json.gz"} {
		data := hfWith(`, "added_tokens": [{"id": 3, "content": "<x>", "special": true}]`)
		if strings.HasSuffix(name, ".gz") {
			data = gzipped(data)
		}
		tok, err := tokenizer.LoadHF(writeFile(t, dir, name, data))
		if err != nil {
			t.Fatal(err)
		}
		if got := tok.Encode("ab<x>ba"); len(got) != 4 || got[0] != 2 || got[1] != 3 {
			t.Errorf("%s: Encode = %v, want [2 3 1 0]", name, got)
		}
		if id, ok := tok.TokenID("<x>"); !ok || id != 3 {
			t.Errorf("%s: TokenID(<x>) = %d, %v", name, id, ok)
		}
	}
}

func TestLoadTiktokenErrors(t *testing.T) {
	dir := t.TempDir()
	good := "YQ== 0\nYg== 1\nYWI= 2\n"
	tests := []struct {
		name, file, data string
		special          map[string]int
		pattern          string
		want             string
	}{
		{"missing file", "none.tiktoken", "", nil, `\w+`, "no such file"},
		{"bad base64", "b64.tiktoken", "YQ== 0\n!!!! 1\n", nil, `\w+`, "line 2: token"},
		{"bad rank", "rank.tiktoken", "YQ== zero\n", nil, `\w+`, `line 1: rank "zero"`},
		{"no rank", "norank.tiktoken", "YQ==\n", nil, `\w+`, "line 1: not a base64 token and a rank"},
		{"duplicate rank", "dup.tiktoken", "YQ== 0\nYg== 0\n", nil, `\w+`, "rank 0 appears twice"},
		{"empty", "empty.tiktoken", "\n", nil, `\w+`, "no ranks"},
		{"special on a rank", "spec.tiktoken", good, map[string]int{"<s>": 1}, `\w+`, `special token "<s>": id 1 is also a rank`},
		{"bad pattern", "pat.tiktoken", good, nil, `(\w+`, "pattern"},
		{"unsupported &&", "and.tiktoken", good, nil, `[a&&b]`, "unsupported use of &&"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, tt.file)
			if tt.data != "" {
				writeFile(t, dir, tt.file, []byte(tt.data))
			}
			_, err := tokenizer.LoadTiktoken(path, tt.special, tt.pattern)
			if err == nil {
				t.Fatal("no error")
			}
			if msg := err.Error(); !strings.HasPrefix(msg, "tokenizer: load "+path+": ") || !strings.Contains(msg, tt.want) {
				t.Errorf("error = %q, want it to name the file and contain %q", msg, tt.want)
			}
			missing, unsupported := tt.data == "", strings.HasPrefix(tt.want, "unsupported")
			if got := errors.Is(err, fs.ErrNotExist); got != missing {
				t.Errorf("errors.Is(err, fs.ErrNotExist) = %v, want %v", got, missing)
			}
			if got := errors.Is(err, tokenizer.ErrUnsupported); got != unsupported {
				t.Errorf("errors.Is(err, ErrUnsupported) = %v, want %v", got, unsupported)
			}
			if got, want := errors.Is(err, tokenizer.ErrMalformed), !missing && !unsupported; got != want {
				t.Errorf("errors.Is(err, ErrMalformed) = %v, want %v (error %q)", got, want, err)
			}
		})
	}
}

func TestLoadTiktokenSmall(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "small.tiktoken.gz", gzipped([]byte("YQ== 0\nYg== 1\nYWI= 2\nIA== 3\n")))
	tok, err := tokenizer.LoadTiktoken(path, map[string]int{"<s>": 10}, `\w+| `)
	if err != nil {
		t.Fatal(err)
	}
	ids := tok.Encode("ab ba<s>a")
	want := []int{2, 3, 1, 0, 10, 0}
	if len(ids) != len(want) {
		t.Fatalf("Encode = %v, want %v", ids, want)
	}
	for i := range want {
		if ids[i] != want[i] {
			t.Fatalf("Encode = %v, want %v", ids, want)
		}
	}
	if got := tok.Decode(ids); got != "ab ba<s>a" {
		t.Errorf("Decode = %q", got)
	}
}

// TestLoadFolder checks how Load picks a file in a model folder.
func TestLoadFolder(t *testing.T) {
	hf := gzipped(hfWith(""))
	ranks := []byte("YQ== 0\nYg== 1\n")
	tests := []struct {
		name  string
		files map[string][]byte
		want  string // "" for success
		kind  string // the type Load must return
	}{
		{"tokenizer.json", map[string][]byte{"tokenizer.json.gz": hf, "vocab.json": []byte("{}"), "merges.txt": nil}, "", "*tokenizer.HF"},
		{"other json", map[string][]byte{"allenai_dolma2.json.gz": hf, "tokenizer_config.json": []byte("{}")}, "", "*tokenizer.HF"},
		{"kimi", map[string][]byte{"tiktoken.model": ranks, "tokenizer_config.json": []byte(`{"tokenizer_class": "TikTokenTokenizer"}`)}, "", "*tokenizer.Tiktoken"},
		{"hunyuan", map[string][]byte{"hy.tiktoken.gz": gzipped(ranks), "tokenizer_config.json.gz": gzipped([]byte(`{"tokenizer_class": "HYTokenizer"}`))}, "", "*tokenizer.Tiktoken"},
		{"unknown class", map[string][]byte{"tiktoken.model": ranks, "tokenizer_config.json": []byte(`{"tokenizer_class": "Foo"}`)}, `unsupported tokenizer_class "Foo"`, ""},
		{"ranks without config", map[string][]byte{"tiktoken.model": ranks}, "without tokenizer_config.json", ""},
		{"two rank files", map[string][]byte{"a.tiktoken": ranks, "b.tiktoken": ranks}, "several rank files", ""},
		{"two candidates", map[string][]byte{"a.json": hf, "b.json": hf}, "several JSON files could be one: a.json, b.json", ""},
		{"empty", map[string][]byte{"README.md": nil}, "no tokenizer.json", ""},
		{"plain and gz", map[string][]byte{"tokenizer.json": hf, "tokenizer.json.gz": hf}, "both tokenizer.json and tokenizer.json.gz", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, data := range tt.files {
				writeFile(t, dir, name, data)
			}
			tok, err := tokenizer.Load(dir)
			if tt.want != "" {
				if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), dir) {
					t.Fatalf("Load error = %v, want one naming %s and containing %q", err, dir, tt.want)
				}
				if !errors.Is(err, tokenizer.ErrMalformed) && !errors.Is(err, tokenizer.ErrUnsupported) && !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("Load error = %v wraps none of ErrMalformed, ErrUnsupported, fs.ErrNotExist", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := typeName(tok); got != tt.kind {
				t.Errorf("Load gave %s, want %s", got, tt.kind)
			}
		})
	}
	if _, err := tokenizer.Load(filepath.Join(t.TempDir(), "none")); err == nil || !strings.Contains(err.Error(), "tokenizer: load ") {
		t.Errorf("Load(missing folder) error = %v", err)
	}
}

func typeName(v any) string {
	switch v.(type) {
	case *tokenizer.HF:
		return "*tokenizer.HF"
	case *tokenizer.Tiktoken:
		return "*tokenizer.Tiktoken"
	}
	return "other"
}

// TestLoadMalformed: Load passes on what its loaders say of a broken file,
// ErrMalformed included, naming the file.
func TestLoadMalformed(t *testing.T) {
	full := gzipped(hfWith(""))
	for name, files := range map[string]map[string][]byte{
		"truncated tokenizer.json.gz": {"tokenizer.json.gz": full[:len(full)/2]},
		"empty tokenizer.json":        {"tokenizer.json": {}},
		"corrupt config":              {"tiktoken.model": []byte("YQ== 0\n"), "tokenizer_config.json": []byte(`{"tokenizer_class": `)},
		"bad rank line":               {"tiktoken.model": []byte("YQ== x\n"), "tokenizer_config.json": []byte(`{"tokenizer_class": "TikTokenTokenizer"}`)},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			for file, data := range files {
				writeFile(t, dir, file, data)
			}
			_, err := tokenizer.Load(dir)
			if !errors.Is(err, tokenizer.ErrMalformed) || !strings.Contains(fmt.Sprint(err), dir) {
				t.Errorf("Load error = %v, want one that names %s and matches ErrMalformed", err, dir)
			}
		})
	}
}
