package rewrite

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/reasoning-go/reasoning"
)

// ErrUnsupportedPath is wrapped by New for a request path whose responses
// the package does not rewrite. Match it with errors.Is.
var ErrUnsupportedPath = errors.New("rewrite: no rewriter for this path")

// An endpoint is one API whose responses the package splits: how its
// requests are read and rewritten, and the per-response state that rewrites
// a whole body or a stream's events. chat.go is chat completions; another
// API is a file with its own endpoint, listed in endpoints.
type endpoint interface {
	// readRequest reads what choosing the parser needs from a request
	// body. ok is false for a body the endpoint cannot read (not a JSON
	// object): it goes upstream as it came, and upstream will say what is
	// wrong with it.
	readRequest(body []byte) (f requestFields, ok bool)
	// rewriteRequest returns the body to send upstream, now that p is
	// decided (a parser, the resolved kwargs): body itself when nothing
	// changes. It is called only when p has a parser.
	rewriteRequest(body []byte, f requestFields, p *plan) []byte
	// newResponse returns the state that rewrites one response.
	newResponse(p *plan) response
	// errorBody returns an error response body in the API's shape.
	errorBody(status int, message string) []byte
}

// requestFields are what a request says about its parser and thinking.
type requestFields struct {
	model    string
	kwargs   map[string]any // its chat_template_kwargs, nil when absent
	effort   string         // its reasoning effort, "" when absent
	thinking string         // its API's own switch as a thinking_mode ("enabled", "disabled"), "" when absent
}

// controls returns the chat_template_kwargs ResolveThinking weighs: the
// request's own, with its API's switch as thinking_mode unless they set
// one.
func (f requestFields) controls() map[string]any {
	if f.thinking == "" {
		return f.kwargs
	}
	if _, set := f.kwargs["thinking_mode"]; set {
		return f.kwargs
	}
	kw := make(map[string]any, len(f.kwargs)+1)
	for k, v := range f.kwargs {
		kw[k] = v
	}
	kw["thinking_mode"] = f.thinking
	return kw
}

// A response rewrites one response: a whole JSON body, or a stream's
// events one at a time and then its end. Model output is data: it never
// fails, and what it cannot read passes through as it came.
type response interface {
	// body returns the body rewritten, or body itself when unchanged.
	body(body []byte) []byte
	// event puts into out what replaces e: out.keep(e) when e goes out as
	// it came.
	event(out *events, e Event)
	// end puts into out what the end of the stream releases.
	end(out *events)
}

// endpoints are the APIs the package rewrites, by the suffix of their path.
var endpoints = []struct {
	suffix string
	ep     endpoint
}{
	{"/chat/completions", chatEndpoint{}},
	{"/v1/messages", messagesEndpoint{}}, // not /threads/{id}/messages, OpenAI's Assistants API
	{"/responses", responsesEndpoint{}},
}

// Supported reports whether path ends in the path of an API the package
// rewrites: /chat/completions, /v1/messages or /responses.
func Supported(path string) bool { return endpointFor(path) != nil }

// endpointFor returns the endpoint whose path suffix path ends with.
func endpointFor(path string) endpoint {
	for _, e := range endpoints {
		if strings.HasSuffix(path, e.suffix) {
			return e.ep
		}
	}
	return nil
}

// A plan is what one request decided: the parser of its response and the
// chat_template_kwargs it was sent with.
type plan struct {
	cfg    *Config
	parser string         // canonical name; "" when the response is only normalised
	kwargs map[string]any // resolved chat_template_kwargs, for the parsers
}

// newParser builds the parser for one choice, nil when there is none.
// Request built one with the same arguments before the request went
// upstream, so it fails only for a factory that fails the second time; the
// choice then passes through.
func (p *plan) newParser() reasoning.Parser {
	if p.parser == "" {
		return nil
	}
	parser, err := p.cfg.registry.New(p.parser, nil, reasoning.WithChatTemplateKwargs(p.kwargs))
	if err != nil {
		return nil
	}
	return parser
}

// fields are the members reasoning is written to.
func (p *plan) fields() []string { return fieldKeys[p.cfg.field] }

// An Event is one server-sent event: its event field and its data. Chat
// completions name no events; their data is one JSON chunk, or [DONE].
type Event struct {
	Name []byte // the event field, nil when the event has none
	Data []byte // the data field, its lines joined by '\n'
}

// Append appends e as it goes on the wire: an event line when e has a
// Name, a data line for each line of Data, and the blank line that ends
// the event.
func (e Event) Append(dst []byte) []byte {
	if e.Name != nil {
		dst = append(dst, "event: "...)
		dst = append(dst, e.Name...)
		dst = append(dst, '\n')
	}
	dst = appendDataLines(dst, e.Data, "\n")
	return append(dst, '\n')
}

// appendDataLines appends a data line for each line of data, each ended
// with ending: a data field holds no line break, so data that spans lines
// (JSON that came on several data lines, say) takes one line each.
func appendDataLines(dst, data []byte, ending string) []byte {
	for {
		line, rest, more := bytes.Cut(data, []byte("\n"))
		dst = append(dst, "data: "...)
		dst = append(dst, line...)
		dst = append(dst, ending...)
		if !more {
			return dst
		}
		data = rest
	}
}

// events collects what a response puts in place of one event.
type events struct {
	list    []Event
	self    int  // the index in list of the input event, kept or rewritten; -1 when dropped
	changed bool // the input event was rewritten
}

func (o *events) reset() { o.list, o.self, o.changed = o.list[:0], -1, false }

// add appends an event of the response's own.
func (o *events) add(e Event) { o.list = append(o.list, e) }

// keep appends the input event as it came.
func (o *events) keep(e Event) { o.self = len(o.list); o.list = append(o.list, e) }

// replace appends the input event rewritten: it keeps its place and its
// other lines (id, comments) on the wire.
func (o *events) replace(e Event) {
	o.self, o.changed = len(o.list), true
	o.list = append(o.list, e)
}

// A Rewriter rewrites the response to one request: it splits the text of
// each choice into reasoning and content with one parser per choice, and
// writes reasoning to the configured fields whether it split the text or
// upstream had (WithField). It works on bytes, without net/http, for any
// HTTP stack: Request for the request body, then Response for a whole
// JSON body, or Event for each server-sent event of a stream and End at
// its end (or Stream over the raw stream).
//
// Bytes it does not rewrite are copied as they came: unknown members,
// whitespace, key order, events that carry no text. What it cannot read
// (invalid JSON, a data line that is not JSON, a choice index of 1024 or
// more) passes through untouched. A Rewriter is for one response and one
// goroutine.
type Rewriter struct {
	ep   endpoint
	plan plan
	resp response // made at the first response call, once the plan is settled
	out  events
}

// New returns a Rewriter for one request to path, which must end in the
// path of an API the package rewrites (see Supported), else the error
// wraps ErrUnsupportedPath; it fails as NewConfig does for opts. A
// gateway that serves many requests builds a Config once instead.
func New(path string, opts ...Option) (*Rewriter, error) {
	cfg, err := NewConfig(opts...)
	if err != nil {
		return nil, err
	}
	return cfg.New(path)
}

// New returns a Rewriter for one request to path, which must end in the
// path of an API the package rewrites (see Supported), else the error
// wraps ErrUnsupportedPath. Until Request reads the request, the parser is
// WithParser's (none: the response is only normalised) and the thinking
// decision the deployment's defaults alone.
func (c *Config) New(path string) (*Rewriter, error) {
	ep := endpointFor(path)
	if ep == nil {
		return nil, fmt.Errorf("%w: %q", ErrUnsupportedPath, path)
	}
	r := &Rewriter{ep: ep, plan: plan{cfg: c}}
	if c.parser != "" {
		// NewConfig built this parser with these kwargs once already.
		r.plan.parser = c.parser
		r.plan.kwargs, _ = c.registry.ResolveThinking(nil, "", c.defaults)
	}
	return r, nil
}

// Request reads the body of the request and returns the body to send
// upstream in its place. It picks the parser (WithParser, else the
// registry's ForModel on the request's model), resolves the request's
// thinking controls against the deployment's defaults (ResolveThinking)
// and, when the response is to be split, writes the decision into the
// body's chat_template_kwargs, so that the chat template and the parser
// agree, and applies the History policy to earlier assistant messages.
// Every other byte is kept; a body it cannot read, or for a model no
// parser serves, is returned as it came.
//
// An error is the client's (answer 400, do not call upstream): thinking
// controls the parser rejects, such as K2 Horizon's reasoning_effort
// "none"; it wraps reasoning.ErrUnsupportedConfig.
func (r *Rewriter) Request(body []byte) ([]byte, error) {
	f, ok := r.ep.readRequest(body)
	if !ok {
		return body, nil
	}
	cfg := r.plan.cfg
	name := cfg.parser
	if name == "" {
		if name, ok = cfg.registry.ForModel(f.model); !ok {
			r.plan = plan{cfg: cfg}
			return body, nil
		}
	}
	kw, _ := cfg.registry.ResolveThinking(f.controls(), f.effort, cfg.defaults)
	if _, err := cfg.registry.New(name, nil, reasoning.WithChatTemplateKwargs(kw)); err != nil {
		return nil, err
	}
	r.plan = plan{cfg: cfg, parser: name, kwargs: kw}
	return r.ep.rewriteRequest(body, f, &r.plan), nil
}

// Parser returns the canonical name of the parser that splits the
// response, "" when the response is only normalised.
func (r *Rewriter) Parser() string { return r.plan.parser }

func (r *Rewriter) response() response {
	if r.resp == nil {
		r.resp = r.ep.newResponse(&r.plan)
	}
	return r.resp
}

// Response returns a whole (not streamed) JSON response body rewritten,
// or body itself when nothing in it changes.
func (r *Rewriter) Response(body []byte) []byte { return r.response().body(body) }

// Event rewrites one server-sent event of a streamed response and returns
// the events to send in its place, in order: e itself when it goes out as
// it came (a chunk with no text, usage, [DONE]); else e rewritten, after
// any event the Rewriter adds before it, such as the text a choice's
// parser held back, sent before the chunk that finishes the choice. The
// result and its bytes are valid until the next call.
func (r *Rewriter) Event(e Event) []Event {
	r.out.reset()
	r.response().event(&r.out, e)
	return r.out.list
}

// End is the end of a stream that stopped without [DONE] (or after it): it
// returns events for the text the parsers still hold, none when they hold
// nothing. Events after End pass through as they came.
func (r *Rewriter) End() []Event {
	r.out.reset()
	r.response().end(&r.out)
	return r.out.list
}

// Stream returns src, the raw bytes of a server-sent event stream, as the
// client should read it: each event rewritten by Event as soon as its
// blank line arrives, every byte the Rewriter does not change (comments,
// id lines, line endings) as it came, and End's events at the end of src.
// Lines end as the event stream format allows, in CRLF, LF or a lone CR,
// and a leading byte order mark is dropped, as clients drop it.
// A read returns what one event produced, so a caller that forwards each
// read forwards each event without delay. Close closes src when it is an
// io.Closer. An event longer than 64 MiB ends the stream with an error.
func (r *Rewriter) Stream(src io.Reader) io.ReadCloser { return newSSEStream(src, r) }
