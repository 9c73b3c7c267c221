package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strings"
)

// The two names servers give the reasoning field of a chat message.
const (
	fieldReasoning        = "reasoning"
	fieldReasoningContent = "reasoning_content"
)

// request is what the doctor reads of a captured request body.
type request struct {
	ChatTemplateKwargs  map[string]any `json:"chat_template_kwargs"`
	ReasoningEffort     any            `json:"reasoning_effort"`
	MaxTokens           *int           `json:"max_tokens"`
	MaxCompletionTokens *int           `json:"max_completion_tokens"`
	SkipSpecialTokens   *bool          `json:"skip_special_tokens"`
	SeparateReasoning   *bool          `json:"separate_reasoning"`
}

// parseRequest reads a request body. A body captured on the client side
// may hold the server's own fields under extra_body, as the OpenAI Python
// client takes them; those are read too.
func parseRequest(text string) (*request, error) {
	var r struct {
		request
		ExtraBody *request `json:"extra_body"`
	}
	if err := json.Unmarshal([]byte(text), &r); err != nil {
		return nil, err
	}
	req := r.request
	if x := r.ExtraBody; x != nil {
		if x.ChatTemplateKwargs != nil {
			req.ChatTemplateKwargs = merge(req.ChatTemplateKwargs, x.ChatTemplateKwargs)
		}
		if x.ReasoningEffort != nil {
			req.ReasoningEffort = x.ReasoningEffort
		}
		req.MaxTokens = first(x.MaxTokens, req.MaxTokens)
		req.MaxCompletionTokens = first(x.MaxCompletionTokens, req.MaxCompletionTokens)
		req.SkipSpecialTokens = first(x.SkipSpecialTokens, req.SkipSpecialTokens)
		req.SeparateReasoning = first(x.SeparateReasoning, req.SeparateReasoning)
	}
	return &req, nil
}

// first returns a unless it is nil.
func first[T any](a, b *T) *T {
	if a != nil {
		return a
	}
	return b
}

func merge(a, b map[string]any) map[string]any {
	m := maps.Clone(a)
	if m == nil {
		m = map[string]any{}
	}
	maps.Copy(m, b)
	return m
}

// kwargs returns the chat_template_kwargs as the server hands them to its
// parser: a top-level reasoning_effort is added where the kwargs lack one,
// as vLLM does.
func (r *request) kwargs() map[string]any {
	kw := maps.Clone(r.ChatTemplateKwargs)
	if r.ReasoningEffort != nil {
		if kw == nil {
			kw = map[string]any{}
		}
		if _, ok := kw["reasoning_effort"]; !ok {
			kw["reasoning_effort"] = r.ReasoningEffort
		}
	}
	return kw
}

// maxTokens returns the request's completion-token limit and the field that
// set it, if any.
func (r *request) maxTokens() (int, string) {
	switch {
	case r == nil:
	case r.MaxCompletionTokens != nil:
		return *r.MaxCompletionTokens, "max_completion_tokens"
	case r.MaxTokens != nil:
		return *r.MaxTokens, "max_tokens"
	}
	return 0, ""
}

// response is a captured chat completion, streamed or not.
type response struct {
	file     string
	streamed bool
	chunks   int // data lines of a stream
	choices  []*choice
	usage    *tokenUsage
}

type tokenUsage struct {
	PromptTokens            int `json:"prompt_tokens"`
	CompletionTokens        int `json:"completion_tokens"`
	CompletionTokensDetails *struct {
		ReasoningTokens *int `json:"reasoning_tokens"`
	} `json:"completion_tokens_details"`
}

// choice is one choice of a response, its streamed deltas joined.
type choice struct {
	index     int
	reasoning field // message.reasoning
	reasonCtt field // message.reasoning_content
	content   field
	toolCalls int
	finish    string
}

// field is a message field: whether its key appeared at all (null
// included), and its text.
type field struct {
	seen bool
	text string
}

// reasoningText returns the choice's reasoning, from whichever field holds
// it, and that field's name.
func (c *choice) reasoningText() (string, string) {
	if c.reasoning.text != "" {
		return c.reasoning.text, fieldReasoning
	}
	if c.reasonCtt.text != "" {
		return c.reasonCtt.text, fieldReasoningContent
	}
	return "", ""
}

// path names a field of the choice as a JSON path, for evidence.
func (r *response) path(c *choice, name string) string {
	if r.streamed {
		return fmt.Sprintf("choices[%d].delta.%s (joined over the stream)", c.index, name)
	}
	return fmt.Sprintf("choices[%d].message.%s", c.index, name)
}

// parseResponse reads a chat completion body, or the SSE lines of a
// streamed one ("data: {...}" per chunk, "data: [DONE]" at the end).
func parseResponse(text string) (*response, error) {
	trimmed := strings.TrimSpace(text)
	if strings.HasPrefix(trimmed, "{") {
		var body struct {
			Choices []struct {
				Index        int                        `json:"index"`
				Message      map[string]json.RawMessage `json:"message"`
				FinishReason *string                    `json:"finish_reason"`
			} `json:"choices"`
			Usage *tokenUsage `json:"usage"`
		}
		if err := json.Unmarshal([]byte(trimmed), &body); err != nil {
			return nil, err
		}
		if len(body.Choices) == 0 {
			return nil, errors.New("no choices: not a chat completion")
		}
		r := &response{usage: body.Usage}
		for _, c := range body.Choices {
			ch := &choice{index: c.Index}
			if err := ch.add(c.Message); err != nil {
				return nil, fmt.Errorf("choices[%d].message: %w", c.Index, err)
			}
			if c.FinishReason != nil {
				ch.finish = *c.FinishReason
			}
			r.choices = append(r.choices, ch)
		}
		return r, nil
	}
	return parseStream(text)
}

func parseStream(text string) (*response, error) {
	r := &response{streamed: true}
	byIndex := map[int]*choice{}
	toolIDs := map[int]map[string]bool{}
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(nil, 16<<20)
	line := 0
	for sc.Scan() {
		line++
		data, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "data:")
		if !ok {
			continue // blank lines, "event:" and ": comment" lines
		}
		data = strings.TrimSpace(data)
		if data == "[DONE]" || data == "" {
			continue
		}
		var chunk struct {
			Choices []struct {
				Index        int                        `json:"index"`
				Delta        map[string]json.RawMessage `json:"delta"`
				FinishReason *string                    `json:"finish_reason"`
			} `json:"choices"`
			Usage *tokenUsage `json:"usage"`
		}
		if err := json.Unmarshal([]byte(data), &chunk); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		r.chunks++
		if chunk.Usage != nil {
			r.usage = chunk.Usage
		}
		for _, c := range chunk.Choices {
			ch := byIndex[c.Index]
			if ch == nil {
				ch = &choice{index: c.Index}
				byIndex[c.Index] = ch
				toolIDs[c.Index] = map[string]bool{}
				r.choices = append(r.choices, ch)
			}
			if err := ch.add(c.Delta); err != nil {
				return nil, fmt.Errorf("line %d: %w", line, err)
			}
			for _, id := range toolCallKeys(c.Delta["tool_calls"]) {
				toolIDs[c.Index][id] = true
			}
			ch.toolCalls = len(toolIDs[c.Index]) // add counted each delta's list; a call spans many
			if c.FinishReason != nil && *c.FinishReason != "" {
				ch.finish = *c.FinishReason
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if r.chunks == 0 {
		return nil, errors.New(`neither a JSON body nor "data:" lines of a stream`)
	}
	return r, nil
}

// add joins the text fields of a message or a delta into c.
func (c *choice) add(m map[string]json.RawMessage) error {
	for _, f := range []struct {
		key string
		dst *field
	}{{fieldReasoning, &c.reasoning}, {fieldReasoningContent, &c.reasonCtt}, {"content", &c.content}} {
		raw, ok := m[f.key]
		if !ok {
			continue
		}
		f.dst.seen = true
		s, err := textOf(raw)
		if err != nil {
			return fmt.Errorf("%s: %w", f.key, err)
		}
		f.dst.text += s
	}
	if raw, ok := m["tool_calls"]; ok {
		var calls []json.RawMessage
		if json.Unmarshal(raw, &calls) == nil {
			c.toolCalls += len(calls)
		}
	}
	return nil
}

// textOf reads a string field that may be null, or a content array of
// {"type": "text", "text": ...} parts.
func textOf(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var parts []struct {
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", errors.New("neither a string nor a list of text parts")
	}
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String(), nil
}

// toolCallKeys returns a key per tool call a streamed delta carries: its
// index (later deltas of the same call repeat it), else its id.
func toolCallKeys(raw json.RawMessage) []string {
	var calls []struct {
		Index *int   `json:"index"`
		ID    string `json:"id"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &calls) != nil {
		return nil
	}
	keys := make([]string, 0, len(calls))
	for i, c := range calls {
		switch {
		case c.Index != nil:
			keys = append(keys, fmt.Sprint("index ", *c.Index))
		case c.ID != "":
			keys = append(keys, "id "+c.ID)
		default:
			keys = append(keys, fmt.Sprint("position ", i))
		}
	}
	return keys
}
