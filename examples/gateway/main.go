// Command gateway is an OpenAI-compatible reverse proxy that splits a
// reasoning model's output into reasoning and content (chat completions,
// Anthropic Messages and the Responses API), in front of a server that
// returns the raw text (llama.cpp's llama-server, a vLLM started
// without --reasoning-parser, Ollama's OpenAI endpoint). It is a thin main
// over package openai's Handler, whose documentation says what it does.
//
// Usage:
//
//	go run ./examples/gateway -upstream URL [-listen ADDR] [-parser NAME]
//		[-field both|reasoning|reasoning_content] [-history drop|render|keep]
//		[-default-thinking enabled|disabled|auto] [-default-chat-template-kwargs JSON]
//
// -h lists every flag.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/openai"
	"github.com/reasoning-go/reasoning/openai/rewrite"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "gateway:", err)
		os.Exit(2)
	}
}

const usage = "usage: gateway -upstream URL [-listen ADDR] [-parser NAME] [-field both|reasoning|reasoning_content] " +
	"[-history drop|render|keep] [-default-thinking enabled|disabled|auto] [-default-chat-template-kwargs JSON]"

// run is the whole command, apart from the process around it: it serves
// until ctx is done. -h prints the flags to stdout and returns nil.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	upstream, listen, opts, err := parseArgs(args, stdout)
	if err != nil || upstream == nil {
		return err
	}
	logger := log.New(stderr, "gateway: ", 0)
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler:           openai.NewHandler(upstream, append(opts, openai.WithErrorLog(logger))...),
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          logger,
	}
	stopped := context.AfterFunc(ctx, func() {
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shutdown)
	})
	defer stopped()
	fmt.Fprintf(stderr, "gateway: http://%s -> %s\n", ln.Addr(), upstream)
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// parseArgs reads the command line into the upstream URL, the listen
// address and the Handler's options. For -h it prints the flags to stdout
// and returns a nil URL and no error.
func parseArgs(args []string, stdout io.Writer) (*url.URL, string, []openai.Option, error) {
	fs := flag.NewFlagSet("gateway", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	listen := fs.String("listen", "127.0.0.1:8080", "`address` to serve on")
	upstream := fs.String("upstream", "", "upstream server's root `URL`, without /v1, such as http://127.0.0.1:8000 (required;\none that ends in /v1 is refused: clients' paths start with /v1)")
	name := fs.String("parser", "", "reasoning parser `name` for every request, as vLLM's --reasoning-parser;\ndefault: chosen by each request's model, and a model no parser serves is not split")
	field := openai.FieldBoth
	fs.TextVar(&field, "field", openai.FieldBoth, "message `field` reasoning is written to: both, reasoning (vLLM 0.16+, Ollama)\nor reasoning_content (DeepSeek API, go-openai, LiteLLM)")
	history := openai.HistoryDrop
	fs.TextVar(&history, "history", openai.HistoryDrop, "what earlier assistant messages keep of their reasoning, a `policy`: drop, render\n(back into content in the model's markers) or keep")
	var mode reasoning.ThinkingMode
	fs.TextVar(&mode, "default-thinking", reasoning.ThinkingAuto, "deployment thinking `mode` for requests that do not say: enabled, disabled or auto")
	kwargs := fs.String("default-chat-template-kwargs", "", "deployment default chat_template_kwargs, a JSON `object`")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			var b strings.Builder
			b.WriteString(usage + "\n\nflags:\n")
			fs.SetOutput(&b)
			fs.PrintDefaults()
			_, err := io.WriteString(stdout, b.String())
			return nil, "", nil, err
		}
		return nil, "", nil, fmt.Errorf("%w\n%s", err, usage)
	}
	if *upstream == "" || fs.NArg() != 0 {
		return nil, "", nil, errors.New(usage + "\n(-h lists the flags)")
	}
	u, err := url.Parse(*upstream)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, "", nil, fmt.Errorf("-upstream %q: want an http or https URL", *upstream)
	}
	if root, ok := strings.CutSuffix(strings.TrimSuffix(u.Path, "/"), "/v1"); ok {
		// Clients' paths start with /v1 already: upstream would get /v1/v1/... and answer 404.
		fixed := *u
		fixed.Path, fixed.RawPath = root, ""
		return nil, "", nil, fmt.Errorf("-upstream %q: give the server's root URL, without /v1 (-upstream %s): clients' paths start with /v1",
			*upstream, &fixed)
	}
	defaults := reasoning.ThinkingDefaults{Mode: mode}
	opts := []openai.Option{openai.WithField(field), openai.WithHistory(history)}
	if *name != "" {
		canonical, ok := reasoning.Canonical(*name)
		if !ok {
			return nil, "", nil, fmt.Errorf("-parser %q: no parser has this name; the names are: %s\n(leave -parser out to choose by each request's model)",
				*name, strings.Join(reasoning.Names(), " "))
		}
		opts = append(opts, openai.WithParser(canonical))
	}
	if *kwargs != "" {
		dec := json.NewDecoder(strings.NewReader(*kwargs))
		dec.UseNumber()
		if err := dec.Decode(&defaults.ChatTemplateKwargs); err != nil {
			return nil, "", nil, fmt.Errorf("-default-chat-template-kwargs: %w", err)
		}
		if defaults.ChatTemplateKwargs == nil {
			return nil, "", nil, errors.New("-default-chat-template-kwargs: want a JSON object")
		}
	}
	opts = append(opts, openai.WithThinkingDefaults(defaults))
	if _, err := rewrite.NewConfig(opts...); err != nil {
		return nil, "", nil, fmt.Errorf("-parser with -default-thinking and -default-chat-template-kwargs: %w", err)
	}
	return u, *listen, opts, nil
}
