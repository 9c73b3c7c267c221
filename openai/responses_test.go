package openai

import (
	"context"
	"net/http"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/reasoning-go/reasoning/openai/internal/fake"
)

// responsesUpstream is a raw-text server's /v1/responses:
// fake.ResponsesStream (its first n events when n >= 0) to streaming
// requests, fake.ResponsesBody to the others, and a 429 with a request ID
// to the model "fail".
func responsesUpstream(t *testing.T, n int) *upstream {
	return apiUpstream(t, serveEvents(13, fake.ResponsesStream(n)...), fake.ResponsesBody, openAIRateLimit, "X-Request-Id")
}

var responsesParams = responses.ResponseNewParams{
	Model:     "Qwen/Qwen3-8B",
	Reasoning: openai.ReasoningParam{Effort: openai.ReasoningEffortHigh},
	Input: responses.ResponseNewParamsInputUnion{OfInputItemList: responses.ResponseInputParam{
		responses.ResponseInputItemParamOfMessage("Weather in Paris?", responses.EasyInputMessageRoleUser),
		// An earlier turn's reasoning, as a client sends it back.
		responses.ResponseInputItemParamOfReasoning("rs_0", []responses.ResponseReasoningItemSummaryParam{{Text: "Earlier thoughts."}}),
		responses.ResponseInputItemParamOfMessage("Sunny.", responses.EasyInputMessageRoleAssistant),
		responses.ResponseInputItemParamOfMessage("And now?", responses.EasyInputMessageRoleUser),
	}},
}

// TestTransportResponses: openai-go's Responses client, through the
// Transport, gets a reasoning item before the message item and the
// function call, streamed (also from a stream that stops early) or not;
// earlier reasoning never reaches upstream.
func TestTransportResponses(t *testing.T) {
	for _, n := range []int{-1, 12, 8} { // 12: stops before response.completed, 8: after the last text delta
		up := responsesUpstream(t, n)
		client := openai.NewClient(option.WithBaseURL(up.URL+"/v1"), option.WithAPIKey("none"),
			option.WithMaxRetries(0), option.WithHTTPClient(httpClient()))
		stream := client.Responses.NewStreaming(context.Background(), responsesParams)
		var reasoningText, text, args string
		var completed *responses.Response
		for stream.Next() {
			switch e := stream.Current(); e.Type {
			case "response.reasoning_text.delta":
				reasoningText += e.AsResponseReasoningTextDelta().Delta
			case "response.output_text.delta":
				text += e.AsResponseOutputTextDelta().Delta
			case "response.function_call_arguments.delta":
				args += e.Delta
			case "response.completed":
				r := e.AsResponseCompleted().Response
				completed = &r
			}
		}
		require.NoError(t, stream.Err(), "n=%d", n)
		assert.Equal(t, fake.ResponsesReasoning, reasoningText, "n=%d", n)
		assert.Equal(t, fake.ResponsesAnswer, text, "n=%d", n)
		if n == -1 {
			assert.Equal(t, fake.ResponsesArguments, args)
			require.NotNil(t, completed)
			require.Len(t, completed.Output, 3)
			reasoningItem := completed.Output[0].AsReasoning()
			assert.Equal(t, "reasoning", completed.Output[0].Type)
			require.Len(t, reasoningItem.Content, 1)
			assert.Equal(t, fake.ResponsesReasoning, reasoningItem.Content[0].Text)
			assert.Equal(t, fake.ResponsesAnswer, completed.OutputText())
			assert.Equal(t, "get_weather", completed.Output[2].Name)
			assert.EqualValues(t, 42, completed.Usage.TotalTokens)
		}

		sent := up.lastBody(t)
		assert.Equal(t, true, sent["chat_template_kwargs"].(map[string]any)["enable_thinking"], "effort high: thinking on")
		for _, item := range sent["input"].([]any) {
			assert.NotEqual(t, "reasoning", item.(map[string]any)["type"], "earlier reasoning dropped")
		}
	}

	up := responsesUpstream(t, -1)
	client := openai.NewClient(option.WithBaseURL(up.URL+"/v1"), option.WithAPIKey("none"),
		option.WithMaxRetries(0), option.WithHTTPClient(httpClient()))
	resp, err := client.Responses.New(context.Background(), responsesParams)
	require.NoError(t, err)
	require.Len(t, resp.Output, 3)
	assert.Equal(t, "plan", resp.Output[0].AsReasoning().Content[0].Text)
	assert.Equal(t, "done", resp.OutputText())

	params := responsesParams
	params.Model = "fail"
	_, err = client.Responses.New(context.Background(), params)
	var apiErr *openai.Error
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusTooManyRequests, apiErr.StatusCode)
	assert.Equal(t, "req-7", apiErr.Response.Header.Get("X-Request-Id"))
	stream := client.Responses.NewStreaming(context.Background(), params)
	assert.False(t, stream.Next())
	require.ErrorAs(t, stream.Err(), &apiErr)
	assert.Equal(t, http.StatusTooManyRequests, apiErr.StatusCode)
}
