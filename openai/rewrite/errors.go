package rewrite

// ErrorBody returns the JSON body of an error response with the given
// HTTP status in the shape of the API at path, for a gateway that answers
// a request itself (400 for Request's error, 413, 502 when upstream cannot
// be reached): {"type":"error","error":{"type":...,"message":...}} for
// Anthropic Messages, {"error":{"message":...,"type":...,"param":null,
// "code":null}} for every other path.
func ErrorBody(path string, status int, message string) []byte {
	if ep := endpointFor(path); ep != nil {
		return ep.errorBody(status, message)
	}
	return openAIError(status, message)
}

// openAIError is the error body of OpenAI's APIs.
func openAIError(status int, message string) []byte {
	kind := "server_error"
	switch {
	case status == 502:
		kind = "upstream_error"
	case status >= 400 && status < 500:
		kind = "invalid_request_error"
	}
	b := append([]byte(`{"error":{"message":`), appendJSONString(nil, message)...)
	b = append(b, `,"type":`...)
	b = appendJSONString(b, kind)
	return append(b, `,"param":null,"code":null}}`...)
}
