package openai

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"mime"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"

	"github.com/reasoning-go/reasoning/openai/rewrite"
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
// rewrites (/chat/completions, /v1/messages, /responses): plain and streamed,
// text a parser held back sent before its choice or block ends. Give it to
// any Go client: openai-go's option.WithHTTPClient, go-openai's
// ClientConfig.HTTPClient, anthropic-sdk-go's option.WithHTTPClient. A nil
// base is http.DefaultTransport.
//
// The request is read and sent as rewrite.Rewriter.Request rewrites it, in a clone:
// the caller's request is not modified. Other methods and paths go to base
// as they are, and so do error responses and compressed bodies that base
// did not decompress.
//
// A request it refuses is never sent: it is answered as the Handler answers
// it, with a response of its own in the error shape of the request's API
// (rewrite.ErrorBody), so that the client reads an API error rather than a
// connection failure: 400 for thinking controls the parser rejects (its
// message is that of an error wrapping reasoning.ErrUnsupportedConfig), and
// 500 for every request to a rewritten path when the options name an
// unknown parser. Both carry x-should-retry: false, which openai-go,
// anthropic-sdk-go and the npm openai and @anthropic-ai/sdk clients obey:
// the same request would be refused again.
func NewTransport(base http.RoundTripper, opts ...Option) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	cfg, err := rewrite.NewConfig(opts...)
	return &transport{base: base, cfg: cfg, err: err}
}

type transport struct {
	base http.RoundTripper
	cfg  *rewrite.Config
	err  error // the options' error
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodPost || !rewrite.Supported(req.URL.Path) {
		return t.base.RoundTrip(req)
	}
	if t.err != nil {
		closeBody(req)
		return refusal(req, http.StatusInternalServerError, "transport: "+t.err.Error()), nil
	}
	rw, err := t.cfg.New(req.URL.Path)
	if err != nil {
		closeBody(req)
		return nil, err
	}
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
	body, err = rw.Request(body)
	if err != nil {
		return refusal(req, http.StatusBadRequest, err.Error()), nil
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

// refusal is the Transport's answer to a request it does not send: status,
// with message in the error shape of the request's API, as the Handler
// writes it.
func refusal(req *http.Request, status int, message string) *http.Response {
	body := rewrite.ErrorBody(req.URL.Path, status, message)
	header := make(http.Header)
	setRefusalHeader(header, len(body))
	return &http.Response{
		Status:        strconv.Itoa(status) + " " + http.StatusText(status),
		StatusCode:    status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        header,
		Body:          io.NopCloser(bytes.NewReader(body)),
		ContentLength: int64(len(body)),
		Request:       req,
	}
}

// setRefusalHeader sets the header of an error answered without calling
// upstream, whose body is n bytes of JSON. x-should-retry: false tells the
// SDKs that retry 5xx answers (openai-go, anthropic-sdk-go, the npm openai
// and @anthropic-ai/sdk clients) that the same request would fail again.
func setRefusalHeader(h http.Header, n int) {
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(n))
	h.Set("X-Should-Retry", "false")
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
func rewriteResponse(resp *http.Response, rw *rewrite.Rewriter) error {
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
// responses to the paths the package rewrites (POST /v1/chat/completions,
// /v1/messages, /v1/responses): each request goes through
// rewrite.Rewriter.Request, its response through Response or Stream. Errors from upstream keep their
// status, headers and body; a client that goes away cancels the upstream
// request; a stream is rewritten an event at a time, never held whole.
// Every other path and method (/v1/models, /health, ...) is proxied as is.
// Upstream is called through WithUpstreamTransport's http.RoundTripper,
// http.DefaultTransport by default.
//
// The Handler answers 400 for thinking controls the parser rejects, 413
// for a request body over 64 MiB, 502 when upstream cannot be reached
// (logged to WithErrorLog's logger), and 500 to every request to a
// rewritten path when the options name an unknown parser; each in the
// error shape of the request's API (rewrite.ErrorBody), and all but the
// 502 with x-should-retry: false, since the same request would fail again.
func NewHandler(upstream *url.URL, opts ...Option) http.Handler {
	cfg, err := rewrite.NewConfig(opts...)
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
	s := applyOptions(opts)
	h.proxy.ErrorLog = s.ErrorLog
	if rt, ok := s.UpstreamTransport.(http.RoundTripper); ok {
		h.proxy.Transport = rt
	}
	return h
}

// handler is the http.Handler: rewritten paths through a Rewriter, every
// other path straight to upstream.
type handler struct {
	cfg   *rewrite.Config
	err   error // the options' error
	proxy *httputil.ReverseProxy
}

type rewriterKey struct{}

func rewriterOf(ctx context.Context) *rewrite.Rewriter {
	rw, _ := ctx.Value(rewriterKey{}).(*rewrite.Rewriter)
	return rw
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || !rewrite.Supported(r.URL.Path) {
		h.proxy.ServeHTTP(w, r)
		return
	}
	if h.err != nil {
		h.logf("%s %s: %v", r.Method, r.URL.Path, h.err)
		refuse(w, r, http.StatusInternalServerError, "gateway: "+h.err.Error())
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxRequestBytes))
	if err != nil {
		status := http.StatusBadRequest
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			status = http.StatusRequestEntityTooLarge
		}
		refuse(w, r, status, "reading the request: "+err.Error())
		return
	}
	rw, err := h.cfg.New(r.URL.Path)
	if err == nil {
		body, err = rw.Request(body)
	}
	if err != nil {
		refuse(w, r, http.StatusBadRequest, err.Error())
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
	writeError(w, r, http.StatusBadGateway, "upstream: "+err.Error())
}

func (h *handler) logf(format string, args ...any) {
	if h.proxy.ErrorLog != nil {
		h.proxy.ErrorLog.Printf(format, args...)
		return
	}
	log.Printf(format, args...)
}

// writeError writes an error in the shape of the request's API.
func writeError(w http.ResponseWriter, r *http.Request, status int, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(rewrite.ErrorBody(r.URL.Path, status, message))
}

// refuse writes an error for a request the Handler does not send upstream,
// which the same request would meet again: as writeError, with
// x-should-retry: false.
func refuse(w http.ResponseWriter, r *http.Request, status int, message string) {
	body := rewrite.ErrorBody(r.URL.Path, status, message)
	setRefusalHeader(w.Header(), len(body))
	w.WriteHeader(status)
	w.Write(body)
}
