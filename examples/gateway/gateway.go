package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"mime"
	"net/http"
	"net/http/httputil"
	"net/url"
	"reflect"
	"slices"
	"strconv"

	"github.com/reasoning-go/reasoning"
)

// config is what the gateway is started with.
type config struct {
	upstream *url.URL
	parser   string   // canonical parser name for every request; "" to look it up by model
	fields   []string // the reasoning fields to write: "reasoning", "reasoning_content" or both
	defaults reasoning.ThinkingDefaults
	log      *log.Logger // where proxy errors go; nil for the log package's default
}

// Limits on what the gateway reads whole: a request, and a response that is
// not streamed. A response above its limit passes through untouched.
const (
	maxRequestBytes  = 64 << 20
	maxResponseBytes = 64 << 20
)

// gateway is the http.Handler: chat completions through the parser, every
// other path straight to upstream.
type gateway struct {
	cfg   config
	proxy *httputil.ReverseProxy
}

func newGateway(cfg config) *gateway {
	g := &gateway{cfg: cfg}
	g.proxy = &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(cfg.upstream)
			pr.SetXForwarded()
			if exchangeOf(pr.In.Context()) != nil {
				// The answer must arrive as plain text for the parser: let
				// the transport negotiate (and undo) compression itself.
				pr.Out.Header.Del("Accept-Encoding")
			}
		},
		ModifyResponse: g.modifyResponse,
		ErrorHandler:   g.upstreamError,
		ErrorLog:       cfg.log,
	}
	return g
}

func (g *gateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost && r.URL.Path == "/v1/chat/completions" {
		g.chat(w, r)
		return
	}
	g.proxy.ServeHTTP(w, r)
}

// An exchange is what one chat request needs to rewrite its answer.
type exchange struct {
	parser string         // canonical parser name
	kwargs map[string]any // resolved chat_template_kwargs
	fields []string       // reasoning fields to write
}

// newParser builds the parser for one choice. chat built one with the
// same arguments before the request went upstream, so this cannot fail.
func (ex *exchange) newParser() reasoning.Parser {
	p, err := reasoning.New(ex.parser, nil, reasoning.WithChatTemplateKwargs(ex.kwargs))
	if err != nil {
		panic(fmt.Sprintf("gateway: parser %q failed on its second build: %v", ex.parser, err))
	}
	return p
}

type exchangeKey struct{}

func exchangeOf(ctx context.Context) *exchange {
	ex, _ := ctx.Value(exchangeKey{}).(*exchange)
	return ex
}

// chat handles POST /v1/chat/completions: it reads the request, decides the
// parser and the thinking kwargs, and hands the (maybe rewritten) request
// to the proxy with the exchange in its context.
func (g *gateway) chat(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxRequestBytes))
	if err != nil {
		status := http.StatusBadRequest
		if _, tooLarge := errors.AsType[*http.MaxBytesError](err); tooLarge {
			status = http.StatusRequestEntityTooLarge
		}
		writeError(w, status, "invalid_request_error", "reading the request: "+err.Error())
		return
	}
	ex, body, err := g.plan(body)
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", err.Error())
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	r.Header.Set("Content-Length", strconv.Itoa(len(body)))
	if ex != nil {
		r = r.WithContext(context.WithValue(r.Context(), exchangeKey{}, ex))
	}
	g.proxy.ServeHTTP(w, r)
}

// plan reads a chat request. It returns the exchange for it, nil when its
// answer passes through untouched (a body that is not a JSON object, a
// model with no parser), and the body to send upstream: the request's own,
// or one whose chat_template_kwargs carry the resolved thinking decision.
// An error is the client's: thinking kwargs its parser rejects.
func (g *gateway) plan(body []byte) (*exchange, []byte, error) {
	var req map[string]json.RawMessage
	if json.Unmarshal(body, &req) != nil || req == nil {
		return nil, body, nil
	}
	name := g.cfg.parser
	if name == "" {
		var model string
		json.Unmarshal(req["model"], &model)
		var ok bool
		if name, ok = reasoning.ForModel(model); !ok {
			return nil, body, nil
		}
	}
	var kwargs map[string]any
	if raw, ok := req["chat_template_kwargs"]; ok {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		if dec.Decode(&kwargs) != nil {
			return nil, body, nil // not an object: upstream will say so
		}
	}
	var effort string
	json.Unmarshal(req["reasoning_effort"], &effort) // a non-string is upstream's to reject
	kw, _ := reasoning.ResolveThinking(kwargs, effort, g.cfg.defaults)
	if _, err := reasoning.New(name, nil, reasoning.WithChatTemplateKwargs(kw)); err != nil {
		return nil, nil, err
	}
	ex := &exchange{parser: name, kwargs: kw, fields: g.cfg.fields}
	if len(kw) == 0 && len(kwargs) == 0 || reflect.DeepEqual(kw, kwargs) {
		return ex, body, nil
	}
	raw, err := marshal(kw)
	if err != nil {
		return nil, nil, err
	}
	return ex, withMember(body, "chat_template_kwargs", raw), nil
}

// withMember returns the JSON object body with its member key set to raw:
// the value replaced where the key is, the member added at the end where it
// is not. Every other byte stays as it came.
func withMember(body []byte, key string, raw []byte) []byte {
	at := skipSpace(body, 0)
	end, err := valueEnd(body, at)
	if err != nil || body[at] != '{' {
		return body
	}
	var out []byte
	if start, stop := memberSpan(body, at, key); start >= 0 {
		out = append(out, body[:start]...)
		out = append(out, raw...)
		return append(out, body[stop:]...)
	}
	closing := end - 1 // the object's '}'
	out = append(out, body[:closing]...)
	if skipSpace(body, at+1) != closing { // not empty: a member comes before
		out = append(out, ',')
	}
	out = appendJSONString(out, key)
	out = append(out, ':')
	out = append(out, raw...)
	return append(out, body[closing:]...)
}

// modifyResponse rewrites a successful chat answer; anything else (an error
// status, a request with no exchange, an unknown content type) passes
// through as upstream sent it.
func (g *gateway) modifyResponse(resp *http.Response) error {
	ex := exchangeOf(resp.Request.Context())
	if ex == nil || resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil
	}
	mediaType, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch mediaType {
	case "text/event-stream":
		resp.Body = newStreamRewriter(resp.Body, ex)
		resp.ContentLength = -1
		resp.Header.Del("Content-Length")
	case "application/json":
		head, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes+1))
		if err != nil {
			return err
		}
		if len(head) > maxResponseBytes {
			resp.Body = readCloser{io.MultiReader(bytes.NewReader(head), resp.Body), resp.Body}
			return nil
		}
		resp.Body.Close()
		body := rewriteCompletion(head, ex)
		resp.Body = io.NopCloser(bytes.NewReader(body))
		resp.ContentLength = int64(len(body))
		resp.Header.Set("Content-Length", strconv.Itoa(len(body)))
	}
	return nil
}

type readCloser struct {
	io.Reader
	io.Closer
}

// upstreamError answers a request upstream could not serve: 502, unless the
// client itself went away.
func (g *gateway) upstreamError(w http.ResponseWriter, r *http.Request, err error) {
	if r.Context().Err() != nil {
		return
	}
	if g.cfg.log != nil {
		g.cfg.log.Printf("%s %s: %v", r.Method, r.URL.Path, err)
	}
	writeError(w, http.StatusBadGateway, "upstream_error", "upstream: "+err.Error())
}

// writeError writes an error the way OpenAI-compatible servers do.
func writeError(w http.ResponseWriter, status int, kind, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{
		"error": map[string]any{"message": message, "type": kind, "param": nil, "code": nil},
	})
}

// rewriteCompletion splits the message.content of each choice of a chat
// completion, copying every other byte as it came. A body that is not a
// JSON object is returned as it is, and so is a choice whose content is
// not a string or whose upstream already filled a reasoning field.
func rewriteCompletion(body []byte, ex *exchange) []byte {
	at := skipSpace(body, 0)
	if at >= len(body) || body[at] != '{' {
		return body
	}
	end, err := valueEnd(body, at)
	choices, _ := memberSpan(body, at, "choices")
	if err != nil || skipSpace(body, end) != len(body) || choices < 0 || body[choices] != '[' {
		return body
	}
	var out []byte
	copied := 0
	elements(body, choices, func(start, _ int) {
		if body[start] != '{' {
			return
		}
		msg, msgEnd := memberSpan(body, start, "message")
		if msg < 0 || body[msg] != '{' || hasReasoning(body, msg) {
			return
		}
		content, contentEnd := memberSpan(body, msg, "content")
		if content < 0 || body[content] != '"' {
			return
		}
		_, escaped, _ := stringEnd(body, content)
		text, ok := unquote(body[content:contentEnd], escaped)
		if !ok {
			return
		}
		m := ex.newParser().Extract(text)
		out = append(out, body[copied:msg]...)
		out = appendText(out, body, msg, m, ex.fields, true)
		copied = msgEnd
	})
	if copied == 0 {
		return body
	}
	return append(out, body[copied:]...)
}

// memberSpan returns where the value of the object at data[at]'s member
// key starts and ends (the last one, as decoders read duplicates), or -1.
func memberSpan(data []byte, at int, key string) (start, end int) {
	start, end = -1, -1
	members(data, at, func(k []byte, _, s, e int) {
		if string(k) == key {
			start, end = s, e
		}
	})
	return start, end
}

// hasReasoning reports whether the message or delta object at data[at]
// already carries reasoning of upstream's own: then upstream splits, and
// the gateway must not split again.
func hasReasoning(data []byte, at int) bool {
	found := false
	members(data, at, func(k []byte, _, s, e int) {
		if key := string(k); (key == "reasoning" || key == "reasoning_content") && e-s > 2 && data[s] == '"' {
			found = true
		}
	})
	return found
}

// appendText appends the message or delta object at data[at] (at < 0 for
// none) with its text replaced by m: its other members as they came, then
// content and a reasoning member for each of fields, each only when it has
// text. With nullContent, empty content is written as null rather than
// left out, as a message (not a delta) carries it.
func appendText(dst, data []byte, at int, m reasoning.Message, fields []string, nullContent bool) []byte {
	dst = append(dst, '{')
	n := 0
	sep := func() {
		if n > 0 {
			dst = append(dst, ',')
		}
		n++
	}
	if at >= 0 {
		members(data, at, func(key []byte, member, _, end int) {
			k := string(key)
			if k == "content" || m.Reasoning != "" && slices.Contains(fields, k) {
				return
			}
			sep()
			dst = append(dst, data[member:end]...)
		})
	}
	if m.Content != "" || nullContent {
		sep()
		dst = append(dst, `"content":`...)
		if m.Content == "" {
			dst = append(dst, "null"...)
		} else {
			dst = appendJSONString(dst, m.Content)
		}
	}
	if m.Reasoning != "" {
		for _, f := range fields {
			sep()
			dst = appendJSONString(dst, f)
			dst = append(dst, ':')
			dst = appendJSONString(dst, m.Reasoning)
		}
	}
	return append(dst, '}')
}

// marshal is json.Marshal without HTML escaping, so that text such as
// "<think>" keeps its bytes.
func marshal(v any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
