// Package work counts the work the shared plumbing does (bytes the marker
// scanner examines, bytes joined into slabs, token IDs compared), so that a
// test can check that the work per delta does not grow with the length of
// a stream with a number a busy machine cannot change, as a time would.
//
// Counting happens only in builds with the tag reasoning_work (make test
// runs the long-stream test so). In every other build Add is an empty
// function the compiler removes, and Total is always 0.
package work
