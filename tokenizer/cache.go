package tokenizer

import (
	"hash/maphash"
	"strings"
	"sync"
)

// Encoding the same word again is the common case (" the", "\n", " {"), so
// the BPE result of each short word is kept. The cache is split into shards,
// each behind its own lock, so that parsers encoding concurrently seldom
// wait on each other; a shard that reaches its limit is emptied and starts
// over, which bounds memory without bookkeeping on every hit.
const (
	cacheShards      = 64
	cacheShardLimit  = 4096 // words per shard; 262,144 in all
	cacheMaxWordSize = 256  // longer words are encoded every time
)

type wordCache struct {
	seed   maphash.Seed
	shards [cacheShards]cacheShard
}

type cacheShard struct {
	mu sync.RWMutex
	m  map[string][]int32
}

func newWordCache() *wordCache {
	return &wordCache{seed: maphash.MakeSeed()}
}

func (c *wordCache) shard(word string) *cacheShard {
	return &c.shards[maphash.String(c.seed, word)%cacheShards]
}

// get returns the cached IDs of word. The slice must not be modified.
func (c *wordCache) get(word string) ([]int32, bool) {
	s := c.shard(word)
	s.mu.RLock()
	ids, ok := s.m[word]
	s.mu.RUnlock()
	return ids, ok
}

// put records the IDs of word; ids must not be modified afterwards.
func (c *wordCache) put(word string, ids []int32) {
	if len(word) > cacheMaxWordSize {
		return
	}
	s := c.shard(word)
	s.mu.Lock()
	if s.m == nil || len(s.m) >= cacheShardLimit {
		s.m = make(map[string][]int32, 64)
	}
	s.m[strings.Clone(word)] = ids // word may point into a large text
	s.mu.Unlock()
}
