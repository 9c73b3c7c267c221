package main

import (
	"testing"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/reasoningtest"
)

// TestReasoner runs the conformance kit on the family: every guarantee the
// library makes, under every chunking, with text alone and with a toy
// vocabulary in which each marker is one token.
func TestReasoner(t *testing.T) {
	f, _ := Reasoner.Factory()
	reasoningtest.Test(t, f, reasoningtest.Config{
		Markers: Reasoner.Info().Markers,
		Outputs: []string{
			"plan</reason>The answer.",
			"<reason>plan</reason>answer</reason>",
			"look it up<tool>{\"q\": 1}</tool>",
		},
	})
}

// TestReasonerSplits checks what the family does, as its doc comment says.
func TestReasonerSplits(t *testing.T) {
	off := map[string]any{"enable_reasoning": false}
	for _, tc := range []struct {
		kw     map[string]any
		output string
		want   reasoning.Message
	}{
		{nil, "<reason>plan</reason>The answer.", reasoning.Message{Reasoning: "plan", Content: "The answer."}},
		{nil, "plan</reason>The answer.", reasoning.Message{Reasoning: "plan", Content: "The answer."}},
		{nil, "plan<tool>{}", reasoning.Message{Reasoning: "plan", Content: "<tool>{}"}},
		{nil, "plan</reason>a</reason>b", reasoning.Message{Reasoning: "plan", Content: "ab"}},
		{off, "plan</reason>x", reasoning.Message{Content: "plan</reason>x"}},
	} {
		p, err := reasoning.New("reasoner", nil, reasoning.WithChatTemplateKwargs(tc.kw))
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Extract(tc.output); got != tc.want {
			t.Errorf("kwargs %v, Extract(%q) = %+v, want %+v", tc.kw, tc.output, got, tc.want)
		}
	}
}

// TestReasonerSwitchIsKnown checks that ResolveThinking reaches the
// family's own switch key: a deployment's "thinking off" is written into
// enable_reasoning, so the template and the parser agree.
func TestReasonerSwitchIsKnown(t *testing.T) {
	kw, _ := reasoning.ResolveThinking(nil, "", reasoning.ThinkingDefaults{Mode: reasoning.ThinkingDisabled})
	if v, ok := kw["enable_reasoning"]; !ok || v != false {
		t.Fatalf("ResolveThinking with thinking disabled gave %v: want enable_reasoning false", kw)
	}
}
