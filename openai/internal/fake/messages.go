package fake

import "fmt"

// An Event is one server-sent event as a raw-text upstream sends it: its
// event name ("" for none) and its data.
type Event struct{ Name, Data string }

// Messages events, as vLLM's /v1/messages sends them for a model without
// a reasoning parser: every event named by its type.

// MessageStart is message_start, with usage so far.
func MessageStart(id string) Event {
	return Event{"message_start", `{"type":"message_start","message":{"id":"` + id + `","type":"message","role":"assistant",` +
		`"content":[],"model":"Qwen/Qwen3-8B","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":12,"output_tokens":0}}}`}
}

// TextStart is the content_block_start of a text block.
func TextStart(index int) Event {
	return Event{"content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"text","text":""}}`, index)}
}

// TextDelta is a text_delta of the block at index.
func TextDelta(index int, text string) Event {
	return Event{"content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"text_delta","text":%s}}`, index, quote(text))}
}

// ThinkingStart and ThinkingDelta are what an upstream that splits sends.
func ThinkingStart(index int) Event {
	return Event{"content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"thinking","thinking":"","signature":""}}`, index)}
}

// ThinkingDelta is a thinking_delta of the block at index.
func ThinkingDelta(index int, text string) Event {
	return Event{"content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"thinking_delta","thinking":%s}}`, index, quote(text))}
}

// ToolUseStart is the content_block_start of a tool_use block.
func ToolUseStart(index int, id, name string) Event {
	return Event{"content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"tool_use","id":%q,"name":%q,"input":{}}}`, index, id, name)}
}

// InputJSONDelta is an input_json_delta of the tool_use block at index.
func InputJSONDelta(index int, partial string) Event {
	return Event{"content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"input_json_delta","partial_json":%s}}`, index, quote(partial))}
}

// BlockStop is the content_block_stop of the block at index.
func BlockStop(index int) Event {
	return Event{"content_block_stop", fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, index)}
}

// MessageDelta is message_delta with the stop reason and usage.
func MessageDelta(stopReason string, outputTokens int) Event {
	return Event{"message_delta", fmt.Sprintf(`{"type":"message_delta","delta":{"stop_reason":%q,"stop_sequence":null},"usage":{"input_tokens":12,"output_tokens":%d}}`, stopReason, outputTokens)}
}

// MessageStop ends a Messages stream.
var MessageStop = Event{"message_stop", `{"type":"message_stop"}`}

// Ping is the keep-alive the API sends between events.
var Ping = Event{"ping", `{"type":"ping"}`}

// MessagesStream is a raw-text Messages stream: "<think>" reasoning and
// an answer with every marker cut across events, then a tool call, usage
// and the end. Its text is MessagesReasoning and MessagesText once split.
var MessagesStream = []Event{
	MessageStart("msg_1"),
	TextStart(0),
	Ping,
	TextDelta(0, "<think>I need the wea"),
	TextDelta(0, "ther in Paris.</th"),
	TextDelta(0, "ink>\n\nLet me look it up <"),
	BlockStop(0),
	ToolUseStart(1, "toolu_1", "get_weather"),
	InputJSONDelta(1, `{"city":`),
	InputJSONDelta(1, `"Paris"}`),
	BlockStop(1),
	MessageDelta("tool_use", 28),
	MessageStop,
}

// What a client assembles from MessagesStream.
const (
	MessagesReasoning = "I need the weather in Paris."
	MessagesText      = "\n\nLet me look it up <"
	MessagesToolInput = `{"city":"Paris"}`
)

// MessagesBody is a whole raw-text Messages response.
const MessagesBody = `{"id":"msg_2","type":"message","role":"assistant","model":"Qwen/Qwen3-8B",` +
	`"content":[{"type":"text","text":"<think>plan</think>done"},{"type":"tool_use","id":"toolu_2","name":"f","input":{"x":1}}],` +
	`"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":3,"output_tokens":9}}`
