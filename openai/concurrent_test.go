package openai

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/reasoning-go/reasoning"
	"github.com/reasoning-go/reasoning/openai/internal/fake"
)

// Test200ConcurrentStreams runs 200 streams at once through one Handler,
// each two interleaved choices of seeded random text cut anywhere, and
// checks that every client gets every byte of each choice, in order, split
// as the parser splits the same deltas.
func Test200ConcurrentStreams(t *testing.T) {
	const streams = 200
	seed := uint64(rand.Uint32())
	t.Logf("seed %d", seed)
	words := []string{"<think>", "</think>", "<th", "ink>", "</", "plan", " ", "\n\n", "é", "答", "{\"x\":1}", "<tool_call>"}
	type script struct {
		deltas [2][]string
		events []string
	}
	scripts := make([]script, streams)
	for i := range scripts {
		rng := rand.New(rand.NewPCG(seed, uint64(i)))
		s := &scripts[i]
		for ch := range 2 {
			var text strings.Builder
			for range 20 + rng.IntN(60) {
				text.WriteString(words[rng.IntN(len(words))])
			}
			all := text.String()
			for len(all) > 0 {
				n := min(len(all), 1+rng.IntN(9))
				for n < len(all) && !utf8.RuneStart(all[n]) { // upstream sends whole runes
					n++
				}
				s.deltas[ch] = append(s.deltas[ch], all[:n])
				all = all[n:]
			}
		}
		// Interleave the two choices' chunks at random; each finishes.
		next := [2]int{}
		for next[0] <= len(s.deltas[0]) || next[1] <= len(s.deltas[1]) {
			ch := rng.IntN(2)
			if next[ch] > len(s.deltas[ch]) {
				ch = 1 - ch
			}
			if next[ch] == len(s.deltas[ch]) {
				s.events = append(s.events, fake.Chunk(fake.Delta(ch, "", "stop")))
			} else {
				s.events = append(s.events, fake.Chunk(fake.Delta(ch, s.deltas[ch][next[ch]], "")))
			}
			next[ch]++
		}
		s.events = append(s.events, "[DONE]")
	}
	up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		var req struct{ Model string }
		json.NewDecoder(r.Body).Decode(&req)
		var i int
		fmt.Sscanf(req.Model, "stream-%d", &i)
		serveSSE(3+i%29, scripts[i].events...)(w, r) // lines cut anywhere
	})
	gw := startGateway(t, up, WithParser("qwen3"), WithField(FieldReasoning))
	var wg sync.WaitGroup
	errs := make(chan error, 2*streams)
	for i := range streams {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := http.Post(gw.URL+"/v1/chat/completions", "application/json", strings.NewReader(fmt.Sprintf(`{"model":"stream-%d","stream":true}`, i)))
			if err != nil {
				errs <- err
				return
			}
			defer resp.Body.Close()
			body, err := io.ReadAll(resp.Body)
			if err != nil {
				errs <- err
				return
			}
			var data []string
			for _, line := range strings.Split(string(body), "\n") {
				if p, ok := strings.CutPrefix(line, "data: "); ok {
					data = append(data, p)
				}
			}
			got := assembleNoT(data)
			for ch := range 2 {
				p, _ := reasoning.New("qwen3", nil)
				var ds []reasoning.Delta
				for _, d := range scripts[i].deltas[ch] {
					ds = append(ds, reasoning.Delta{Text: d})
				}
				want := reasoning.Collect(p, ds)
				if g := got[ch]; g == nil || g.Reasoning != want.Reasoning || g.Content != want.Content || g.TextAfterFinish {
					errs <- fmt.Errorf("seed %d stream %d choice %d: got %+v, want %+v", seed, i, ch, g, want)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// assembleNoT is assemble for goroutines that must not call t.FailNow.
func assembleNoT(data []string) map[int]*split {
	out := map[int]*split{}
	for _, d := range data {
		var c struct {
			Choices []struct {
				Index        int
				Delta        struct{ Reasoning, Content string }
				FinishReason *string `json:"finish_reason"`
			}
		}
		if json.Unmarshal([]byte(d), &c) != nil {
			continue
		}
		for _, ch := range c.Choices {
			s := out[ch.Index]
			if s == nil {
				s = &split{}
				out[ch.Index] = s
			}
			if s.Finish != "" && ch.Delta.Reasoning+ch.Delta.Content != "" {
				s.TextAfterFinish = true
			}
			s.Reasoning += ch.Delta.Reasoning
			s.Content += ch.Delta.Content
			if ch.FinishReason != nil {
				s.Finish = *ch.FinishReason
			}
		}
	}
	return out
}
