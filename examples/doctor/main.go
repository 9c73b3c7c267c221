// Command doctor diagnoses a reasoning deployment from what a user can
// capture, and reports each known pitfall that applies, with its evidence
// and its fix.
//
// Usage:
//
//	go run ./examples/doctor -parser NAME [-vocab DIR] [-prompt FILE] [-response FILE]
//	    [-request FILE] [-thinking=BOOL] [-client-field reasoning|reasoning_content] [-json]
//
// NAME is the reasoning parser the server runs (vLLM's --reasoning-parser).
// -vocab names the model's tokenizer folder (tokenizer.json, or a tiktoken
// file with tokenizer_config.json). -prompt names the rendered generation
// prompt (the chat template's output, as the server logs it). -response
// names a saved chat completion: the JSON body, or the "data: ..." lines of a
// streamed one. -request names the request body, for its
// chat_template_kwargs, reasoning_effort and max_tokens; -thinking sets
// enable_thinking and thinking instead. -client-field is the message field
// the client reads the reasoning from. Any FILE may be - for standard input
// (one of them).
//
// Each finding is a block: the check's name and what is wrong, the evidence
// lines, then the fix lines; -json prints them as a JSON array. A healthy
// capture prints nothing. The exit status is 0 when nothing was found, 1
// when something was, 2 when the doctor could not run. -h lists the checks.
//
// The doctor judges by running this library's parser over the captured
// text: the server's parser may be another engine's, so where the two
// differ the finding says which one splits the text the way the model meant.
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

	_ "github.com/reasoning-go/reasoning/parsers"
	"github.com/reasoning-go/reasoning/tokenizer"
)

func main() {
	err := run(os.Args[1:], os.Stdin, os.Stdout)
	switch {
	case err == nil:
	case errors.Is(err, errFound):
		os.Exit(1)
	default:
		fmt.Fprintln(os.Stderr, "doctor:", err)
		os.Exit(2)
	}
}

// errFound is what run returns after reporting at least one finding, so that
// the process can exit non-zero without printing more.
var errFound = errors.New("doctor: pitfalls found")

// loadVocab loads a model's tokenizer folder. Tests replace it with one that
// keeps what it loaded: a real vocabulary takes a good part of a second.
var loadVocab = tokenizer.Load

// optionalBool is a flag that remembers whether it was set.
type optionalBool struct{ value, set bool }

func (b *optionalBool) String() string   { return strconv.FormatBool(b.value) }
func (b *optionalBool) IsBoolFlag() bool { return true }
func (b *optionalBool) Set(s string) error {
	v, err := strconv.ParseBool(s)
	b.value, b.set = v, true
	return err
}

const usage = "usage: doctor -parser NAME [-vocab DIR] [-prompt FILE] [-response FILE] [-request FILE] [-thinking=BOOL] [-client-field reasoning|reasoning_content] [-json]"

// run is the whole command, apart from the process around it.
func run(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := flag.NewFlagSet("doctor", flag.ContinueOnError)
	name := fs.String("parser", "", "reasoning parser `name` the server runs, as vLLM's --reasoning-parser (required)")
	vocab := fs.String("vocab", "", "the model's tokenizer `folder`")
	promptFile := fs.String("prompt", "", "`file` holding the rendered generation prompt")
	responseFile := fs.String("response", "", "`file` holding a saved chat completion (JSON, or the SSE lines of a stream)")
	requestFile := fs.String("request", "", "`file` holding the request body (chat_template_kwargs, reasoning_effort, max_tokens)")
	clientField := fs.String("client-field", "", "message `field` the client reads the reasoning from: reasoning or reasoning_content")
	asJSON := fs.Bool("json", false, "print the findings as a JSON array")
	var thinking optionalBool
	fs.Var(&thinking, "thinking", "the request's thinking switch (sets enable_thinking and thinking)")
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return help(fs, stdout)
		}
		return fmt.Errorf("%w\n%s", err, usage)
	}
	if *name == "" || fs.NArg() != 0 {
		return errors.New(usage)
	}
	switch *clientField {
	case "", fieldReasoning, fieldReasoningContent:
	default:
		return fmt.Errorf("-client-field %q: want %s or %s", *clientField, fieldReasoning, fieldReasoningContent)
	}
	in := &inputs{stdin: stdin}
	c := &capture{name: *name, clientField: *clientField, vocabDir: *vocab}
	var err error
	if *vocab != "" {
		if c.tok, err = loadVocab(*vocab); err != nil {
			return err
		}
	}
	if *promptFile != "" {
		text, err := in.read("-prompt", *promptFile)
		if err != nil {
			return err
		}
		c.prompt, c.promptFile = &text, *promptFile
	}
	if *requestFile != "" {
		text, err := in.read("-request", *requestFile)
		if err != nil {
			return err
		}
		if c.request, err = parseRequest(text); err != nil {
			return fmt.Errorf("-request %s: %w", *requestFile, err)
		}
		c.kwargs = c.request.kwargs()
	}
	if thinking.set {
		if c.kwargs == nil {
			c.kwargs = map[string]any{}
		}
		c.kwargs["enable_thinking"], c.kwargs["thinking"] = thinking.value, thinking.value
	}
	if *responseFile != "" {
		text, err := in.read("-response", *responseFile)
		if err != nil {
			return err
		}
		if c.resp, err = parseResponse(text); err != nil {
			return fmt.Errorf("-response %s: %w", *responseFile, err)
		}
		c.resp.file = *responseFile
	}
	if err := c.prepare(); err != nil {
		return err
	}
	findings := diagnose(c)
	if err := report(stdout, findings, *asJSON); err != nil {
		return err
	}
	if len(findings) > 0 {
		return errFound
	}
	return nil
}

// inputs reads the files named by flags, standard input at most once.
type inputs struct {
	stdin     io.Reader
	stdinUsed string // the flag that read standard input
}

func (in *inputs) read(flagName, path string) (string, error) {
	if path != "-" {
		b, err := os.ReadFile(path)
		return string(b), err
	}
	if in.stdinUsed != "" {
		return "", fmt.Errorf("%s -: standard input is already read by %s", flagName, in.stdinUsed)
	}
	in.stdinUsed = flagName
	if in.stdin == nil {
		return "", nil
	}
	b, err := io.ReadAll(in.stdin)
	return string(b), err
}

// help prints the usage, the flags and the checks, for -h.
func help(fs *flag.FlagSet, w io.Writer) error {
	var b strings.Builder
	b.WriteString(usage + "\n\nflags:\n")
	fs.SetOutput(&b)
	fs.PrintDefaults()
	b.WriteString("\nchecks (each needs what is in brackets):\n")
	for _, ch := range checks {
		fmt.Fprintf(&b, "  %-22s [%s]\n", ch.name, ch.needs)
		for _, line := range wrap(ch.about, 72) {
			fmt.Fprintf(&b, "      %s\n", line)
		}
	}
	b.WriteString("\nexit status: 0 nothing found, 1 findings reported, 2 the doctor could not run\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// report prints the findings: a block each, or a JSON array.
func report(w io.Writer, findings []finding, asJSON bool) error {
	if asJSON {
		if findings == nil {
			findings = []finding{}
		}
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(findings)
	}
	var b strings.Builder
	for i, f := range findings {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%s: %s\n", f.Check, f.What)
		for _, e := range f.Evidence {
			fmt.Fprintf(&b, "  evidence: %s\n", e)
		}
		for _, x := range f.Fix {
			fmt.Fprintf(&b, "  fix: %s\n", x)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// wrap cuts text into lines of at most width bytes, at spaces.
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		if line != "" && len(line)+1+len(word) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}
