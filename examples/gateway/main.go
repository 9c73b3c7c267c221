// Command gateway is an OpenAI-compatible reverse proxy that splits a
// reasoning model's output into reasoning and content, in front of a server
// that returns the raw text (llama.cpp's llama-server, a vLLM started
// without --reasoning-parser, Ollama's OpenAI endpoint).
//
// Usage:
//
//	go run ./examples/gateway -upstream URL [-listen ADDR] [-parser NAME]
//		[-field reasoning|reasoning_content|both]
//		[-default-thinking enabled|disabled|auto] [-default-chat-template-kwargs JSON]
//
// For POST /v1/chat/completions it picks a parser (-parser, or else the
// request's model through reasoning.ForModel; a model it does not know is
// passed through untouched), resolves the request's thinking controls
// against the deployment's defaults (reasoning.ResolveThinking; the result
// goes upstream as chat_template_kwargs, so that the chat template and the
// parser agree), and rewrites the answer: for a plain response each
// choice's message.content is split into content and the reasoning field,
// for a streamed one (SSE) each chunk's delta, with one parser per choice
// index. A choice's parser is finished at its finish_reason or at [DONE];
// text it held back is sent as one more chunk before the finishing one.
// Tool calls, usage, roles and every other field pass through untouched;
// so does a choice whose upstream already fills a reasoning field. Errors
// from upstream keep their status and body, a client that goes away cancels
// the upstream request, and a stream is rewritten one line at a time, never
// held whole. Every other path (/v1/models, /health, ...) is proxied as is.
//
// -field names the field the client reads: "reasoning" (vLLM 0.16 and
// later) or "reasoning_content" (the DeepSeek API, SGLang, Dynamo); "both"
// writes the two. -upstream is the server's root URL, without /v1.
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
	_ "github.com/reasoning-go/reasoning/parsers"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "gateway:", err)
		os.Exit(2)
	}
}

const usage = "usage: gateway -upstream URL [-listen ADDR] [-parser NAME] [-field reasoning|reasoning_content|both] " +
	"[-default-thinking enabled|disabled|auto] [-default-chat-template-kwargs JSON]"

// run is the whole command, apart from the process around it: it serves
// until ctx is done.
func run(ctx context.Context, args []string, stderr io.Writer) error {
	cfg, listen, err := parseArgs(args)
	if err != nil {
		return err
	}
	cfg.log = log.New(stderr, "gateway: ", 0)
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: newGateway(cfg), ReadHeaderTimeout: 10 * time.Second, ErrorLog: cfg.log}
	stopped := context.AfterFunc(ctx, func() {
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shutdown)
	})
	defer stopped()
	parser := cfg.parser
	if parser == "" {
		parser = "by model (reasoning.ForModel)"
	}
	fmt.Fprintf(stderr, "gateway: http://%s -> %s, parser %s, field %s\n",
		ln.Addr(), cfg.upstream, parser, strings.Join(cfg.fields, "+"))
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// parseArgs reads the command line into a config and the listen address.
func parseArgs(args []string) (config, string, error) {
	fs := flag.NewFlagSet("gateway", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	listen := fs.String("listen", "127.0.0.1:8080", "`address` to serve on")
	upstream := fs.String("upstream", "", "upstream server's root `URL`, such as http://127.0.0.1:8000 (required)")
	name := fs.String("parser", "", "parser `name` for every request; default: by the request's model")
	field := fs.String("field", "reasoning", "reasoning `field` to write: reasoning, reasoning_content or both")
	var mode reasoning.ThinkingMode
	fs.TextVar(&mode, "default-thinking", reasoning.ThinkingAuto, "deployment thinking `mode`: enabled, disabled or auto")
	kwargs := fs.String("default-chat-template-kwargs", "", "deployment default chat_template_kwargs, a JSON `object`")
	if err := fs.Parse(args); err != nil {
		return config{}, "", fmt.Errorf("%w\n%s", err, usage)
	}
	if *upstream == "" || fs.NArg() != 0 {
		return config{}, "", errors.New(usage)
	}
	u, err := url.Parse(*upstream)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return config{}, "", fmt.Errorf("-upstream %q: want an http or https URL", *upstream)
	}
	cfg := config{upstream: u, defaults: reasoning.ThinkingDefaults{Mode: mode}}
	if *name != "" {
		canonical, ok := reasoning.Canonical(*name)
		if !ok {
			_, err := reasoning.New(*name, nil) // its error lists the known names
			return config{}, "", err
		}
		cfg.parser = canonical
	}
	switch *field {
	case "reasoning", "reasoning_content":
		cfg.fields = []string{*field}
	case "both":
		cfg.fields = []string{"reasoning", "reasoning_content"}
	default:
		return config{}, "", fmt.Errorf("-field %q: want reasoning, reasoning_content or both", *field)
	}
	if *kwargs != "" {
		dec := json.NewDecoder(strings.NewReader(*kwargs))
		dec.UseNumber()
		if err := dec.Decode(&cfg.defaults.ChatTemplateKwargs); err != nil {
			return config{}, "", fmt.Errorf("-default-chat-template-kwargs: %w", err)
		}
		if cfg.defaults.ChatTemplateKwargs == nil {
			return config{}, "", errors.New("-default-chat-template-kwargs: want a JSON object")
		}
	}
	return cfg, *listen, nil
}
