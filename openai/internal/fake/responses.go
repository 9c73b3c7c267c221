package fake

import (
	"fmt"
	"strings"
)

// Responses API events, as vLLM's /v1/responses sends them for a model
// without a reasoning parser: every event named by its type, its
// sequence_number counting from 0.

// ResponsesText is the raw text of the message item of ResponsesStream,
// cut into its output_text deltas; ResponsesReasoning and ResponsesAnswer
// are what a client assembles once it is split.
var ResponsesText = []string{"<think>The user wants the wea", "ther.</th", "ink>\n\nChecking", " the weather <"}

const (
	ResponsesReasoning = "The user wants the weather."
	ResponsesAnswer    = "\n\nChecking the weather <"
	ResponsesArguments = `{"city":"Paris"}`
)

const (
	responsesMessageID = "msg_a1"
	responsesCallID    = "fc_b2"
)

// responseObject is the response member of response.created and
// .completed: status, and output.
func responseObject(status, output string) string {
	return `{"id":"resp_1","object":"response","created_at":1750000000,"status":"` + status + `","model":"Qwen/Qwen3-8B",` +
		`"output":[` + output + `],"parallel_tool_calls":true,"tool_choice":"auto","tools":[],` +
		`"usage":` + map[bool]string{true: `{"input_tokens":12,"input_tokens_details":{"cached_tokens":0},"output_tokens":30,"output_tokens_details":{"reasoning_tokens":0},"total_tokens":42}`, false: `null`}[status == "completed"] + `}`
}

func messageItem(status, text string) string {
	content := ""
	if status == "completed" {
		content = `{"type":"output_text","text":` + quote(text) + `,"annotations":[],"logprobs":[]}`
	}
	return `{"id":"` + responsesMessageID + `","type":"message","status":"` + status + `","role":"assistant","content":[` + content + `]}`
}

func callItem(status, arguments string) string {
	return `{"id":"` + responsesCallID + `","type":"function_call","status":"` + status + `","call_id":"call_1","name":"get_weather","arguments":` + quote(arguments) + `}`
}

// ResponsesStream returns a raw-text Responses stream: a message item
// whose markers are cut across deltas, a function call, and
// response.completed with usage; the events after the first n are cut
// off when n >= 0.
func ResponsesStream(n int) []Event {
	var events []Event
	add := func(typ, members string) {
		events = append(events, Event{typ, fmt.Sprintf(`{"type":%q,"sequence_number":%d,%s}`, typ, len(events), members)})
	}
	text := strings.Join(ResponsesText, "")
	add("response.created", `"response":`+responseObject("in_progress", ""))
	add("response.in_progress", `"response":`+responseObject("in_progress", ""))
	add("response.output_item.added", `"output_index":0,"item":`+messageItem("in_progress", ""))
	add("response.content_part.added", `"item_id":"`+responsesMessageID+`","output_index":0,"content_index":0,"part":{"type":"output_text","text":"","annotations":[],"logprobs":[]}`)
	for _, d := range ResponsesText {
		add("response.output_text.delta", `"item_id":"`+responsesMessageID+`","output_index":0,"content_index":0,"delta":`+quote(d)+`,"logprobs":[]`)
	}
	add("response.output_text.done", `"item_id":"`+responsesMessageID+`","output_index":0,"content_index":0,"text":`+quote(text)+`,"logprobs":[]`)
	add("response.content_part.done", `"item_id":"`+responsesMessageID+`","output_index":0,"content_index":0,"part":{"type":"output_text","text":`+quote(text)+`,"annotations":[]}`)
	add("response.output_item.done", `"output_index":0,"item":`+messageItem("completed", text))
	add("response.output_item.added", `"output_index":1,"item":`+callItem("in_progress", ""))
	add("response.function_call_arguments.delta", `"item_id":"`+responsesCallID+`","output_index":1,"delta":`+quote(ResponsesArguments))
	add("response.function_call_arguments.done", `"item_id":"`+responsesCallID+`","output_index":1,"arguments":`+quote(ResponsesArguments))
	add("response.output_item.done", `"output_index":1,"item":`+callItem("completed", ResponsesArguments))
	add("response.completed", `"response":`+responseObject("completed", messageItem("completed", text)+","+callItem("completed", ResponsesArguments)))
	if n >= 0 && n < len(events) {
		events = events[:n]
	}
	return events
}

// ResponsesBody is a whole raw-text Responses response.
var ResponsesBody = responseObject("completed", messageItem("completed", "<think>plan</think>done")+","+callItem("completed", "{}"))
