package openai

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
	"strconv"
)

// Limits on what the Transport and the Handler read whole: a request to a
// path they rewrite, and a response that is not streamed. A request above
// its limit is refused by the Handler (413) and sent as it came by the
// Transport; a response above its limit passes through untouched.
const (
	maxRequestBytes  = 64 << 20
	maxResponseBytes = 64 << 20
)

// NewTransport returns an http.RoundTripper that splits reasoning out of
// the responses base returns for requests to the paths the package
// rewrites (/chat/completions): plain and streamed, one parser per choice,
// text a parser held back sent before its choice's finish. Give it to any
// Go client: openai-go's option.WithHTTPClient, go-openai's
// ClientConfig.HTTPClient. A nil base is http.DefaultTransport.
//
// The request is read and sent as Rewriter.Request rewrites it, in a clone:
// the caller's request is not modified. Other methods and paths go to base
// as they are, and so do error responses and compressed bodies that base
// did not decompress. Thinking controls the parser rejects fail the round
// trip before anything is sent, with an error wrapping
// reasoning.ErrUnsupportedConfig; so do options that name an unknown
// parser, on every request to a rewritten path.
func NewTransport(base http.RoundTripper, opts ...Option) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	cfg, err := checkConfig(opts)
	return &transport{base: base, cfg: cfg, err: err}
}

type transport struct {
	base http.RoundTripper
	cfg  *config
	err  error // the options' error
}

// checkConfig applies opts and builds a rewriter once, so that a parser
// name or deployment defaults that cannot work are found before a request
// comes.
func checkConfig(opts []Option) (*config, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	if _, err := newRewriter(cfg, chatEndpoint{}); err != nil {
		return nil, err
	}
	return cfg, nil
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	ep := endpointFor(req.URL.Path)
	if req.Method != http.MethodPost || ep == nil {
		return t.base.RoundTrip(req)
	}
	if t.err != nil {
		closeBody(req)
		return nil, t.err
	}
	rw, _ := newRewriter(t.cfg, ep) // checkConfig built one alike
	var body []byte
	if req.Body != nil && req.Body != http.NoBody {
		head, err := io.ReadAll(io.LimitReader(req.Body, maxRequestBytes+1))
		if err != nil {
			req.Body.Close()
			return nil, fmt.Errorf("openai: reading the request body: %w", err)
		}
		if len(head) > maxRequestBytes {
			out := req.Clone(req.Context())
			out.Body = readCloser{io.MultiReader(bytes.NewReader(head), req.Body), req.Body}
			return t.base.RoundTrip(out)
		}
		req.Body.Close()
		body = head
	}
	body, err := rw.Request(body)
	if err != nil {
		return nil, err
	}
	out := req.Clone(req.Context())
	out.Body = io.NopCloser(bytes.NewReader(body))
	out.ContentLength = int64(len(body))
	out.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	out.Header.Del("Content-Length")
	// The answer must arrive as plain text for the parser: let base
	// negotiate (and undo) compression itself.
	out.Header.Del("Accept-Encoding")
	resp, err := t.base.RoundTrip(out)
	if err != nil {
		return nil, err
	}
	if err := rewriteResponse(resp, rw); err != nil {
		resp.Body.Close()
		return nil, err
	}
	return resp, nil
}

func closeBody(req *http.Request) {
	if req.Body != nil {
		req.Body.Close()
	}
}

// rewriteResponse gives a successful response's body to rw: a stream
// through Stream, a JSON body through Response. Anything else (an error
// status, another content type, a compressed body) passes through as it
// came.
func rewriteResponse(resp *http.Response, rw *Rewriter) error {
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil
	}
	if enc := resp.Header.Get("Content-Encoding"); enc != "" && enc != "identity" {
		return nil
	}
	mediaType, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch mediaType {
	case "text/event-stream":
		resp.Body = rw.Stream(resp.Body)
		resp.ContentLength = -1
		resp.Header.Del("Content-Length")
	case "application/json":
		head, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes+1))
		if err != nil {
			return fmt.Errorf("openai: reading the response body: %w", err)
		}
		if len(head) > maxResponseBytes {
			resp.Body = readCloser{io.MultiReader(bytes.NewReader(head), resp.Body), resp.Body}
			return nil
		}
		resp.Body.Close()
		body := rw.Response(head)
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

// NewHandler returns an OpenAI-compatible reverse proxy to upstream (the
// server's root URL, without /v1) that splits reasoning out of the
// responses to the paths the package rewrites (POST /v1/chat/completions):
// each request goes through Rewriter.Request, its response through
// Rewriter.Response or Rewriter.Stream. Errors from upstream keep their
// status, headers and body; a client that goes away cancels the upstream
// request; a stream is rewritten an event at a time, never held whole.
// Every other path and method (/v1/models, /health, ...) is proxied as is.
//
// The Handler answers 400 for thinking controls the parser rejects, 413
// for a request body over 64 MiB, 502 when upstream cannot be reached
// (logged to WithErrorLog's logger), and 500 to every request to a
// rewritten path when the options name an unknown parser; each in the
// error shape of OpenAI's API.
func NewHandler(upstream *url.URL, opts ...Option) http.Handler {
	cfg, err := checkConfig(opts)
	h := &handler{cfg: cfg, err: err}
	h.proxy = &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(upstream)
			pr.SetXForwarded()
			if rewriterOf(pr.In.Context()) != nil {
				// The answer must arrive as plain text for the parser: let
				// the transport negotiate (and undo) compression itself.
				pr.Out.Header.Del("Accept-Encoding")
			}
		},
		ModifyResponse: func(resp *http.Response) error {
			if rw := rewriterOf(resp.Request.Context()); rw != nil {
				return rewriteResponse(resp, rw)
			}
			return nil
		},
		ErrorHandler: h.upstreamError,
	}
	if cfg != nil {
		h.proxy.ErrorLog = cfg.log
	}
	return h
}

// handler is the http.Handler: rewritten paths through a Rewriter, every
// other path straight to upstream.
type handler struct {
	cfg   *config
	err   error // the options' error
	proxy *httputil.ReverseProxy
}

type rewriterKey struct{}

func rewriterOf(ctx context.Context) *Rewriter {
	rw, _ := ctx.Value(rewriterKey{}).(*Rewriter)
	return rw
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ep := endpointFor(r.URL.Path)
	if r.Method != http.MethodPost || ep == nil {
		h.proxy.ServeHTTP(w, r)
		return
	}
	if h.err != nil {
		h.logf("%s %s: %v", r.Method, r.URL.Path, h.err)
		writeError(w, http.StatusInternalServerError, "server_error", "gateway: "+h.err.Error())
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxRequestBytes))
	if err != nil {
		status := http.StatusBadRequest
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			status = http.StatusRequestEntityTooLarge
		}
		writeError(w, status, "invalid_request_error", "reading the request: "+err.Error())
		return
	}
	rw, _ := newRewriter(h.cfg, ep) // checkConfig built one alike
	if body, err = rw.Request(body); err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", err.Error())
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	r.Header.Set("Content-Length", strconv.Itoa(len(body)))
	h.proxy.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), rewriterKey{}, rw)))
}

// upstreamError answers a request upstream could not serve: 502, unless the
// client itself went away.
func (h *handler) upstreamError(w http.ResponseWriter, r *http.Request, err error) {
	if r.Context().Err() != nil {
		return
	}
	h.logf("%s %s: %v", r.Method, r.URL.Path, err)
	writeError(w, http.StatusBadGateway, "upstream_error", "upstream: "+err.Error())
}

func (h *handler) logf(format string, args ...any) {
	if h.proxy.ErrorLog != nil {
		h.proxy.ErrorLog.Printf(format, args...)
		return
	}
	log.Printf(format, args...)
}

// writeError writes an error the way OpenAI-compatible servers do.
func writeError(w http.ResponseWriter, status int, kind, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{
		"error": map[string]any{"message": message, "type": kind, "param": nil, "code": nil},
	})
}
