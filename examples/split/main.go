// Command split splits a saved model output into reasoning and content.
//
// Usage:
//
//	go run ./examples/split -parser NAME [-stream] [-chunk N] [-vocab DIR] [-thinking=BOOL] [-prompt FILE] FILE
//
// FILE is the raw output of a reasoning model, or - for standard input. split
// prints {"reasoning": ..., "content": ...}. With -stream it feeds the output
// to the parser in deltas of about -chunk bytes (cut on rune boundaries), prints one JSON line per delta
// that emitted something, then the totals. -thinking sets the request's
// enable_thinking and thinking switches; -prompt names a file holding the
// rendered generation prompt, from which the parser learns whether the
// response starts inside reasoning. -vocab names a model folder
// (tokenizer.json, or a tiktoken file with tokenizer_config.json): with it,
// -stream feeds one real token per delta, with its ID, and families that
// read tokenizer metadata ("hf") can be built. JSON cannot hold bytes that
// are not UTF-8: encoding/json prints them as U+FFFD.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/reasoning-go/reasoning"
	_ "github.com/reasoning-go/reasoning/parsers"
	"github.com/reasoning-go/reasoning/tokenizer"
)

func main() {
	if err := run(os.Args[1:], os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "split:", err)
		os.Exit(2)
	}
}

// optionalBool is a flag that remembers whether it was set.
type optionalBool struct{ value, set bool }

func (b *optionalBool) String() string   { return strconv.FormatBool(b.value) }
func (b *optionalBool) IsBoolFlag() bool { return true }
func (b *optionalBool) Set(s string) error {
	v, err := strconv.ParseBool(s)
	b.value, b.set = v, true
	return err
}

// run is the whole command, apart from the process around it.
func run(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := flag.NewFlagSet("split", flag.ContinueOnError)
	name := fs.String("parser", "", "parser `name`, as vLLM's --reasoning-parser (required)")
	stream := fs.Bool("stream", false, "stream the output in deltas and print each emitted delta")
	chunk := fs.Int("chunk", 4, "delta size in `bytes` with -stream")
	promptFile := fs.String("prompt", "", "`file` holding the rendered generation prompt")
	vocab := fs.String("vocab", "", "model `folder` whose tokenizer to use (stream one token per delta)")
	var thinking optionalBool
	fs.Var(&thinking, "thinking", "the request's thinking switch: sets enable_thinking and thinking to this value")
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			var b strings.Builder
			b.WriteString(usage + "\n\nFILE is a saved model output, or - for standard input.\n\nflags:\n")
			fs.SetOutput(&b)
			fs.PrintDefaults()
			_, err := io.WriteString(stdout, b.String())
			return err
		}
		return fmt.Errorf("%w\n%s", err, usage)
	}
	if *name == "" || fs.NArg() != 1 {
		return errors.New(usage + "\n(-h lists the flags)")
	}
	if _, ok := reasoning.Canonical(*name); !ok {
		return fmt.Errorf("-parser %q: no parser has this name; the names are: %s", *name, strings.Join(reasoning.Names(), " "))
	}
	if *chunk < 1 {
		return fmt.Errorf("-chunk %d: must be at least 1", *chunk)
	}
	output, err := readInput(fs.Arg(0), stdin)
	if err != nil {
		return err
	}
	var tok tokenizer.Tokenizer
	if *vocab != "" {
		if tok, err = tokenizer.Load(*vocab); err != nil {
			return err
		}
	}
	var opts []reasoning.Option
	if thinking.set {
		opts = append(opts, reasoning.WithThinking(thinking.value))
	}
	if *promptFile != "" {
		prompt, err := os.ReadFile(*promptFile)
		if err != nil {
			return err
		}
		var ids []int
		if tok != nil {
			ids = tok.Encode(string(prompt))
		}
		opts = append(opts, reasoning.WithPrompt(string(prompt), ids))
	}
	p, err := reasoning.New(*name, tok, opts...)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	if !*stream {
		return enc.Encode(p.Extract(output))
	}
	var total reasoning.Message
	emit := func(m reasoning.Message) error {
		if m.IsZero() {
			return nil
		}
		total.Reasoning += m.Reasoning
		total.Content += m.Content
		return enc.Encode(m)
	}
	for _, d := range deltas(output, *chunk, tok) {
		if err := emit(p.ExtractStreaming(d)); err != nil {
			return err
		}
	}
	if err := emit(p.Finish()); err != nil {
		return err
	}
	return enc.Encode(struct {
		Total reasoning.Message `json:"total"`
	}{total})
}

const usage = "usage: split -parser NAME [-stream] [-chunk N] [-vocab DIR] [-thinking=BOOL] [-prompt FILE] FILE"

// deltas cuts output as a stream would carry it: with a tokenizer, one
// token per delta with its ID, its text held back while it ends inside a
// rune (as a detokenizer does); without, after about chunk bytes on a rune
// boundary. Each delta's text is then valid UTF-8 whenever output is.
func deltas(output string, chunk int, tok tokenizer.Tokenizer) []reasoning.Delta {
	var ds []reasoning.Delta
	if tok != nil {
		var pending string
		ids := tok.Encode(output)
		for i, id := range ids {
			text := pending + tok.Decode([]int{id})
			cut := wholeRunes(text)
			if i == len(ids)-1 {
				cut = len(text)
			}
			ds = append(ds, reasoning.Delta{Text: text[:cut], IDs: []int{id}})
			pending = text[cut:]
		}
		return ds
	}
	for i := 0; i < len(output); {
		end := min(len(output), i+chunk)
		for end < len(output) && !utf8.RuneStart(output[end]) {
			end++
		}
		ds = append(ds, reasoning.Delta{Text: output[i:end]})
		i = end
	}
	return ds
}

// wholeRunes returns the length of the longest prefix of s that does not end
// inside an incomplete multi-byte rune.
func wholeRunes(s string) int {
	for i := len(s) - 1; i >= 0 && i >= len(s)-utf8.UTFMax; i-- {
		if utf8.RuneStart(s[i]) {
			if utf8.FullRuneInString(s[i:]) {
				return len(s)
			}
			return i
		}
	}
	return len(s)
}

func readInput(path string, stdin io.Reader) (string, error) {
	var b []byte
	var err error
	if path == "-" {
		b, err = io.ReadAll(stdin)
	} else {
		b, err = os.ReadFile(path)
	}
	return string(b), err
}
