package openai

import (
	"context"
	"net/http"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reasoning-go/reasoning/openai/internal/fake"
)

// messagesUpstream is a raw-text server's /v1/messages: fake.MessagesStream
// (cut short when cut > 0: that many events from its end are not sent) to
// streaming requests, fake.MessagesBody to the others, and a 429 with a
// request ID to the model "fail".
func messagesUpstream(t *testing.T, cut int) *upstream {
	return apiUpstream(t, serveEvents(7, fake.MessagesStream[:len(fake.MessagesStream)-cut]...), fake.MessagesBody, anthropicRateLimit, "Request-Id")
}

func anthropicClient(up *upstream) anthropic.Client {
	return anthropic.NewClient(option.WithBaseURL(up.URL), option.WithAPIKey("none"),
		option.WithMaxRetries(0), option.WithHTTPClient(httpClient()))
}

var messagesParams = anthropic.MessageNewParams{
	Model:     "Qwen/Qwen3-8B",
	MaxTokens: 1024,
	Thinking:  anthropic.ThinkingConfigParamOfEnabled(1024),
	Messages: []anthropic.MessageParam{
		anthropic.NewUserMessage(anthropic.NewTextBlock("Weather in Paris?")),
		// An earlier turn, with its thinking as the SDK sends it back.
		anthropic.NewAssistantMessage(anthropic.NewThinkingBlock("", "Earlier thoughts."), anthropic.NewTextBlock("Sunny.")),
		anthropic.NewUserMessage(anthropic.NewTextBlock("And now?")),
	},
}

// TestTransportAnthropic: anthropic-sdk-go, through the Transport, gets a
// thinking block before the text block and the tool call, streamed (and
// accumulated by the SDK, which checks the block order) or not, also from
// a stream that stops early; earlier thinking never reaches upstream.
func TestTransportAnthropic(t *testing.T) {
	// Cut short: 4 stops inside the tool call, 7 inside the text block,
	// whose held "<" still arrives.
	for _, cut := range []int{0, 1, 2, 4, 7} {
		up := messagesUpstream(t, cut)
		client := anthropicClient(up)
		stream := client.Messages.NewStreaming(context.Background(), messagesParams)
		var msg anthropic.Message
		for stream.Next() {
			require.NoError(t, msg.Accumulate(stream.Current()), "cut %d", cut)
		}
		require.NoError(t, stream.Err(), "cut %d", cut)
		blocks := 3
		if cut == 7 {
			blocks = 2
		}
		require.Len(t, msg.Content, blocks, "cut %d", cut)
		assert.Equal(t, "thinking", msg.Content[0].Type)
		assert.Equal(t, fake.MessagesReasoning, msg.Content[0].Thinking)
		assert.Empty(t, msg.Content[0].Signature, "nobody can sign but Anthropic")
		assert.Equal(t, "text", msg.Content[1].Type)
		assert.Equal(t, fake.MessagesText, msg.Content[1].Text)
		if cut == 7 {
			continue
		}
		assert.Equal(t, "tool_use", msg.Content[2].Type)
		assert.Equal(t, "get_weather", msg.Content[2].Name)
		if cut == 0 {
			assert.JSONEq(t, fake.MessagesToolInput, string(msg.Content[2].Input))
			assert.Equal(t, anthropic.StopReasonToolUse, msg.StopReason)
			assert.EqualValues(t, 28, msg.Usage.OutputTokens)
		}

		sent := up.lastBody(t)
		assert.Equal(t, true, sent["chat_template_kwargs"].(map[string]any)["enable_thinking"], "thinking enabled goes upstream")
		assert.Equal(t, map[string]any{"type": "enabled", "budget_tokens": 1024.0}, sent["thinking"], "and so does the request's own switch")
		earlier := sent["messages"].([]any)[1].(map[string]any)
		assert.Equal(t, []any{map[string]any{"type": "text", "text": "Sunny."}}, earlier["content"], "earlier thinking dropped")
	}

	up := messagesUpstream(t, 0)
	client := anthropicClient(up)
	msg, err := client.Messages.New(context.Background(), messagesParams)
	require.NoError(t, err)
	require.Len(t, msg.Content, 3)
	assert.Equal(t, "plan", msg.Content[0].Thinking)
	assert.Equal(t, "done", msg.Content[1].Text)
	assert.Equal(t, "f", msg.Content[2].Name)
	// A thinking block goes back to the gateway as the SDK converts it.
	assert.Equal(t, "plan", msg.ToParam().OfAssistant.Content[0].OfThinking.Thinking)

	params := messagesParams
	params.Model = "fail"
	_, err = client.Messages.New(context.Background(), params)
	var apiErr *anthropic.Error
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusTooManyRequests, apiErr.StatusCode)
	assert.Equal(t, "req-7", apiErr.Response.Header.Get("Request-Id"))
	stream := client.Messages.NewStreaming(context.Background(), params)
	assert.False(t, stream.Next())
	require.ErrorAs(t, stream.Err(), &apiErr)
	assert.Equal(t, http.StatusTooManyRequests, apiErr.StatusCode)
}

// TestHandlerAnthropicErrors: the Handler answers a Messages request it
// refuses in Anthropic's error shape, which the SDK reads.
func TestHandlerAnthropicErrors(t *testing.T) {
	up := messagesUpstream(t, 0)
	gw := startGateway(t, up)
	client := anthropic.NewClient(option.WithBaseURL(gw.URL), option.WithAPIKey("none"), option.WithMaxRetries(0))
	params := messagesParams
	params.Model = "IFM/K2-Horizon-36B"
	params.Thinking = anthropic.ThinkingConfigParamUnion{}
	params.OutputConfig = anthropic.OutputConfigParam{Effort: "none"}
	_, err := client.Messages.New(context.Background(), params)
	var apiErr *anthropic.Error
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusBadRequest, apiErr.StatusCode)
	assert.Contains(t, apiErr.Message, "reasoning_effort")
}
